"""Random-multiplier overlays: exact against physical cards and drawn faces, and invariants.

The reference here shares nothing with :mod:`exactodds.engine.faces` or
:meth:`~exactodds.bets.multipliers.MultiplierOverlay.multiples`: it deals every ordered
sequence of a tiny suited shoe's physical cards (tests/reference.py), and for each round
enumerates every set of faces the RNG can draw from a tiny deck and every multiplier each
drawn face can get, paying a winning bet by the cards the rules name.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from budget import budgeted
from hypothesis import given
from hypothesis import strategies as st
from reference import PhysicalCard, physical_cards, play_round

from exactodds import Rules, Shoe
from exactodds.analysis.multipliers import analyze_overlay
from exactodds.analysis.single import analyze
from exactodds.bets.bet import Bet, main_bets
from exactodds.bets.multipliers import (
    BetMultipliers,
    MultiplierOverlay,
    OverlayError,
    parse_overlay,
    resolve_overlay,
)
from exactodds.bets.side import side_bets
from exactodds.engine.walk import RoundSummary

_Face = tuple[str, str]
_FACES = ["AS", "AH", "9S", "9D", "KS", "KC", "5H"]


def _bets() -> list[Bet]:
    return [*main_bets(Rules()), side_bets()["player_pair"], side_bets()["banker_pair"]]


def _hands(
    sequence: Sequence[PhysicalCard], summary: RoundSummary
) -> tuple[list[PhysicalCard], list[PhysicalCard]]:
    """The Player's and Banker's cards, dealt P B P B, then the Player's third, then the Banker's."""
    player = [sequence[0], sequence[2]]
    banker = [sequence[1], sequence[3]]
    if summary.player_cards == 3:
        player.append(sequence[4])
    if summary.banker_cards == 3:
        banker.append(sequence[4 + (summary.player_cards == 3)])
    return player, banker


def _multiplied_cards(
    name: str, summary: RoundSummary, player: list[PhysicalCard], banker: list[PhysicalCard]
) -> list[PhysicalCard]:
    """The cards whose faces multiply bet *name*'s win, written from the game's rules."""
    if name == "player":
        return player
    if name == "banker":
        return banker
    if name == "tie":
        return player + banker
    return (player if name == "player_pair" else banker)[:2]


def _face(card: PhysicalCard) -> _Face:
    assert card.suit is not None
    return (card.rank.value, card.suit.value)


def _expected_multiple(
    faces: tuple[_Face, ...],
    deck: list[_Face],
    drawn: int,
    law: dict[Fraction, Fraction],
    cap: Fraction | None,
) -> Fraction:
    """E[min(product, cap)] over every drawn set of faces and every multiplier each gets."""
    subsets = list(itertools.combinations(deck, drawn))
    total = Fraction(0)
    for subset in subsets:
        for values in itertools.product(law.items(), repeat=drawn):
            chance = math.prod((probability for _, probability in values), start=Fraction(1))
            given_to = {face: value for face, (value, _) in zip(subset, values, strict=True)}
            product = math.prod(
                (given_to.get(face, Fraction(1)) for face in faces), start=Fraction(1)
            )
            total += chance * (product if cap is None else min(product, cap))
    return total / len(subsets)


def _brute_force(
    shoe: Shoe,
    deck: list[_Face],
    drawn: int,
    law: dict[Fraction, Fraction],
    settings_by_bet: dict[str, BetMultipliers],
) -> dict[str, Fraction]:
    """Each bet's exact EV, one physical sequence and one drawn set of faces at a time."""
    groups: Counter[tuple[str, str, tuple[_Face, ...]]] = Counter()
    rounds = 0
    bets = _bets()
    for sequence in itertools.permutations(physical_cards(shoe), 6):
        summary = play_round(sequence, suits_known=True)
        assert summary is not None
        rounds += 1
        player, banker = _hands(sequence, summary)
        for bet in bets:
            outcome = bet.settle(summary)
            cards = _multiplied_cards(bet.name, summary, player, banker)
            faces = tuple(sorted(_face(card) for card in cards)) if bet.pay(outcome) > 0 else ()
            groups[(bet.name, outcome, faces)] += 1
    result = dict.fromkeys((bet.name for bet in bets), Fraction(0))
    by_name = {bet.name: bet for bet in bets}
    for (name, outcome, faces), count in groups.items():
        pay = by_name[name].pay(outcome)
        setting = settings_by_bet.get(name, BetMultipliers())
        if pay > 0 and not setting.off:
            base = setting.pay if setting.pay is not None and outcome == "win" else pay
            pay = base * _expected_multiple(faces, deck, drawn, law, setting.cap)
        result[name] += pay * count
    return {name: value / rounds for name, value in result.items()}


@st.composite
def _cases(
    draw: st.DrawFn,
) -> tuple[Shoe, list[_Face], int, dict[Fraction, Fraction], dict[str, BetMultipliers]]:
    chosen = draw(st.lists(st.sampled_from(_FACES), min_size=6, max_size=7))
    shoe = Shoe.from_mapping(dict(Counter(chosen)))
    held = sorted({(face[0], face[1]) for face in chosen})
    extra = draw(st.integers(0, 1))
    deck = held + [face for face in (("2", "C"), ("3", "D")) if face not in held][:extra]
    drawn = draw(st.integers(1, min(3, len(deck))))
    values = draw(st.lists(st.sampled_from([1, 2, 3, 5]), min_size=1, max_size=2, unique=True))
    weights = draw(st.lists(st.integers(1, 3), min_size=len(values), max_size=len(values)))
    law = {
        Fraction(value): Fraction(weight, sum(weights))
        for value, weight in zip(values, weights, strict=True)
    }
    cap = draw(st.sampled_from([None, Fraction(4)]))
    settings_by_bet = {
        "tie": BetMultipliers(pay=Fraction(5), cap=cap),
        "player_pair": BetMultipliers(pay=Fraction(9)),
        "banker_pair": BetMultipliers(off=draw(st.booleans())),
    }
    return shoe, deck, drawn, law, settings_by_bet


@budgeted(12, deadline=None)
@given(case=_cases())
def test_overlay_matches_physical_cards_and_drawn_faces(
    case: tuple[Shoe, list[_Face], int, dict[Fraction, Fraction], dict[str, BetMultipliers]],
) -> None:
    """Every bet's EV equals the brute force over physical cards, drawn faces and multipliers."""
    shoe, deck, drawn, law, settings_by_bet = case
    overlay = MultiplierOverlay(drawn, law, bets=settings_by_bet, deck=len(deck))
    priced = analyze_overlay(shoe, Rules(), _bets(), overlay=overlay)
    expected = _brute_force(shoe, deck, drawn, law, settings_by_bet)
    assert {name: bet.expected_value for name, bet in priced.bets.items()} == expected


def test_all_ones_law_without_fee_is_the_game_without_overlay() -> None:
    """The law that always gives 1x, and no fee: every bet's figures as if no overlay."""
    ones = MultiplierOverlay(5, {1: 1})
    for shoe in (Shoe.standard(decks=8), Shoe.standard(decks=2).remove("7H 7H KS 5D")):
        priced = analyze_overlay(shoe, Rules(), _bets(), overlay=ones)
        plain = analyze(shoe, Rules(), _bets())
        for name, bet in priced.bets.items():
            assert bet.distribution == plain.bets[name].distribution
            assert bet.variance == plain.bets[name].variance
            assert priced.return_to_player(name) == plain.bets[name].return_to_player()


def _rtps(overlay: MultiplierOverlay, shoe: Shoe) -> dict[str, Fraction]:
    priced = analyze_overlay(shoe, Rules(), _bets(), overlay=overlay)
    return {name: priced.return_to_player(name) for name in priced.bets}


def test_rtp_is_linear_in_each_probability_when_one_face_is_drawn() -> None:
    """One face drawn: a hand holds at most that face, so the RTP is linear in the law.

    With more faces drawn the RTP is a polynomial in the law (two faces of a hand multiply),
    of degree at most the number of cards a bet multiplies: the next test holds that bound.
    """
    shoe = Shoe.standard(decks=2)
    points = [Fraction(step, 4) for step in range(3)]
    found = [_rtps(MultiplierOverlay(1, {2: p, 1: 1 - p} if p else {1: 1}), shoe) for p in points]
    for name in found[0]:
        first, second, third = (rtps[name] for rtps in found)
        assert second - first == third - second
        assert first != second


def test_rtp_is_a_polynomial_of_bounded_degree_in_a_probability() -> None:
    """Moving probability from 2x to 8x, the Player's RTP has a vanishing 4th difference."""
    shoe = Shoe.standard(decks=1)
    rtps = [
        _rtps(
            MultiplierOverlay(
                5, {2: 1 - Fraction(step, 5), 8: Fraction(step, 5)} if step else {2: 1}
            ),
            shoe,
        )
        for step in range(5)
    ]
    player = [found["player"] for found in rtps]
    differences = player
    for _ in range(4):
        differences = [b - a for a, b in itertools.pairwise(differences)]
    assert differences == [0]
    third = [b - a for a, b in itertools.pairwise(player)]
    assert len({b - a for a, b in itertools.pairwise(third)}) > 1  # not linear: products


def test_a_face_held_twice_multiplies_twice() -> None:
    """Two cards of one face drawn at 2x pay 4x: the pattern (2,) on a two-face deck."""
    overlay = MultiplierOverlay(1, {2: 1}, deck=2)
    assert overlay.multiples((2,)) == {Fraction(1): Fraction(1, 2), Fraction(4): Fraction(1, 2)}
    assert overlay.multiples((1, 1)) == {Fraction(2): Fraction(1)}


def test_shipped_overlays_read_and_say_their_law_is_assumed() -> None:
    for name, faces in (("golden_wealth", 5), ("prosperity_tree", 8)):
        overlay = resolve_overlay(name)
        assert overlay.faces == faces and overlay.fee == Fraction(1, 5) and overlay.assumed
        assert overlay.to_dict()["law_assumed"] is True


def test_bad_overlays_are_one_sentence() -> None:
    cases = {
        'faces = 5\n[law]\n2 = "1/4"\n': "sums to 1/4, not 1",
        "faces = 5\n[law]\n-2 = 1\n": "is not positive",
        "faces = 5\n[law]\n0 = 1\n": "is not positive",
        "faces = 53\n[law]\n2 = 1\n": "more than the 52 faces",
        "faces = 5\n[law]\n2 = 1\n[bets.lucky6]\npay = 2\n": "takes no multipliers",
        "faces = 5\n[law]\n2 = 1\n[bets.tie]\nboost = 2\n": "Unknown key 'boost' for bet tie",
        "colour = 2\nfaces = 5\n[law]\n2 = 1\n": "Unknown key 'colour'",
        "faces = 5\n[law]\ntwo = 1\n": "is not a number",
        "faces = 5\n": "has no law",
    }
    for text, words in cases.items():
        try:
            parse_overlay(text, "my.toml")
        except OverlayError as error:
            message = str(error)
            assert words in message, message
            assert message.count(". ") == 0 and message.endswith(".") and "\n" not in message
        else:
            raise AssertionError(f"{text!r} was accepted")


def test_odds_with_multipliers_in_every_format() -> None:
    """The command's JSON carries the library's exact figures; CSV a row a bet."""
    import json

    from cli_runner import run_ok

    args = ("odds", "--decks", "1", "--multipliers", "prosperity_tree")
    data = json.loads(run_ok(*args, "--format", "json").stdout)
    priced = analyze_overlay(
        Shoe.standard(decks=1), Rules(), overlay=resolve_overlay("prosperity_tree")
    )
    for name, bet in priced.bets.items():
        assert Fraction(data["bets"][name]["rtp"]) == priced.return_to_player(name)
        assert Fraction(data["bets"][name]["variance"]) == bet.variance
        assert sum(Fraction(p) for p in data["bets"][name]["distribution"].values()) == 1
    assert data["overlay"]["law_assumed"] is True and data["fee"] == "1/5"
    rows = run_ok(*args, "--format", "csv").stdout.splitlines()
    assert [row.split(",")[0] for row in rows[1:]] == ["banker", "player", "tie"]
    table = run_ok(*args).stdout
    assert "assumed" in table and "RTP" in table
    law = run_ok("bets", "--multipliers", "prosperity_tree").stdout
    assert "8 faces drawn of 52" in law and "tie: pays 5 times the multiple" in law


def test_bad_multiplier_input_is_one_sentence_and_exit_2(tmp_path: object) -> None:
    from pathlib import Path

    from cli_runner import run

    folder = Path(str(tmp_path))
    cases = {
        "half": ('faces = 5\n[law]\n2 = "1/2"\n', "sums to 1/2, not 1"),
        "zero": ("faces = 5\n[law]\n0 = 1\n", "is not positive"),
        "many": ("faces = 60\n[law]\n2 = 1\n", "more than the 52 faces"),
        "key": ("faces = 5\n[law]\n2 = 1\n[bets.tie]\nboost = 1\n", "Unknown key 'boost'"),
    }
    for name, (text, words) in cases.items():
        path = folder / f"{name}.toml"
        path.write_text(text)
        result = run("odds", "--multipliers", str(path))
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr
    for args, words in (
        (("odds", "--multipliers", "no_such_law"), "neither a file that exists"),
        (("odds", "--multipliers", "golden_wealth", "--remove", "K"), "known by rank only"),
        (("odds", "--multipliers", "golden_wealth", "--known", "1=9"), "drop --known"),
        (
            (
                "multipliers",
                "--multipliers",
                "golden_wealth",
                "--steps",
                "1000",
                "--target",
                "player=98.9%",
            ),
            "more than 20,000",
        ),
        (
            (
                "multipliers",
                "--multipliers",
                "prosperity_tree",
                "--infer",
                "2",
                "--rtp",
                "player=lots",
            ),
            "is not a percentage",
        ),
    ):
        result = run(*args)
        assert result.exit_code == 2 and result.stdout == "", (args, result.stderr)
        assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr


def test_inferred_polynomials_are_the_exact_rtps() -> None:
    """Each bet's RTP polynomial in P(2x) equals the priced RTP at a point it was not built on."""
    from exactodds.bets.catalogue import select_bets
    from exactodds.studies.multipliers import infer_law, published_rtp

    shoe = Shoe.standard(decks=1)
    template = resolve_overlay("prosperity_tree")
    figures = [published_rtp(bet, "95%") for bet in ("player", "banker", "tie", "player_pair")]
    found = infer_law(shoe, Rules(), template, Fraction(2), figures)
    point = Fraction(2, 7)
    law = MultiplierOverlay(8, {2: point, 3: 1 - point}, template.fee, template.bets_items)
    bets = select_bets("player,banker,tie,player_pair", Rules())
    priced = analyze_overlay(shoe, Rules(), bets, overlay=law)
    for implied in found.implied:
        value = sum((c * point**power for power, c in enumerate(implied.polynomial)), Fraction(0))
        assert value == priced.return_to_player(implied.published.bet)
        for low, high in implied.intervals:  # every p inside rounds to the figure
            middle = (low + high) / 2
            at = sum((c * middle**power for power, c in enumerate(implied.polynomial)), Fraction(0))
            assert implied.published.holds(at)


def test_design_keeps_only_laws_inside_every_window() -> None:
    from exactodds.studies.multipliers import LawGrid, design_laws, published_rtp

    shoe = Shoe.standard(decks=2)
    template = resolve_overlay("prosperity_tree")
    targets = {
        "player": published_rtp("player", "95%:105%"),
        "tie": published_rtp("tie", "80%:110%"),
    }
    grid = LawGrid((6, 8), (Fraction(2), Fraction(3)), 8)
    design = design_laws(shoe, Rules(), template, grid, targets, top=100)
    assert design.examined == grid.size == 18
    for found in design.laws:
        law = MultiplierOverlay(found.faces, dict(found.law), template.fee, template.bets_items)
        priced = analyze_overlay(shoe, Rules(), overlay=law)
        for bet, target in targets.items():
            assert found.rtps[bet] == priced.return_to_player(bet)
            assert target.holds(found.rtps[bet])
    scores = [found.score for found in design.laws]
    assert scores == sorted(scores) and len(scores) > 0
