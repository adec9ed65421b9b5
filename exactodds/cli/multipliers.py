"""``exactodds multipliers``: a multiplier law designed for target RTPs, or inferred from them."""

from __future__ import annotations

from fractions import Fraction

import click

from exactodds.cli.app import emit
from exactodds.cli.options import built_options, click_option
from exactodds.errors import ExactOddsError
from exactodds.interface import MULTIPLIERS_OPTION
from exactodds.numbers import parse_number
from exactodds.report.registry import render
from exactodds.rules import Rules
from exactodds.shoe import Shoe


def _pairs(given: tuple[str, ...], flag: str) -> list[tuple[str, str]]:
    pairs = []
    for text in given:
        bet, equals, figure = text.partition("=")
        if not equals or not bet.strip() or not figure.strip():
            raise click.UsageError(
                f"{flag} {text!r} is not BET=RTP; use such as {flag} player=98.9%."
            )
        pairs.append((bet.strip(), figure.strip()))
    return pairs


def _numbers(text: str, flag: str) -> list[Fraction]:
    try:
        return [parse_number(part, flag) for part in text.split(",") if part.strip()]
    except ExactOddsError as error:
        raise click.UsageError(str(error)) from None


@click.command(name="multipliers")
@built_options(bets=False)
@click_option(MULTIPLIERS_OPTION)
@click.option(
    "--infer",
    "free",
    metavar="MULTIPLIER",
    help="Infer the probability of this multiplier from --rtp figures (the file's other "
    "multipliers keep their proportions).",
)
@click.option(
    "--rtp",
    "rtps",
    multiple=True,
    metavar="BET=RTP",
    help="A published RTP, as printed (player=98.9%); with --infer. May be repeated.",
)
@click.option(
    "--target",
    "targets",
    multiple=True,
    metavar="BET=RTP",
    help="Design: a target window, player=98.85%:98.95% or as printed (player=98.9%). "
    "May be repeated.",
)
@click.option("--faces", metavar="LIST", help="Design: faces drawn to try (default the file's).")
@click.option("--values", metavar="LIST", help="Design: multipliers (default the file's).")
@click.option(
    "--steps",
    type=click.IntRange(1, 1000),
    default=10,
    show_default=True,
    help="Design: probabilities in steps of 1/STEPS.",
)
@click.option("--top", type=click.IntRange(1, 1000), default=10, show_default=True)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["table", "json"]),
    default="table",
    show_default=True,
)
def multipliers_command(
    shoe: Shoe,
    rules: Rules,
    multipliers: str | None,
    free: str | None,
    rtps: tuple[str, ...],
    targets: tuple[str, ...],
    faces: str | None,
    values: str | None,
    steps: int,
    top: int,
    output_format: str,
) -> None:
    """Design a multiplier law for target RTPs, or infer it from published RTPs.

    The overlay (--multipliers) gives the faces drawn, the law, the fee and each bet's base
    pay; every RTP is exact (docs/multipliers.md).

    \b
    Examples:
      exactodds multipliers --multipliers prosperity_tree --infer 2 \\
          --rtp player=98.9% --rtp banker=98.7% --rtp tie=92.8% --rtp player_pair=92.5%
      exactodds multipliers --multipliers golden_wealth --steps 10 \\
          --target player=98.9% --target tie=93.4% --target player_pair=86%
    """
    from exactodds.bets.multipliers import resolve_overlay
    from exactodds.studies.multipliers import (
        LawGrid,
        design_laws,
        infer_law,
        published_rtp,
    )

    if multipliers is None:
        raise click.UsageError("Give the overlay with --multipliers FILE|NAME.")
    if (free is None) == (not targets):
        raise click.UsageError(
            "Give --infer MULTIPLIER with --rtp figures, or --target windows for a design."
        )
    overlay = resolve_overlay(multipliers)
    if free is not None:
        if not rtps:
            raise click.UsageError(
                "--infer needs at least one --rtp BET=RTP, such as player=98.9%."
            )
        published = [published_rtp(bet, figure) for bet, figure in _pairs(rtps, "--rtp")]
        found = _numbers(free, "--infer")
        if len(found) != 1:
            raise click.UsageError(
                f"--infer {free!r} is not one multiplier; use such as --infer 2."
            )
        value = found[0]
        result = infer_law(shoe, rules, overlay, value, published)
        emit(render(result, output_format))
        return
    windows = {bet: published_rtp(bet, figure) for bet, figure in _pairs(targets, "--target")}
    face_counts = _numbers(faces, "--faces") if faces else [Fraction(overlay.faces)]
    if any(face.denominator != 1 for face in face_counts):
        raise click.UsageError(
            f"--faces {faces!r} holds a fraction; use whole numbers such as 4,5,6."
        )
    grid = LawGrid(
        tuple(int(face) for face in face_counts),
        tuple(_numbers(values, "--values")) if values else tuple(v for v, _ in overlay.law_items),
        steps,
    )
    emit(render(design_laws(shoe, rules, overlay, grid, windows, top=top), output_format))
