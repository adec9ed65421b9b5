"""A short check of an installed exactodds, run where a user would run it (cibuildwheel and CI).

It must run outside the source tree, so that the package and the compiled kernel imported are the
installed ones: it says where each was loaded from, fails if either comes from a checkout, and
checks a few exact figures through the kernel and the command line. On Windows the kernel is not
built (MSVC has no 128-bit integers), so there the pure-Python twin is accepted.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from fractions import Fraction
from pathlib import Path

import exactodds
from exactodds import Analyzer, Rules, Shoe, analyze, select_bets
from exactodds.engine.kernel.program import native_module


def main() -> int:
    installed = Path(sysconfig.get_paths()["platlib"]).resolve()
    package = Path(exactodds.__file__).resolve()
    print(f"exactodds {exactodds.__version__} from {package.parent}")
    if installed not in package.parents:
        print(f"error: exactodds was not imported from {installed}", file=sys.stderr)
        return 1
    kernel = native_module()
    if kernel is None:
        print("compiled kernel: not built, the pure-Python twin runs")
        if sys.platform != "win32":
            print("error: the wheel carries no compiled kernel", file=sys.stderr)
            return 1
    else:
        location = Path(kernel.__file__ or "").resolve()
        print(f"compiled kernel: {location}")
        if installed not in location.parents:
            print(f"error: the kernel was not loaded from {installed}", file=sys.stderr)
            return 1
    # Published: the Wizard of Odds' 1-deck counts and the 8-deck Banker edge.
    assert analyze(Shoe.standard(decks=1)).outcomes["tie"].count == 1_372_227_328
    table = Analyzer(Rules(), select_bets("all")).expected_value_table([(32,) * 13], jobs=1)
    assert table.expected_value(0, "banker") == Fraction(-114753351728, 10847218479825)
    odds = subprocess.run(
        [sys.executable, "-m", "exactodds", "odds", "--digits", "6"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "banker  -0.010579       1.0579%" in odds.stdout, odds.stdout
    print("figures: exact")
    return 0


if __name__ == "__main__":
    sys.exit(main())
