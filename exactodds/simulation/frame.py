"""Results and traces as data: pandas DataFrames, Arrow tables, Parquet files.

pandas and pyarrow sit behind the ``data`` extra (``pip install "exactodds[data]"``) and
are imported only here, inside the functions that need them.

* :func:`result_rows`: one row per bet (and one for all bets, ``bet == "combined"``), the
  figures of ``simulate --format json`` flattened into columns (``units_per_shoe_exact_ev``,
  ``units_per_shoe_exact_ev_stderr``, ``di``, ``di_stderr``, ``di_ci95_low`` ...);
* :func:`to_pandas`, :func:`to_arrow`: those rows as a DataFrame or an Arrow table;
* :func:`trace_to_parquet`: the JSON Lines trace as Parquet, one row per round, in the
  record format :data:`TRACE_VERSION` (the columns are listed in docs/simulate-risk.md):
  exact EVs and results stay exact as ``"n/d"`` strings, next to float columns.

>>> from exactodds.bets.catalogue import select_bets
>>> from exactodds.simulation.dealing import DealingProcedure
>>> from exactodds.simulation.run import Simulation, simulate
>>> result = simulate(Simulation.of(2, 1, bets=select_bets("tie"), procedure=DealingProcedure(decks=1)))
>>> [row["bet"] for row in result_rows(result)]
['tie', 'combined']
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from exactodds.errors import SimulationError, import_extra

__all__ = [
    "TRACE_VERSION",
    "check_trace_names",
    "require_data_extra",
    "result_rows",
    "to_arrow",
    "to_pandas",
    "trace_record",
    "trace_to_parquet",
]

#: The version of the Parquet trace's record format (kept in the file's metadata).
TRACE_VERSION = 1
_ROWS_PER_BATCH = 65_536


def require_data_extra(what: str) -> None:
    """Refuse, in one sentence, when pandas or pyarrow is missing (before any dealing)."""
    import_extra("pandas, pyarrow", what, "data")


def _flatten(prefix: str, value: Any, row: dict[str, Any]) -> None:
    if isinstance(value, Mapping) and set(value) == {"mean", "stderr", "ci95"}:
        row[prefix] = value["mean"]
        row[f"{prefix}_stderr"] = value["stderr"]
        row[f"{prefix}_ci95_low"], row[f"{prefix}_ci95_high"] = value["ci95"]
    elif isinstance(value, Mapping):
        for key, inner in value.items():
            _flatten(f"{prefix}_{key}", inner, row)
    elif isinstance(value, list):
        row[prefix] = json.dumps(value)
    else:
        row[prefix] = value


def result_rows(result: Any) -> list[dict[str, Any]]:
    """One flat row per bet and one for the combined result, from ``result.to_dict()``.

    Lists (deciles, EV by deck) are JSON strings; the covariance is left to the JSON.  Every
    row has every column (``None`` where a figure is not given for that row: the risk of ruin
    is the combined row's only), in the order they first appear, so that a table built from
    the rows (:func:`to_arrow`) has the columns of :func:`to_pandas`, all of them.
    """
    data = result.to_dict()
    rows = []
    for name, entry in [*data["bets"].items(), ("combined", data["combined"])]:
        row: dict[str, Any] = {"bet": name, "shoes": data["shoes"], "rounds": data["rounds"]}
        for key, value in entry.items():
            if key != "covariance":
                _flatten(key, value, row)
        rows.append(row)
    columns = list(dict.fromkeys(key for row in rows for key in row))
    return [{column: row.get(column) for column in columns} for row in rows]


def to_pandas(result: Any) -> Any:
    """The result as a pandas DataFrame: one row per bet (and ``combined``), figures as columns."""
    require_data_extra("to_pandas()")
    import pandas

    return pandas.DataFrame(result_rows(result)).set_index("bet")


def to_arrow(result: Any) -> Any:
    """The result as a pyarrow Table (the rows of :func:`result_rows`)."""
    require_data_extra("to_arrow()")
    import pyarrow

    return pyarrow.Table.from_pylist(result_rows(result))


def check_trace_names(names: list[str]) -> None:
    """Refuse bets whose Parquet trace columns would collide (``tie`` and ``tie_float``:
    ``ev_tie_float`` would be both), before any dealing.

    >>> check_trace_names(["tie", "tie_float"])
    Traceback (most recent call last):
    ...
    exactodds.errors.SimulationError: Bets 'tie' and 'tie_float' would share the Parquet trace column 'ev_tie_float'; rename one of them, or write the trace as JSON Lines.
    """
    taken = set(names)
    for name in names:
        if f"{name}_float" in taken:
            raise SimulationError(
                f"Bets {name!r} and {name + '_float'!r} would share the Parquet trace column "
                f"'ev_{name}_float'; rename one of them, or write the trace as JSON Lines."
            )


def _fraction_float(text: str) -> float:
    return float(Fraction(text))


def trace_record(line: Mapping[str, Any]) -> dict[str, Any]:
    """One JSON Lines trace record as a flat Parquet row (exact strings beside floats).

    >>> record = trace_record({"shoe": 0, "round": 1, "depth": 9, "known": {"AS": 1},
    ...     "ev": {"tie": "-1/7"}, "bet": {"tie": True}, "stake": {"tie": 1}, "cards": ["AS"],
    ...     "winner": "tie", "player_total": 1, "banker_total": 1, "outcome": {"tie": "win"},
    ...     "result": {"tie": "8"}})
    >>> record["ev_tie"], round(record["ev_tie_float"], 4), record["known"]
    ('-1/7', -0.1429, '{"AS": 1}')
    """
    row: dict[str, Any] = {
        "shoe": line["shoe"],
        "round": line["round"],
        "depth": line["depth"],
        "known": json.dumps(line["known"]),
        "cards": " ".join(line["cards"]),
        "winner": line["winner"],
        "player_total": line["player_total"],
        "banker_total": line["banker_total"],
    }
    burn = line.get("burn") or {}
    row["burn_exposed"] = burn.get("exposed")
    row["burn_face_down"] = burn.get("face_down")
    for name, ev in line["ev"].items():
        row[f"ev_{name}"] = ev
        row[f"ev_{name}_float"] = _fraction_float(ev)
        row[f"bet_{name}"] = line["bet"][name]
        row[f"stake_{name}"] = line.get("stake", {}).get(name, int(line["bet"][name]))
        row[f"outcome_{name}"] = line["outcome"][name]
        row[f"result_{name}"] = line["result"][name]
        row[f"result_{name}_float"] = _fraction_float(line["result"][name])
    return row


def _batches(source: Path) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    with source.open(encoding="utf-8") as stream:
        for text in stream:
            batch.append(trace_record(json.loads(text)))
            if len(batch) == _ROWS_PER_BATCH:
                yield batch
                batch = []
    if batch:
        yield batch


def trace_to_parquet(source: str | Path, target: str | Path) -> int:
    """Write the JSON Lines trace *source* as the Parquet file *target*; the rows written."""
    require_data_extra("`trace` FILE.parquet")
    import pyarrow
    import pyarrow.parquet

    writer = None
    rows = 0
    metadata = {b"exactodds_trace": str(TRACE_VERSION).encode()}
    try:
        for batch in _batches(Path(source)):
            table = pyarrow.Table.from_pylist(batch)
            if writer is None:
                schema = table.schema.with_metadata(metadata)
                writer = pyarrow.parquet.ParquetWriter(str(target), schema)
            writer.write_table(table.cast(writer.schema))
            rows += len(batch)
    except OSError as error:
        raise SimulationError(f"Cannot write trace file {str(target)!r}: {error}.") from None
    finally:
        if writer is not None:
            writer.close()
    return rows
