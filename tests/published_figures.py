"""Published figures the tests hold exactodds to, each table once, with its source.

Imported by the tests that check them (test_published, test_breakdown, test_cli ...): a
figure copied from a source is typed in one place only.
"""

from __future__ import annotations

# Source: Wizard of Odds, "Baccarat Odds for 1 to 12 Decks" (Last Updated December 27, 2016),
# https://wizardofodds.com/games/baccarat/one-to-twelve-decks/ ("Combinations" table; identical
# mirror https://internetradiomercedes.com/games/baccarat/one-to-twelve-decks).
# Columns: decks -> (Player, Banker, Tie, Total), as printed.
WIZARD_COMBINATIONS: dict[int, tuple[int, int, int, int]] = {
    1: (6_548_674_432, 6_737_232_640, 1_372_227_328, 14_658_134_400),
    2: (487_816_735_232, 501_543_728_128, 103_154_274_240, 1_092_514_737_600),
    3: (5_837_305_562_496, 6_000_349_195_008, 1_238_768_922_816, 13_076_423_680_320),
    4: (33_608_344_225_792, 34_543_624_867_840, 7_145_601_996_928, 75_297_571_090_560),
    5: (130_087_780_016_000, 133_700_037_548_800, 27_690_387_926_400, 291_478_205_491_200),
    6: (392_220_492_728_832, 403_095_751_234_560, 83_552_962_932_288, 878_869_206_895_680),
    7: (
        995_884_732_700_032,
        1_023_469_376_328_440,
        212_268_385_833_280,
        2_231_622_494_861_750,
    ),
    8: (
        2_230_518_282_592_250,
        2_292_252_566_437_880,
        475_627_426_473_216,
        4_998_398_275_503_350,
    ),
    9: (
        4_540_095_442_933_630,
        4_665_676_262_757_120,
        968_435_421_769_728,
        10_174_207_127_460_500,
    ),
    10: (
        8_570_454_841_408_000,
        8_807_402_586_035_200,
        1_828_629_499_384_000,
        19_206_486_926_827_200,
    ),
    11: (
        15_222_978_065_896_800,
        15_643_682_376_129_200,
        3_248_754_169_011_640,
        34_115_414_611_037_600,
    ),
    12: (
        25_714_619_121_272_800,
        26_425_038_379_143_100,
        5_488_795_281_294_720,
        57_628_452_781_710_600,
    ),
}

# The 8-deck counts of ordered six-card sequences, in full (Wizard of Odds; the combinations
# table above prints its rows past 15 digits rounded, so they are typed here exactly).
EIGHT_DECK_TOTAL = 4_998_398_275_503_360
EIGHT_DECK_BANKER = 2_292_252_566_437_888
EIGHT_DECK_PLAYER = 2_230_518_282_592_256
EIGHT_DECK_TIE = 475_627_426_473_216

# Source: WoO, "Exact Winning Side and Total in Baccarat",
# https://wizardofodds.com/games/exact-winning-side-and-total-in-baccarat (retrieved through the
# proxy https://i77697a6172646f666f646473o636f6dz.oszar.com/games/exact-winning-side-and-total-in-baccarat).
# Every cell has at most 15 digits, so is exact. Total -> (Player win, Banker win, Tie).
# The Banker column is also excelpunks, "Concepts 13: Baccarat Vs. Non-Commission Baccarat",
# https://excelpunks.com/2018/05/12/concepts-13-baccarat-vs-non-commission-baccarat-why-does-a-banker-win-on-6-pay-half/
# ("Banker Win On ... Permutations").
WINNING_SIDE_AND_TOTAL: dict[int, tuple[int, int, int]] = {
    9: (613_074_020_540_416, 586_850_279_002_112, 55_146_054_060_032),
    8: (555_823_197_134_848, 529_914_458_673_152, 54_879_416_675_072),
    7: (408_043_979_470_848, 384_279_324_919_808, 101_717_538_899_968),
    6: (312_658_895_192_064, 269_232_304_455_680, 96_170_001_308_416),
    5: (122_838_277_197_824, 216_715_928_915_968, 39_684_046_743_808),
    4: (86_165_771_096_064, 163_359_790_133_248, 36_294_133_463_040),
    3: (62_946_423_310_336, 72_927_778_568_192, 22_250_510_129_408),
    2: (44_328_525_111_296, 44_681_581_871_104, 20_006_606_104_576),
    1: (24_639_193_538_560, 24_291_119_898_624, 20_499_217_668_352),
    0: (0, 0, 28_979_901_420_544),
}

# Source: Yui-Bin Chen, Ph.D., "Casino Games - Mini Baccarat", http://vegastrip.com/game_baccarat.html
# ("Expected Gain/Loss" chart, "Number of Decks / Banker Wins / Player Wins / Tie"), the
# infinite-deck row and the finite rows beside it, as printed (percentages to 4 places, that is
# probabilities to 6). The infinite row is also issue 36's "P 0.446147, B 0.458428, T 0.095426".
# Its 6-deck row is left out: it prints Player 44.6276%, where the exact 392,220,492,728,832 /
# 878,869,206,895,680 (WIZARD_COMBINATIONS above) is 0.446279 (a misprint; its Banker and Tie agree).
# Decks ("infinite" or a number) -> (Banker, Player, Tie) as decimal strings.
DECKS_PROBABILITIES: dict[str, tuple[str, str, str]] = {
    "infinite": ("0.458428", "0.446147", "0.095426"),
    "8": ("0.458597", "0.446247", "0.095156"),
    "4": ("0.458761", "0.446340", "0.094898"),
    "2": ("0.459073", "0.446508", "0.094419"),
    "1": ("0.459624", "0.446760", "0.093615"),
}
