"""Games with a choice: a rules file's choice cells (the Player's option at 5) and baccara banque.

Each solver is checked against a slow physical-card brute force written here from the printed
rules (nothing from :mod:`exactodds.games`): every ordered sequence of a small shoe's physical
cards is dealt and played card by card.  The fixed tableaux are checked against the odds engine
(``odds --rules``), exactly.

Sources of the rules:

* The Player's option on 5 and the Banker's options on 3 against a 9 and 5 against a 4: the
  chemin de fer rule ("Chemin de fer: game must be played according to rules", Gaming
  dictionary, http://gaming-dictionary.pokerwiner.com/chemin-de-fer-must-play-poker.html).
* Baccara banque: "a game in which a banker plays chemin-de-fer simultaneously against two
  players" (Downton and Lockwood, quoted by Ethier and Lee 2015, "On the three-person game
  baccara banque", Games 6, 57-78, https://www.mdpi.com/2073-4336/6/2/57); the bank "cannot
  draw optimally against both tables at once" and weighs the stakes on each ("Baccarat
  banque", Guía del juego para los amantes del casino,
  http://acanomas.com/Guia-del-Juego-para-los-Amantes-del-Casino/1397/Baccarat-banque.htm).
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest
from budget import budgeted, thorough
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds import Rules, Shoe, analyze
from exactodds.cli import cli
from exactodds.games.banque import BanqueError, BanqueModel, solve_banque
from exactodds.games.chemin_de_fer import Model, solve
from exactodds.games.equilibria import Profile, best_reply_failures
from exactodds.games.option import (
    OptionError,
    OptionModel,
    build_option_game,
    solve_option,
)
from exactodds.rulefiles import (
    RulesFile,
    RulesFileError,
    TableauChoices,
    parse_rules_file,
    resolve_rules_file,
)
from exactodds.rules import Tableau

ROOT = Path(__file__).resolve().parent.parent
OPTION_AT_5 = ROOT / "examples" / "rules" / "option_at_5.toml"
STAND_ON_5 = ROOT / "examples" / "rules" / "stand_on_5.toml"
CHEMIN_DE_FER = ROOT / "examples" / "rules" / "chemin_de_fer.toml"
_VALUE = {"A": 1, "T": 0, "J": 0, "Q": 0, "K": 0, **{str(n): n for n in range(2, 10)}}
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")


def _cards(shoe: Shoe) -> list[int]:
    """The shoe's physical cards, one value each."""
    return [
        _VALUE[rank]
        for rank, count in zip(_RANKS, shoe.rank_counts, strict=True)
        for _ in range(count)
    ]


def _total(cards: list[int]) -> int:
    return sum(cards) % 10


def _label(first: int, second: int) -> str:
    low, high = sorted((first, second))
    return f"{low}+{high}"


# The Player's option at 5 ------------------------------------------------------------------


def _play_option(sequence: tuple[int, ...], player_draws_on_5: dict[str, bool]) -> int:
    """One round of Punto Banco with the Player choosing on 5 by his cards: +1 Banker wins,
    -1 Player wins, 0 tie.  The Banker's rule is the casino tableau, written out."""
    player = [sequence[0], sequence[2]]
    banker = [sequence[1], sequence[3]]
    if _total(player) >= 8 or _total(banker) >= 8:
        return (_total(banker) > _total(player)) - (_total(player) > _total(banker))
    position = 4
    total = _total(player)
    if total <= 4 or (total == 5 and player_draws_on_5[_label(*player)]):
        third = sequence[position]
        position += 1
        player.append(third)
        b = _total(banker)
        draws = (
            b <= 2
            or (b == 3 and third != 8)
            or (b == 4 and 2 <= third <= 7)
            or (b == 5 and 4 <= third <= 7)
            or (b == 6 and third in (6, 7))
        )
    else:
        draws = _total(banker) <= 5
    if draws:
        banker.append(sequence[position])
    return (_total(banker) > _total(player)) - (_total(player) > _total(banker))


def _brute_player_ev(shoe: Shoe, policy: dict[str, bool]) -> Fraction:
    """The Player bet's EV under *policy*, by every permutation of six physical cards."""
    net = count = 0
    for sequence in itertools.permutations(_cards(shoe), 6):
        net -= _play_option(sequence, policy)
        count += 1
    return Fraction(net, count)


SMALL_SHOES = st.dictionaries(
    st.sampled_from(["A", "2", "3", "4", "5", "6", "7", "8", "9", "K"]),
    st.integers(1, 2),
    min_size=3,
).filter(lambda counts: 6 <= sum(counts.values()) <= 8)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SMALL_SHOES)
def test_every_player_policy_matches_a_physical_card_brute_force(counts: dict[str, int]) -> None:
    shoe = Shoe.from_ranks(counts)
    rules_file = resolve_rules_file(str(OPTION_AT_5))
    game, _ = build_option_game(shoe, rules_file)
    labels = [str(label) for label in game.player_choices]
    best = None
    for bits in itertools.product((0, 1), repeat=len(labels)):
        policy = dict(zip(labels, (bool(bit) for bit in bits), strict=True))
        expected = _brute_player_ev(shoe, policy)
        assert game.player.value(tuple(Fraction(bit) for bit in bits), ()) == expected
        best = expected if best is None else max(best, expected)
    solution = solve_option(shoe, rules_file)
    if labels:
        assert solution.best.player == best


@budgeted(15, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]), st.integers(1, 4)
    ),
    st.integers(1, 2),
)
def test_both_fixed_tableaux_equal_the_odds_engine_and_best_play_beats_both(
    removed: dict[str, int], decks: int
) -> None:
    shoe = Shoe.standard(decks=decks)
    if removed:
        shoe = shoe.remove(" ".join(rank for rank, count in removed.items() for _ in range(count)))
    rules_file = resolve_rules_file(str(OPTION_AT_5))
    solution = solve_option(shoe, rules_file)
    for values, draw in ((solution.all_draw, True), (solution.all_stand, False)):
        tableau = rules_file.choices.resolve(rules_file.drawing, draw)
        engine = analyze(shoe, Rules(tableau=tableau)).expected_values()
        assert (values.player, values.banker, values.tie_bet) == (
            engine["player"],
            engine["banker"],
            engine["tie"],
        )
    assert solution.best.player >= solution.all_draw.player
    assert solution.best.player >= solution.all_stand.player
    assert solution.verified
    for hand in solution.player_hands:
        assert hand.draw == (1 if hand.gain > 0 else 0) or hand.gain == 0


def _odds_player_ev(rules: str) -> Fraction:
    result = CliRunner().invoke(cli, ["odds", "--rules", rules, "--format", "json"])
    assert result.exit_code == 0, result.stderr
    return Fraction(json.loads(result.stdout)["bets"]["player"]["ev"])


def test_eight_decks_best_play_is_at_least_both_tableaux_priced_by_odds() -> None:
    """The acceptance test: exact comparison with `odds --rules` for stand and draw on 5."""
    result = CliRunner().invoke(
        cli, ["solve", "--decks", "8", "--rules", str(OPTION_AT_5), "--format", "json"]
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    best = Fraction(data["best"]["player_ev"])
    draw, stand = _odds_player_ev("standard"), _odds_player_ev(str(STAND_ON_5))
    assert best >= draw and best >= stand
    assert Fraction(data["all_draw"]["player_ev"]) == draw
    assert Fraction(data["all_stand"]["player_ev"]) == stand
    assert sorted(data["player_hands"]) == ["0+5", "1+4", "2+3", "6+9", "7+8"]
    assert Fraction(data["option_value"]["over_all_stand"]) == best - stand


def test_eight_decks_table_lists_each_hand_and_the_option_value() -> None:
    result = CliRunner().invoke(cli, ["solve", "--decks", "8", "--rules", str(OPTION_AT_5)])
    assert result.exit_code == 0, result.stderr
    for label in ("0+5", "1+4", "2+3", "6+9", "7+8"):
        assert f"\n{label} " in result.stdout
    assert "Value of the option to the Player bet, per unit:" in result.stdout


def test_a_counter_finds_a_shoe_where_standing_on_a_5_pays() -> None:
    """Composition matters: with the small cards gone, the Player stands on some 5s."""
    shoe = Shoe.standard(decks=1).remove("A A A A 2 2 2 2 3 3 3 3")
    solution = solve_option(shoe, resolve_rules_file(str(OPTION_AT_5)))
    actions = {hand.label: hand.action for hand in solution.player_hands}
    assert "stand" in actions.values()
    assert solution.best.player > solution.all_draw.player


def _chemin_de_fer_brute(shoe: Shoe) -> dict[tuple[str, str, int, int], int]:
    """Per (Player choice label, Banker cell, Player draws, Banker draws): the Player bet's net
    over every permutation, chemin de fer's rule written out, options as choices."""
    net: dict[tuple[str, str, int, int], int] = defaultdict(int)
    for sequence in itertools.permutations(_cards(shoe), 6):
        player, banker = [sequence[0], sequence[2]], [sequence[1], sequence[3]]
        p, b = _total(player), _total(banker)
        if p >= 8 or b >= 8:
            net[("", "", 0, 0)] += (p > b) - (b > p)
            continue
        label = _label(*player) if p == 5 else ""
        for player_draws in (0, 1) if p == 5 else ((1,) if p <= 4 else (0,)):
            hand, position = list(player), 4
            if player_draws:
                hand.append(sequence[4])
                position = 5
            third = sequence[4] if player_draws else None
            cell = ""
            if third is None:
                forced = b <= 5
            elif (b, third) in ((3, 9), (5, 4)):
                forced = None
                cell = f"{_label(*banker)}|{third}"
            else:
                forced = (
                    b <= 2
                    or (b == 3 and third not in (8, 9))
                    or (b == 4 and 2 <= third <= 7)
                    or (b == 5 and 5 <= third <= 7)
                    or (b == 6 and third in (6, 7))
                )
            for banker_draws in (0, 1) if forced is None else (int(forced),):
                final = [*banker, sequence[position]] if banker_draws else banker
                result = (_total(hand) > _total(final)) - (_total(final) > _total(hand))
                net[(label, cell, player_draws, banker_draws)] += result
    return net


@settings(max_examples=4, deadline=None)
@given(SMALL_SHOES)
def test_the_two_sided_equilibrium_survives_every_pure_deviation(counts: dict[str, int]) -> None:
    """chemin_de_fer.toml, commission 0: no pure strategy of either side, priced by the brute
    force, beats the equilibrium against the other side's equilibrium strategy."""
    shoe = Shoe.from_ranks(counts)
    rules_file = resolve_rules_file(str(CHEMIN_DE_FER))
    rules = Rules(tableau=rules_file.drawing, commission=0)
    solution = solve_option(shoe, rules_file, rules)
    net = _chemin_de_fer_brute(shoe)
    total = sum(1 for _ in itertools.permutations(range(shoe.cards), 6))
    player = {hand.label: hand.draw for hand in solution.player_hands}
    banker = {f"{cell.hand}|{cell.information}": cell.draw for cell in solution.banker_cells}

    def value(p: dict[str, Fraction], q: dict[str, Fraction]) -> Fraction:
        result = Fraction(0)
        for (label, cell, player_draws, banker_draws), amount in net.items():
            weight = Fraction(1)
            if label:
                weight *= p[label] if player_draws else 1 - p[label]
            if cell:
                weight *= q[cell] if banker_draws else 1 - q[cell]
            result += weight * amount
        return result / total

    equilibrium = value(player, banker)
    assert equilibrium == solution.best.player
    for bits in itertools.product((0, 1), repeat=len(player)):
        assert value(dict(zip(player, map(Fraction, bits), strict=True)), banker) <= equilibrium
    for bits in itertools.product((0, 1), repeat=len(banker)):
        assert value(player, dict(zip(banker, map(Fraction, bits), strict=True))) >= equilibrium


def test_the_chemin_de_fer_rule_on_eight_decks_is_the_punto_banco_tableau() -> None:
    """Every option drawing is an equilibrium of the règle's options on 8 decks, zero-sum."""
    rules_file = resolve_rules_file(str(CHEMIN_DE_FER))
    rules = Rules(tableau=rules_file.drawing, commission=0)
    solution = solve_option(Shoe.standard(decks=8), rules_file, rules)
    assert {hand.action for hand in solution.player_hands} == {"draw"}
    assert {cell.action for cell in solution.banker_cells} == {"draw"}
    assert solution.best == solution.all_draw
    game, _ = build_option_game(Shoe.standard(decks=8), rules_file, rules)
    profile = Profile(
        tuple(hand.draw for hand in solution.player_hands),
        tuple(cell.draw for cell in solution.banker_cells),
    )
    assert best_reply_failures(game, profile) == []


@pytest.mark.parametrize("decks", [1, 6])
def test_every_banker_cell_a_choice_is_chemin_de_fer_exactly(decks: int) -> None:
    """A rules file leaving the Player's 5 and every Banker cell open, zero-sum, Player seeing
    his total and Banker his cards, is Downton and Lockwood's model B2: the same value and the
    same Player strategy as games.chemin_de_fer (checked there against Kemeny and Snell)."""
    choices = TableauChoices(
        frozenset({5}),
        frozenset(range(8)),
        frozenset((total, third) for total in range(8) for third in range(10)),
    )
    rules_file = RulesFile(Tableau(), True, "", "every cell", choices)
    shoe = Shoe.standard(decks=decks)
    solution = solve_option(shoe, rules_file, Rules(commission=0), OptionModel(player_sees="total"))
    chemin_de_fer = solve(shoe, Model())
    assert chemin_de_fer.value is not None
    assert solution.best.player == -chemin_de_fer.value
    assert {hand.label: hand.draw for hand in solution.player_hands} == dict(
        chemin_de_fer.player_draw_at_5
    )
    assert len(solution.banker_cells) == chemin_de_fer.banker_cells == 484


def test_the_player_seeing_only_his_total_has_one_choice() -> None:
    solution = solve_option(
        Shoe.standard(decks=6),
        resolve_rules_file(str(OPTION_AT_5)),
        model=OptionModel(player_sees="total"),
    )
    assert [hand.label for hand in solution.player_hands] == ["5"]


# Bad input ---------------------------------------------------------------------------------


def test_odds_refuses_a_tableau_with_a_choice_in_one_sentence() -> None:
    result = CliRunner().invoke(cli, ["odds", "--rules", str(OPTION_AT_5)])
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("Error: rules file ") and "leaves the Player's 5 as a choice" in line


def test_solve_refuses_a_rules_file_without_a_choice() -> None:
    result = CliRunner().invoke(cli, ["solve", "--rules", "standard"])
    assert result.exit_code == 2
    assert "marks no cell as a choice" in result.stderr


def test_a_choice_cell_that_is_not_a_known_word_is_refused() -> None:
    text = OPTION_AT_5.read_text().replace('"choice"', '"maybe"')
    with pytest.raises(RulesFileError, match=r"player_draws in x.toml mixes booleans with text"):
        parse_rules_file(text, "x.toml")


def test_banker_cells_and_stood_cells_may_be_choices() -> None:
    text = CHEMIN_DE_FER.read_text().replace(
        "banker_draws_when_player_stood = [0, 1, 2, 3, 4, 5]",
        'banker_draws_when_player_stood = [true, true, true, true, true, true, "choice", '
        "false, false, false]",
    )
    choices = parse_rules_file(text, "x.toml").choices
    assert choices.banker == {(3, 9), (5, 4)}
    assert choices.banker_when_player_stood == {6}
    with pytest.raises(RulesFileError, match="leaves the Player's 5, the Banker's 6 when"):
        _ = parse_rules_file(text, "x.toml").tableau


def test_option_model_errors() -> None:
    with pytest.raises(OptionError, match="Dealing 'deck' is not known"):
        OptionModel(dealing="deck")


# Baccara banque ----------------------------------------------------------------------------


def _banque_round(
    sequence: tuple[int, ...], draws_on_5: bool, bank_sees_cards: bool
) -> tuple[tuple[str, str, str], tuple[tuple[int, int], tuple[int, int]]]:
    """Deal P1, P2, bank, P1, P2, bank, then third cards in order; the bank's cell and each
    tableau's result (+1 bank wins, -1 Player wins, 0 tie) if the bank (stands, draws)."""
    hands = [[sequence[0], sequence[3]], [sequence[1], sequence[4]]]
    bank = [sequence[2], sequence[5]]
    position = 6
    bank_total = _total(bank)
    shown = []
    for hand in hands:
        total = _total(hand)
        if bank_total >= 8:
            shown.append("")
        elif total >= 8:
            shown.append("natural")
        elif total <= 4 or (total == 5 and draws_on_5):
            hand.append(sequence[position])
            shown.append(str(sequence[position]))
            position += 1
        else:
            shown.append("stood")
    results = []
    for hand, seen in zip(hands, shown, strict=True):
        outcome = []
        for bank_draws in (0, 1):
            final = [*bank, sequence[position]] if bank_draws and bank_total < 8 else bank
            if seen == "natural":
                outcome.append(-1)
            else:
                outcome.append((_total(final) > _total(hand)) - (_total(hand) > _total(final)))
        results.append((outcome[0], outcome[1]))
    label = _label(*bank) if bank_sees_cards else str(bank_total)
    cell = ("natural", "", "") if bank_total >= 8 else (label, shown[0], shown[1])
    return cell, (results[0], results[1])


def _brute_banque(
    shoe: Shoe, model: BanqueModel
) -> tuple[dict[tuple[str, str, str], list[int]], int]:
    """Per bank cell: [tableau 1 stand, tableau 1 draw, tableau 2 stand, tableau 2 draw] nets."""
    cards = _cards(shoe)
    sequences = (
        itertools.permutations(cards, 9)
        if model.dealing == "shoe"
        else itertools.product(cards, repeat=9)
    )
    nets: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    count = 0
    for sequence in sequences:
        cell, (first, second) = _banque_round(
            sequence, model.players_on_5 == "draw", model.bank_sees == "cards"
        )
        entry = nets[cell]
        entry[0] += first[0]
        entry[1] += first[1]
        entry[2] += second[0]
        entry[3] += second[1]
        count += 1
    return nets, count


def _check_banque(shoe: Shoe, model: BanqueModel) -> None:
    solution = solve_banque(shoe, model)
    nets, count = _brute_banque(shoe, model)
    first_stake, second_stake = model.stakes
    gains = {(cell.hand, cell.first, cell.second): cell.gain for cell in solution.cells}
    bank_total = Fraction(0)
    tableau_totals = [Fraction(0), Fraction(0)]
    for cell, (one_stand, one_draw, two_stand, two_draw) in nets.items():
        if cell[0] == "natural":
            tableau_totals[0] += one_stand
            tableau_totals[1] += two_stand
            continue
        gain = Fraction(
            first_stake * (one_draw - one_stand) + second_stake * (two_draw - two_stand), count
        )
        assert gains[cell] == gain, cell
        draws = gain > 0
        tableau_totals[0] += one_draw if draws else one_stand
        tableau_totals[1] += two_draw if draws else two_stand
    for result, total in zip(solution.tableaux, tableau_totals, strict=True):
        assert -result.player_ev == total / count
    bank_total = (first_stake * tableau_totals[0] + second_stake * tableau_totals[1]) / count
    assert solution.bank_edge == bank_total / (first_stake + second_stake)
    assert solution.verified


BANQUE_SHOES = st.dictionaries(
    st.sampled_from(["A", "2", "3", "4", "5", "6", "7", "8", "9", "K"]),
    st.integers(1, 3),
    min_size=3,
).filter(lambda counts: sum(counts.values()) == 9)


@thorough  # physical cards without replacement; with replacement runs by default
@budgeted(3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    BANQUE_SHOES,
    st.sampled_from(["cards", "total"]),
    st.sampled_from(["draw", "stand"]),
    st.sampled_from([(1, 1), (3, 1), (0, 2)]),
)
def test_banque_matches_a_physical_card_brute_force_without_replacement(
    counts: dict[str, int], sees: str, on_5: str, stakes: tuple[int, int]
) -> None:
    _check_banque(Shoe.from_ranks(counts), BanqueModel("shoe", sees, on_5, stakes))


@settings(max_examples=6, deadline=None)
@given(
    st.lists(
        st.sampled_from(["A", "2", "3", "4", "5", "6", "7", "8", "9", "K"]), min_size=3, max_size=3
    ),
    st.sampled_from(["cards", "total"]),
    st.sampled_from([(1, 1), (2, 1)]),
)
def test_banque_matches_a_brute_force_with_replacement(
    ranks: list[str], sees: str, stakes: tuple[int, int]
) -> None:
    shoe = Shoe.from_ranks({rank: ranks.count(rank) for rank in set(ranks)})
    _check_banque(shoe, BanqueModel("replacement", sees, "draw", stakes))


def test_banque_equal_stakes_treat_both_tableaux_alike_and_the_bank_wins() -> None:
    solution = solve_banque(Shoe.standard(decks=6), BanqueModel(bank_sees="total"))
    assert solution.tableaux[0] == solution.tableaux[1]
    assert 0 < solution.bank_edge < Fraction(2, 100)
    # The bank's gain is never worse than the best of his two plays in every cell.
    assert all(cell.draw == (cell.gain > 0) for cell in solution.cells)


def test_banque_against_one_tableau_only_weighs_it_alone() -> None:
    """Stakes 1:0: the bank plays against tableau 1 only, so his play ignores tableau 2."""
    solution = solve_banque(
        Shoe.standard(decks=1), BanqueModel("replacement", "total", "draw", (1, 0))
    )
    by_cell: dict[tuple[str, str], set[bool]] = defaultdict(set)
    for cell in solution.cells:
        if not cell.indifferent:
            by_cell[(cell.hand, cell.first)].add(cell.draw)
    assert all(len(plays) == 1 for plays in by_cell.values())


def test_banque_bad_input() -> None:
    with pytest.raises(BanqueError, match="use draw or stand"):
        BanqueModel(players_on_5="sometimes")
    runner = CliRunner()
    result = runner.invoke(cli, ["solve", "--game", "banque", "--stakes", "2"])
    assert result.exit_code == 2 and "'2' is not two whole numbers" in result.stderr
    result = runner.invoke(cli, ["solve", "--game", "banque", "--stakes", "0:0"])
    assert result.exit_code == 2 and "Stakes (0, 0) are not valid" in result.stderr
    result = runner.invoke(cli, ["solve", "--game", "banque", "--decks", "1", "--remove", "A" * 1])
    assert result.exit_code == 0
    result = runner.invoke(cli, ["solve", "--game", "banque", "--shoe", "K:8"])
    assert result.exit_code == 2 and "needs at least 9" in result.stderr
    result = runner.invoke(cli, ["solve", "--game", "banque", "--rules", str(OPTION_AT_5)])
    assert result.exit_code == 2 and "leave out --game" in result.stderr


@pytest.mark.parametrize("on_5", ["draw", "stand"])
def test_banque_against_one_tableau_with_replacement_is_the_bankers_best_reply(on_5: str) -> None:
    """With replacement the other tableau tells the bank nothing, so stakes 1:0 make banque a
    one-hand game: the Banker's best reply in every cell, as games.option counts it (another
    counter), against a Player drawing on 0-4 (and 5 if he draws there)."""
    stand_on_5 = on_5 == "stand"
    tableau = Tableau(
        player_draws=tuple(total <= 4 or (total == 5 and not stand_on_5) for total in range(10))
    )
    choices = TableauChoices(
        frozenset(),
        frozenset(range(8)),
        frozenset((total, third) for total in range(8) for third in range(10)),
    )
    rules_file = RulesFile(tableau, True, "", "the bank", choices)
    shoe = Shoe.from_ranks({"A": 3, "4": 2, "5": 2, "6": 1, "9": 2, "K": 5})
    option = solve_option(
        shoe, rules_file, Rules(tableau=tableau, commission=0), OptionModel(dealing="replacement")
    )
    banque = solve_banque(shoe, BanqueModel("replacement", "cards", on_5, (1, 0)))
    assert option.best.banker == banque.bank_edge
    assert option.best.player == banque.tableaux[0].player_ev


def test_banque_options_need_the_banque_game() -> None:
    result = CliRunner().invoke(cli, ["solve", "--rules", str(OPTION_AT_5), "--stakes", "2:1"])
    assert result.exit_code == 2
    assert "--stakes and --players-on-5 are banque's; add --game banque." in result.stderr


@budgeted(3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.sampled_from(["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]),
                    st.integers(1, 4), min_size=1)
)  # fmt: skip
def test_depleted_shoes_render_in_100_columns(removed: dict[str, int]) -> None:
    cards = " ".join(rank for rank, count in removed.items() for _ in range(count))
    for arguments in (
        ["--game", "banque"],
        ["--rules", str(OPTION_AT_5)],
        ["--rules", str(CHEMIN_DE_FER), "--player-sees", "total"],
    ):
        result = CliRunner().invoke(cli, ["solve", "--decks", "1", "--remove", cards, *arguments])
        assert result.exit_code == 0, result.stderr
        assert max(len(line) for line in result.stdout.splitlines()) <= 100
