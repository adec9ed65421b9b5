"""One routing of bets: every entry point prices a bet the same way, or refuses it the same way.

The bet below settles every round except one with a suited Player pair, where its settle
function raises. A shoe known by rank only never deals such a round, so every entry point
prices the bet on it, with the same exact EV as the physical-card reference; a shoe that
knows its suits does deal one, so every entry point refuses the bet with the same sentence
(:meth:`exactodds.bets.bet.Bet.settle_round`'s), never a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from fractions import Fraction

import pytest
from starlette.testclient import TestClient

from exactodds import Analyzer, Rules, Shoe, analyze, effect_of_removal
from exactodds.analysis.routing import route_bet
from exactodds.bets.bet import Bet
from exactodds.cli.batch_lines import BadLine, batch_lines
from exactodds.engine.coefficients import polynomials
from exactodds.engine.walk import RoundSummary
from exactodds.errors import BetError
from exactodds.simulation.dealing import DealingProcedure
from exactodds.simulation.run import simulate
from exactodds.simulation.study import Simulation
from exactodds.studies.parsheet import par_sheet
from exactodds.web.app import create_app


def _settle(summary: RoundSummary) -> str:
    if summary.player_suited_pair:
        raise RuntimeError("not for suited pairs")
    return "win" if summary.banker_total == 7 else "lose"


BET = Bet(
    "banker_seven",
    "Banker ends on 7; fails on a suited Player pair.",
    _settle,
    {"win": 5, "lose": -1},
)
REFUSAL = (
    "Bet 'banker_seven' cannot settle a round of this shoe: its settle function raised "
    "RuntimeError ('not for suited pairs'); give it an outcome for every round."
)
RULES = Rules()
RANK_ONLY = Shoe.standard(decks=8).without_suits()
SUITED = Shoe.standard(decks=8)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(
        create_app(":memory:", [BET]), base_url="http://127.0.0.1", raise_server_exceptions=False
    ) as test_client:
        yield test_client


def _shoe_json(shoe: Shoe) -> dict[str, int]:
    if shoe.suit_counts is None:
        return dict(zip("A23456789TJQK", shoe.rank_counts, strict=True))
    cards = (rank + suit for rank in "A23456789TJQK" for suit in "SHDC")
    return dict(zip(cards, shoe.suit_counts, strict=True))


def _batch(shoe: Shoe) -> Fraction:
    line = json.dumps(_shoe_json(shoe))
    (block,) = batch_lines([line], Analyzer(RULES, [BET]))
    assert not isinstance(block, BadLine)
    return Fraction(json.loads(block)["bets"]["banker_seven"]["ev"])


def _web(client: TestClient, shoe: Shoe) -> Fraction:
    response = client.post("/api/odds", json={"bets": "banker_seven", "shoe": _shoe_json(shoe)})
    if response.status_code != 200:
        raise BetError(response.json()["error"])
    return Fraction(response.json()["bets"]["banker_seven"]["ev"])


def _simulate(shoe: Shoe) -> Fraction:
    assert shoe.suits_known  # a simulation deals physical cards, suits and all
    # Every round of the study is priced by the walk before any is settled, so the study is a
    # few rounds: seed 6's 2-deck shoe, cut 60 cards from the back, deals a suited Player pair.
    procedure = DealingProcedure(decks=2, cut=60)
    simulate(Simulation.of(shoes=1, seed=6, rules=RULES, bets=[BET], procedure=procedure))
    raise AssertionError("the simulation dealt no suited Player pair")


ENTRY_POINTS: dict[str, Callable[[Shoe], Fraction]] = {
    "analyze": lambda shoe: analyze(shoe, RULES, [BET]).bets["banker_seven"].expected_value,
    "Analyzer": lambda shoe: (
        Analyzer(RULES, [BET]).analyze(shoe).bets["banker_seven"].expected_value
    ),
    "batch": _batch,
    "eor": lambda shoe: effect_of_removal(shoe, RULES, [BET]).expected_values["banker_seven"],
    "report": lambda shoe: (
        par_sheet(shoe, RULES, [BET], breakeven=False).bets["banker_seven"].result.expected_value
    ),
}


def _reference(shoe: Shoe) -> Fraction:
    """The EV counted from the walk's table directly, each round settled by the bet itself."""
    from exactodds.engine.walk import enumerate_rounds

    table = enumerate_rounds(shoe, RULES.tableau)
    return sum(
        (
            Fraction(count * BET.pay(_settle(summary)), table.total)
            for summary, count in table.counts.items()
        ),
        Fraction(0),
    )


def test_the_probes_send_the_bet_to_the_walk_unless_only_rank_only_shoes_are_asked() -> None:
    keys = polynomials(RULES.tableau).keys
    assert route_bet(BET, keys).how == "walk"
    assert route_bet(BET, keys, (True,)).how == "walk"
    assert route_bet(BET, keys, (False,)).how == "polynomial"


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_every_entry_point_prices_it_on_a_shoe_known_by_rank(entry: str) -> None:
    assert ENTRY_POINTS[entry](RANK_ONLY) == _reference(RANK_ONLY)


def test_the_web_api_prices_it_on_a_shoe_known_by_rank(client: TestClient) -> None:
    assert _web(client, RANK_ONLY) == _reference(RANK_ONLY)


@pytest.mark.parametrize("entry", [*sorted(ENTRY_POINTS), "simulate"])
def test_every_entry_point_refuses_it_on_a_suited_shoe_in_one_sentence(entry: str) -> None:
    price = ENTRY_POINTS.get(entry, _simulate)
    with pytest.raises(BetError) as refused:
        price(SUITED)
    assert str(refused.value) == REFUSAL


def test_the_web_api_refuses_it_on_a_suited_shoe_in_one_sentence(client: TestClient) -> None:
    response = client.post("/api/odds", json={"bets": "banker_seven", "shoe": _shoe_json(SUITED)})
    assert 400 <= response.status_code < 500
    assert response.json() == {"error": REFUSAL}
