"""Rules files: the shipped tableaux, the format, and every validation error.

Sources for the shipped alternatives:

* ``banker_as_player.toml``: Allan N. Wilson, *The Casino Gambler's Guide*,
  "Baccarat and Chemin de Fer", https://urbino.net/baccarat-and-chemin-de-fer/
  (also http://urbino.net/digital-books.cfm?dID=53&p=1): "the player stands on
  6 or 7, and draws on 5 or less. Now, if the banker were to follow the
  identical rules, the game would be 'symmetrical' and neither side would have
  an advantage."
* ``chemin_de_fer_stand.toml``: "Chemin de fer: game must be played according
  to rules", http://gaming-dictionary.pokerwiner.com/chemin-de-fer-must-play-poker.html
  (the règle, with the Player's option on 5 and the Banker's options on 3
  giving 9 and 5 giving 4).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from budget import budgeted
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Rules, Shoe, Tableau, Winner, analyze, enumerate_rounds
from exactodds.engine.known import enumerate_known
from exactodds.errors import ExactOddsError, RulesError
from exactodds.rulefiles import (
    RulesFileError,
    format_rules_file,
    load_rules_file,
    parse_rules_file,
    read_rules_file,
    resolve_rules_file,
    shipped_rules_files,
)

SHIPPED = shipped_rules_files()
EIGHT_DECKS = Shoe.standard(decks=8)


def _winners(shoe: Shoe, tableau: Tableau) -> tuple[int, int, int]:
    table = enumerate_rounds(shoe, tableau)
    return (
        table.count(lambda s: s.winner is Winner.BANKER),
        table.count(lambda s: s.winner is Winner.PLAYER),
        table.count(lambda s: s.winner is Winner.TIE),
    )


# --- The shipped files -----------------------------------------------------------------------


def test_the_shipped_files_are_the_three_documented_ones() -> None:
    assert sorted(SHIPPED) == ["banker_as_player", "chemin_de_fer_stand", "standard"]
    for name, path in SHIPPED.items():
        loaded = read_rules_file(path)
        assert loaded.tableau.name == name
        assert loaded.ties_push is True
        assert loaded.description


def test_standard_file_is_the_built_in_tableau() -> None:
    assert load_rules_file(SHIPPED["standard"]) == Tableau.standard()


def test_standard_file_reproduces_the_built_in_counts_through_an_independent_walk() -> None:
    # enumerate_rounds caches by tableau, and the loaded tableau is equal to the built-in one,
    # so the loaded file's counts come from the separate known-card walk instead.
    loaded = load_rules_file(SHIPPED["standard"])
    from_file = enumerate_known(EIGHT_DECKS, loaded, {})
    built_in = enumerate_rounds(EIGHT_DECKS, Tableau.standard())
    assert from_file.total == built_in.total == 4_998_398_275_503_360
    assert dict(from_file.counts) == dict(built_in.counts)
    # The 8-deck counts printed in full by casinoexploit.com, http://www.casinoexploit.com/baccarat.html
    assert _winners(EIGHT_DECKS, loaded) == (
        2_292_252_566_437_888,
        2_230_518_282_592_256,
        475_627_426_473_216,
    )


def test_banker_following_the_player_rule_gives_neither_side_an_advantage() -> None:
    # Wilson, The Casino Gambler's Guide: "if the banker were to follow the identical rules,
    # the game would be 'symmetrical' and neither side would have an advantage."
    tableau = load_rules_file(SHIPPED["banker_as_player"])
    for decks in (1, 2, 6, 8):
        banker, player, _ = _winners(Shoe.standard(decks=decks), tableau)
        assert banker == player
    # exactodds' own 8-deck figures for the file (computed here, not published):
    assert _winners(EIGHT_DECKS, tableau) == (
        2_264_835_797_995_520,
        2_264_835_797_995_520,
        468_726_679_512_320,
    )
    assert analyze(EIGHT_DECKS, Rules(tableau=tableau)).bets["player"].expected_value == 0


@st.composite
def symmetric_tableaux(draw: st.DrawFn) -> Tableau:
    """The Banker follows whatever rule the Player has, never looking at the Player's card."""
    rule = tuple(draw(st.lists(st.booleans(), min_size=10, max_size=10)))
    naturals = frozenset(draw(st.sets(st.integers(0, 9), max_size=3)))
    return Tableau(naturals, rule, rule, tuple(tuple([flag] * 10) for flag in rule), "symmetric")


@budgeted(25, deadline=None)
@given(
    tableau=symmetric_tableaux(),
    counts=st.lists(st.integers(0, 3), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6),
)
def test_any_rule_shared_by_both_hands_is_fair_between_them(
    tableau: Tableau, counts: list[int]
) -> None:
    # Swapping the hands (P1<->B1, P2<->B2, and the two third cards when both draw) is a
    # bijection on six-card sequences when neither hand's rule looks at the other hand.
    banker, player, _ = _winners(Shoe.from_ranks(counts), tableau)
    assert banker == player


def test_chemin_de_fer_with_every_option_drawn_is_punto_banco() -> None:
    stand = load_rules_file(SHIPPED["chemin_de_fer_stand"])
    # The three options: the Player on 5, the Banker on 3 giving a 9, the Banker on 5 giving a 4.
    player_draws = list(stand.player_draws)
    rows = [list(row) for row in stand.banker_draws]
    assert not player_draws[5] and not rows[3][9] and not rows[5][4]
    player_draws[5] = True
    rows[3][9] = rows[5][4] = True
    drawn = Tableau(
        stand.natural_totals,
        tuple(player_draws),
        stand.banker_draws_when_player_stood,
        tuple(tuple(row) for row in rows),
        "standard",
    )
    assert drawn == Tableau.standard()
    # exactodds' own 8-deck figures for the stand-on-every-option file (not published):
    assert _winners(EIGHT_DECKS, stand) == (
        2_306_941_760_323_584,
        2_229_630_111_780_864,
        461_826_403_398_912,
    )


def test_resolve_takes_a_path_or_a_shipped_name(tmp_path: Path) -> None:
    assert resolve_rules_file("standard").tableau == Tableau.standard()
    own = tmp_path / "standard"
    own.write_text(format_rules_file(Tableau(name="mine")), encoding="utf-8")
    assert resolve_rules_file(own).tableau.name == "mine"  # an existing file wins
    with pytest.raises(RulesFileError, match="neither a file that exists nor a shipped"):
        resolve_rules_file(tmp_path / "missing.toml")


# --- The format ------------------------------------------------------------------------------


@st.composite
def tableaux(draw: st.DrawFn) -> Tableau:
    flags = st.lists(st.booleans(), min_size=10, max_size=10).map(tuple)
    return Tableau(
        frozenset(draw(st.sets(st.integers(0, 9)))),
        draw(flags),
        draw(flags),
        tuple(draw(flags) for _ in range(10)),
        draw(
            st.text(
                st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=20
            ).filter(lambda text: text.strip() == text != "")
        ),
    )


@settings(max_examples=60, deadline=None)
@given(tableau=tableaux(), ties=st.sampled_from([None, True, False]), text=st.text(max_size=30))
def test_format_and_parse_round_trip(tableau: Tableau, ties: bool | None, text: str) -> None:
    loaded = parse_rules_file(format_rules_file(tableau, ties, text))
    assert loaded.tableau == tableau
    assert loaded.ties_push is ties
    assert loaded.description == text


def test_the_shipped_standard_file_is_the_formatted_one_plus_comments() -> None:
    shipped = SHIPPED["standard"].read_text(encoding="utf-8")
    formatted = format_rules_file(
        Tableau.standard(), ties_push=True, description="Punto Banco: the casino tableau."
    )
    assert [line for line in shipped.splitlines() if line and not line.startswith("#")] == [
        line for line in formatted.splitlines() if line and not line.startswith("#")
    ]


def _standard_text(**replace: str) -> str:
    """The standard file as text, with whole ``key = value`` lines replaced."""
    text = format_rules_file(Tableau.standard(), ties_push=True)
    for key, line in replace.items():
        text = re.sub(rf"(?m)^{re.escape(key)} = .*$", line, text)
    return text


@pytest.mark.parametrize(
    "line",
    [
        "player_draws = [0, 1, 2, 3, 4, 5]",
        "player_draws = [5, 4, 3, 2, 1, 0]",
        "player_draws = [true, true, true, true, true, true, false, false, false, false]",
        "player_draws = {0 = true, 1 = true, 2 = true, 3 = true, 4 = true, 5 = true, "
        "6 = false, 7 = false, 8 = false, 9 = false}",
    ],
)
def test_draw_rules_may_be_totals_booleans_or_a_table(line: str) -> None:
    loaded = parse_rules_file(_standard_text(player_draws=line))
    assert loaded.tableau == Tableau.standard()


def test_an_empty_list_means_never() -> None:
    loaded = parse_rules_file(
        _standard_text(player_draws="player_draws = []", natural_totals="natural_totals = []")
    )
    assert loaded.tableau.player_draws == (False,) * 10
    assert loaded.tableau.natural_totals == frozenset()


def test_ties_may_lose() -> None:
    loaded = parse_rules_file(_standard_text(ties='ties = "lose"'))
    assert loaded.ties_push is False
    assert not Rules(tableau=loaded.tableau, ties_push=loaded.ties_push).ties_push


# --- Every validation error ------------------------------------------------------------------

GRID_ROW_3 = "3 = [true,  true,  true,  true,  true,  true,  true,  true,  false, true ]"

ERRORS = [
    pytest.param(
        "name = [",
        r"^rules.toml is not valid TOML \(.*\); use lines such as natural_totals = \[8, 9\]\.$",
        id="not TOML",
    ),
    pytest.param(
        "colour = 1\n" + _standard_text(),
        "^Unknown key 'colour' in rules.toml; use name, description, ties, fee, rebate, natural_totals, "
        "player_draws, banker_draws_when_player_stood and banker_draws.$",
        id="unknown top-level key",
    ),
    pytest.param(
        "\n".join(
            line for line in _standard_text().splitlines() if not line.startswith("player_draws")
        ),
        r"^rules.toml has no player_draws; add player_draws = \[0, 1, 2, 3, 4, 5\]\.$",
        id="missing player_draws",
    ),
    pytest.param(
        _standard_text(name="name = 'x'").split("[banker_draws]")[0],
        r"^rules.toml has no banker_draws; add a \[banker_draws\] table with one line per "
        r"Banker total, 0 = \[true, \.\.\.\]\.$",
        id="missing banker_draws",
    ),
    pytest.param(
        "\n".join(line for line in _standard_text().splitlines() if not line.startswith("name")),
        '^rules.toml has no name; add name = "my rules".$',
        id="missing name",
    ),
    pytest.param(
        _standard_text(name='name = "  "'),
        "^name in rules.toml is text \\('  '\\); use a short non-empty name",
        id="empty name",
    ),
    pytest.param(
        _standard_text(name="name = 7"),
        "^name in rules.toml is a number \\(7\\); use a short non-empty name",
        id="name not text",
    ),
    pytest.param(
        _standard_text(name='name = "x"\ndescription = 3'),
        "^description in rules.toml is a number; use text in quotes.$",
        id="description not text",
    ),
    pytest.param(
        _standard_text(ties='ties = "split"'),
        '^ties in rules.toml is \'split\'; use "push" .* or "lose" \\(they lose\\).$',
        id="ties neither push nor lose",
    ),
    pytest.param(
        _standard_text(natural_totals="natural_totals = 8"),
        r"^natural_totals in rules.toml is a number \(8\); use a list of totals such as \[8, 9\], "
        r"or \[\] for no naturals.$",
        id="naturals not a list",
    ),
    pytest.param(
        _standard_text(natural_totals="natural_totals = [8, 10]"),
        "^Total 10 for natural_totals in rules.toml is not valid; use a whole number from 0 to 9.$",
        id="natural total out of range",
    ),
    pytest.param(
        _standard_text(natural_totals="natural_totals = [8, 8]"),
        "^natural_totals in rules.toml lists total 8 twice; name each total once.$",
        id="natural total twice",
    ),
    pytest.param(
        _standard_text(natural_totals='natural_totals = [8, "9"]'),
        r"^Total '9' for natural_totals in rules.toml is not valid; use a whole number from 0 to 9",
        id="natural total not a number",
    ),
    pytest.param(
        _standard_text(player_draws="player_draws = [0, 1, -1]"),
        "^Total -1 for player_draws in rules.toml is not valid; use a whole number from 0 to 9.$",
        id="player total out of range",
    ),
    pytest.param(
        _standard_text(player_draws="player_draws = [true, false]"),
        "^player_draws in rules.toml has 2 booleans; give ten, one per total 0-9, or a list of "
        "totals such as",
        id="too few booleans",
    ),
    pytest.param(
        _standard_text(player_draws="player_draws = [true, 1]"),
        r"^player_draws in rules.toml mixes booleans with a number \(1\); use ten booleans or a "
        "list of totals, not both.$",
        id="booleans mixed with totals",
    ),
    pytest.param(
        _standard_text(player_draws='player_draws = "0-5"'),
        r"^player_draws in rules.toml is text \('0-5'\); use a list of totals such as "
        r"\[0, 1, 2, 3, 4, 5\], ten booleans, or a table \{0 = true, \.\.\., 9 = false\}\.$",
        id="draws as text",
    ),
    pytest.param(
        _standard_text(player_draws="player_draws = {0 = true}"),
        "^player_draws in rules.toml does not say what happens on total 1, 2, 3, 4, 5, 6, 7, 8, "
        "9; give all ten totals 0-9 as true or false.$",
        id="table missing totals",
    ),
    pytest.param(
        _standard_text(player_draws="player_draws = {10 = true}"),
        "^Unknown total '10' in player_draws in rules.toml; use totals 0-9 as keys.$",
        id="table unknown total",
    ),
    pytest.param(
        _standard_text(
            banker_draws_when_player_stood="banker_draws_when_player_stood = {0 = true, "
            "1 = true, 2 = true, 3 = true, 4 = true, 5 = 1, 6 = false, 7 = false, 8 = false, "
            "9 = false}"
        ),
        '^banker_draws_when_player_stood.5 in rules.toml is 1; use true, false or "choice".$',
        id="table cell not boolean",
    ),
    pytest.param(
        _standard_text(banker_draws_when_player_stood="banker_draws_when_player_stood = 5"),
        "^banker_draws_when_player_stood in rules.toml is a number \\(5\\); use a list of totals",
        id="stood row not a list",
    ),
    pytest.param(
        _standard_text().replace("[banker_draws]", "banker_draws = 3\n[unused]"),
        "^Unknown key 'unused' in rules.toml",
        id="unknown table",
    ),
    pytest.param(
        _standard_text().split("[banker_draws]")[0] + "banker_draws = [1, 2]\n",
        r"^banker_draws in rules.toml is a list; use a \[banker_draws\] table with one line per "
        r"Banker total 0-9, such as 3 = \[true, \.\.\., false, true\] \(ten booleans\)\.$",
        id="banker grid not a table",
    ),
    pytest.param(
        _standard_text().replace(GRID_ROW_3 + "\n", ""),
        "^banker_draws in rules.toml has no row for Banker total 3; give all ten rows 0-9, each "
        "of ten booleans.$",
        id="missing grid row",
    ),
    pytest.param(
        _standard_text().split("0 = [")[0],
        "^banker_draws in rules.toml has no rows for Banker total 0, 1, 2, 3, 4, 5, 6, 7, 8, 9; ",
        id="empty grid",
    ),
    pytest.param(
        _standard_text() + "10 = [true]\n",
        "^Unknown Banker total '10' in banker_draws in rules.toml; use rows 0-9.$",
        id="grid row out of range",
    ),
    pytest.param(
        _standard_text().replace(GRID_ROW_3, "3 = true"),
        r"^banker_draws row 3 in rules.toml is a boolean \(true\); use ten booleans, one per "
        "Player's third card 0-9.$",
        id="grid row not a list",
    ),
    pytest.param(
        _standard_text().replace(GRID_ROW_3, "3 = [true, true]"),
        "^banker_draws row 3 in rules.toml has 2 entries; give ten booleans, one per Player's "
        "third card 0-9.$",
        id="grid row too short",
    ),
    pytest.param(
        _standard_text().replace(GRID_ROW_3, GRID_ROW_3.replace("false", '"no"')),
        "^banker_draws row 3, Player's third card 8, in rules.toml is 'no'; use true, false or \"choice\".$",
        id="grid cell not boolean",
    ),
]


@pytest.mark.parametrize(("text", "message"), ERRORS)
def test_every_mistake_is_one_clear_sentence(text: str, message: str) -> None:
    with pytest.raises(RulesFileError, match=message) as caught:
        parse_rules_file(text, "rules.toml")
    error = caught.value
    assert isinstance(error, RulesError) and isinstance(error, ExactOddsError)
    assert isinstance(error, ValueError)
    assert str(error).endswith(".")


def test_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(
        RulesFileError, match=r"^Cannot read rules file '.*nope\.toml': it does not"
    ):
        read_rules_file(tmp_path / "nope.toml")
    with pytest.raises(RulesFileError, match=r"^Cannot read rules file '.*': "):
        read_rules_file(tmp_path)  # a directory
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00name")
    with pytest.raises(RulesFileError, match=r"^Cannot read rules file '.*binary\.toml': "):
        read_rules_file(binary)
