"""The calculator benchmark keeps working: a smoke run (one repeat) over every registered calculator; a
calculator added without a typical input makes it exit 1, and this test says so."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers import REPO


def test_the_calculator_benchmark_runs_every_calculator() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "calculators.py"), "--repeat", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "compute_optimal" in done.stdout
