"""The ``exactodds`` command line: a thin skin over the library.

One click group (:mod:`exactodds.cli.app`), one module per command, shared option decorators
(:mod:`exactodds.cli.options`) so that every command reads the shoe, the rules and the output
settings the same way. Errors a user can cause become one sentence on stderr and exit code 2;
data goes to stdout only. A command's module is imported only when that command runs.

- The commands: :mod:`exactodds.cli.odds`, :mod:`exactodds.cli.bets`,
  :mod:`exactodds.cli.breakdown`, :mod:`exactodds.cli.eor`, :mod:`exactodds.cli.breakeven`,
  :mod:`exactodds.cli.batch` (its line pipeline in :mod:`exactodds.cli.batch_lines`),
  :mod:`exactodds.cli.depth`, :mod:`exactodds.cli.edgesort`, :mod:`exactodds.cli.solve`
  (``--game peek`` in :mod:`exactodds.cli.solve_peek`; ``--rules`` and ``--game banque`` in
  :mod:`exactodds.cli.solve_choice`),
  :mod:`exactodds.cli.multipliers`, :mod:`exactodds.cli.report`, :mod:`exactodds.cli.audit`
  (``--game dragon-tiger`` in :mod:`exactodds.cli.dragon_tiger`),
  :mod:`exactodds.cli.protection`, :mod:`exactodds.cli.review`,
  :mod:`exactodds.cli.simulate` (sweeps in
  :mod:`exactodds.cli.simulate_sweep`, its risk options in :mod:`exactodds.cli.risk_options`)
  and :mod:`exactodds.cli.serve`.
- Shared: :mod:`exactodds.cli.options` (the option decorators), :mod:`exactodds.cli.plots`
  (``--plot DIR``), :mod:`exactodds.cli.header` (a filed sheet's header options, for ``report``
  and ``audit``), :mod:`exactodds.cli.files` (an output file, written whole or not at all) and
  :mod:`exactodds.cli.progress` (a progress line on stderr at a terminal).
"""

from __future__ import annotations

from exactodds.cli.app import cli, main

#: Every command: its name and where it lives (``module:attribute``), imported on first use.
COMMANDS = {
    "audit": "exactodds.cli.audit:audit_command",
    "batch": "exactodds.cli.batch:batch",
    "bets": "exactodds.cli.bets:list_bets",
    "breakdown": "exactodds.cli.breakdown:breakdown_command",
    "breakeven": "exactodds.cli.breakeven:breakeven",
    "depth": "exactodds.cli.depth:depth",
    "edgesort": "exactodds.cli.edgesort:edgesort",
    "eor": "exactodds.cli.eor:eor",
    "multipliers": "exactodds.cli.multipliers:multipliers_command",
    "odds": "exactodds.cli.odds:odds",
    "protection": "exactodds.cli.protection:protection",
    "report": "exactodds.cli.report:report",
    "review": "exactodds.cli.review:review_command",
    "serve": "exactodds.cli.serve:serve",
    "simulate": "exactodds.cli.simulate:simulate",
    "solve": "exactodds.cli.solve:solve_command",
}
cli.lazy_commands.update(COMMANDS)

#: ``exactodds --help`` lists the commands by task, each with one line that fits 80 columns
#: (and no command module is imported to write it).
TASKS = {
    "Price a game": {
        "odds": "Exact odds of every bet (or Dragon Tiger) for one shoe",
        "bets": "The bets exactodds prices, their outcomes and pays",
        "breakdown": "How rounds end: totals, cards dealt, naturals",
        "breakeven": "The pay or commission that makes a bet fair",
        "solve": "Games with a choice solved: chemin de fer, Peek, banque",
        "multipliers": "A multiplier law designed for target RTPs, or inferred",
    },
    "Study a shoe": {
        "eor": "Effect of removal of each rank, and the count it implies",
        "depth": "Perfect play by depth: how often a bet turns positive",
        "edgesort": "The advantage of seeing the groups of the first cards",
        "batch": "Exact EVs for many shoes, one JSON line each",
    },
    "Simulate and audit": {
        "simulate": "Deal shoes as a casino does and play each bet",
        "audit": "Can this bet be beaten? Edge, counts, simulation",
        "protection": "The casino's levers against an advantage player, priced",
        "report": "Par sheet of each bet: Markdown, HTML, xlsx or PDF",
        "review": "A player's logged bets against the exact EV: luck or skill?",
    },
    "Tools": {
        "serve": "The live shoe tracker page and the JSON API",
    },
}
cli.task_summaries.update(TASKS)

__all__ = ["COMMANDS", "TASKS", "cli", "main"]
