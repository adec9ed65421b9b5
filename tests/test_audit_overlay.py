"""``audit`` and ``eor`` under a random-multiplier overlay: every figure per unit paid, checked
three ways.

* invariant: under the all-ones law with no fee, the audit is the plain audit, figure for
  figure (exact figures, effects of removal, the found count, perfect play, each cut);
* against the overlay's own analysis: the exact figures are 1 less the RTP that
  ``analyze_overlay`` gives, and each rank's effect of removal is the mean, over the suits the
  removed card may have, of the EV per unit paid on the shoe left less the EV before, each
  priced on its own (on a depleted shoe, so no suit symmetry is assumed);
* the command: ``audit --table golden_wealth`` says its time before the work, prints the
  overlay and what its figures are per, writes the overlay into its JSON, and its reproduction
  line, run, gives the found count's win again; what it cannot do is one sentence, exit 2;
  ``eor --table golden_wealth`` gives the library's effects and ``odds``' RTP.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import replace
from fractions import Fraction

from cli_runner import run

from exactodds import Rules, Shoe
from exactodds.analysis.multipliers import analyze_overlay
from exactodds.analysis.removal import effect_of_removal
from exactodds.bets.catalogue import select_bets
from exactodds.bets.multipliers import MultiplierOverlay, resolve_overlay
from exactodds.simulation.dealing import DealingProcedure
from exactodds.studies.audit import AuditSpec, audit, exact_figures


def test_the_all_ones_law_without_a_fee_is_the_plain_audit() -> None:
    """Every figure of a Tie and Banker audit on 1 deck, with and without the overlay."""
    procedure = DealingProcedure(decks=1)
    spec = AuditSpec(select_bets("tie,banker"), Rules(), procedure, 2, cuts=(14, 26), depths=())
    plain = audit(spec).to_dict()
    overlaid = audit(replace(spec, overlay=MultiplierOverlay(5, {1: 1}))).to_dict()
    assert overlaid.pop("overlay")["faces"] == 5
    assert overlaid == plain


def _paid(shoe: Shoe, overlay: MultiplierOverlay, name: str) -> Fraction:
    """The bet's EV per unit paid under the overlay (its fee charged): the RTP less 1."""
    return (
        analyze_overlay(shoe, Rules(), select_bets(name), overlay=overlay).return_to_player(name)
        - 1
    )


def test_effects_of_removal_are_the_mean_over_the_suits_removed() -> None:
    """Golden Wealth's Tie and Player Pair on a depleted 2-deck shoe (a face may be held twice,
    so suits matter): each rank's effect is the weighted mean over the suits left of the EV per
    unit paid, less the EV before."""
    overlay = resolve_overlay("golden_wealth")
    shoe = Shoe.standard(decks=2)
    for card in ("7H", "7H", "7D", "KS", "2C", "9H", "AS", "AS", "AC"):
        shoe = shoe.remove(card)
    bets = select_bets("tie,player_pair")
    removal = effect_of_removal(shoe, Rules(), bets, overlay=overlay)
    suits = shoe.suit_counts
    assert suits is not None
    for name in ("tie", "player_pair"):
        before = _paid(shoe, overlay, name)
        assert removal.expected_values[name] == before
        for rank, symbol in ((6, "7"), (12, "K"), (0, "A")):
            held = [(suit, suits[rank * 4 + suit]) for suit in range(4) if suits[rank * 4 + suit]]
            mean = sum(
                (count * _paid(shoe.remove(symbol + "SHDC"[suit]), overlay, name))
                for suit, count in held
            ) / sum(count for _, count in held)
            assert removal.effect(name, symbol) == mean - before, (name, symbol)


def test_exact_figures_are_one_less_the_rtp() -> None:
    """The house edge under an overlay is 1 less its RTP (the fee charged), its hit frequency
    the overlay's, its variance the overlay's over (1 + fee) squared."""
    overlay = resolve_overlay("golden_wealth")
    shoe = Shoe.standard(decks=8)
    priced = analyze_overlay(shoe, Rules(), select_bets("tie"), overlay=overlay)
    figures = exact_figures(select_bets("tie")[0], Rules(), shoe, overlay)
    assert figures.house_edge == 1 - priced.return_to_player("tie")
    assert figures.hit_frequency == priced.bets["tie"].win_probability
    assert figures.variance == priced.bets["tie"].variance / Fraction(6, 5) ** 2


def test_audit_takes_a_multiplier_table() -> None:
    """audit --table golden_wealth on 1 deck: exit 0, the time said first, the overlay and its
    unit in the text, the overlay in the JSON, and the reproduction line gives the win again."""
    options: tuple[str, ...] = ("--table", "golden_wealth", "--bets", "tie", "--decks", "1")
    options += ("--budget", "3", "--cuts", "14", "--depths", "none")
    result = run("audit", *options)
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("Pricing about ")
    assert "Multipliers: golden_wealth" in result.stdout and "per unit paid" in result.stdout
    line = result.stdout.split("simulated on 3 fresh shoes (seed 2), as ")[1]
    command = shlex.split(" ".join(line.split(" gives them.")[0].split()))
    assert command[:2] == ["exactodds", "simulate"] and "--multipliers" in command
    quiet = run("audit", *options, "--format", "json", "--quiet")
    figures = json.loads(quiet.stdout)
    assert figures["overlay"]["name"] == "golden_wealth"
    again = run(*command[1:], "--format", "json", "--quiet")
    assert again.exit_code == 0, again.output
    simulated = json.loads(again.stdout)["bets"]["tie"]["units_per_100_rounds"]["exact_ev"]
    found = figures["bets"]["tie"]["count"]["units_per_100_rounds"]
    assert (simulated["mean"], simulated["stderr"]) == (found["mean"], found["stderr"])


def test_what_an_audit_under_an_overlay_cannot_do_is_one_sentence() -> None:
    """A bet the overlay does not multiply, --design or --game with it, and a run past a day of
    CPU: one sentence each, exit 2, before any work."""
    cases = [
        ("--multipliers", "golden_wealth", "--bets", "dragon7", "--budget", "2"),
        ("--multipliers", "golden_wealth", "--bets", "tie", "--design", "win=4..6"),
        ("--multipliers", "golden_wealth", "--game", "dragon-tiger", "--bets", "tie"),
        ("--table", "golden_wealth", "--budget", "5000"),
    ]
    for arguments in cases:
        result = run("audit", *arguments)
        assert result.exit_code == 2, (arguments, result.output)
        assert result.stdout == "" and result.stderr.count("\n") == 1, arguments
        assert "Traceback" not in result.output


def test_the_rtp_of_effects_under_an_overlay_is_the_overlays() -> None:
    """With the fee set in the rules as well (as --table golden_wealth sets it), the RTP the
    effects of removal report is analyze_overlay's: the fee is charged once."""
    overlay = resolve_overlay("golden_wealth")
    rules = Rules(fee="20%")
    shoe = Shoe.standard(decks=1)
    removal = effect_of_removal(shoe, rules, select_bets("tie,banker"), overlay=overlay)
    priced = analyze_overlay(shoe, rules, select_bets("tie,banker"), overlay=overlay)
    for name in ("tie", "banker"):
        assert removal.return_to_player(name) == priced.return_to_player(name)


def test_eor_takes_a_multiplier_table() -> None:
    """eor --table golden_wealth: the library's exact effects under the overlay, and the RTP
    odds prints for the same table; with --game dragon-tiger, one sentence, exit 2."""
    result = run("eor", "--table", "golden_wealth", "--bets", "tie", "--format", "json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["overlay"]["name"] == "golden_wealth"
    overlay = resolve_overlay("golden_wealth")
    rules = Rules(fee="20%", tie_pays=5)
    shoe = Shoe.standard(decks=8)
    removal = effect_of_removal(shoe, rules, select_bets("tie", rules), overlay=overlay)
    assert figures["eor"]["tie"] == {
        rank: str(effect) for rank, effect in removal.effects["tie"].items()
    }
    odds = run("odds", "--table", "golden_wealth", "--bets", "tie", "--format", "json")
    assert json.loads(odds.stdout)["bets"]["tie"]["rtp"] == figures["bets"]["tie"]["rtp"]
    refused = run("eor", "--multipliers", "golden_wealth", "--game", "dragon-tiger")
    assert refused.exit_code == 2 and refused.stderr.count("\n") == 1
