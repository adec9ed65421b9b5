"""A run's tally, added block by block (histograms in dicts), equals the block-by-block fold."""

from __future__ import annotations

from functools import reduce

from exactodds.bets.catalogue import select_bets
from exactodds.simulation.block import run_block
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.run import _Running
from exactodds.simulation.study import Simulation
from exactodds.simulation.tally import Tally


def test_the_running_tally_equals_merging_every_block() -> None:
    bets = select_bets("banker,dragon7,player_pair")
    simulation = Simulation.of(9, 4, bets=bets, procedure=DealingProcedure(decks=1))
    blocks = [run_block(simulation, first, 1).tally for first in range(9)]
    start = Tally.empty(bet.integer_pays()[1] for bet in bets)
    running = _Running(blocks[0])
    for block in blocks[1:]:
        running.add(block)
    folded = reduce(Tally.merged, blocks)
    assert running.tally() == folded
    assert (running.shoes, running.rounds) == (folded.shoes, folded.rounds)
    assert all(len(bet.histogram) > 1 for bet in folded.bets)  # histograms really merged
    empty = _Running(start)
    assert empty.tally() == start
