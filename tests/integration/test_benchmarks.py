"""The HTTP benchmark keeps working: a smoke run of benchmarks/over_http.py (a handful of questions).

A benchmark, not a timed test: nothing here checks a figure against a target, only that every figure
is measured and reported.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import REPO

pytestmark = pytest.mark.integration


def run_benchmark(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``benchmarks/<script>`` with ``args`` in this environment; it must exit 0."""
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / script), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=540,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_the_http_benchmark_runs_and_reports_every_figure(tmp_path: Path) -> None:
    run_benchmark("over_http.py", "--smoke", "--workers", "2", "--out", str(tmp_path))
    results = (tmp_path / "RESULTS.md").read_text(encoding="utf-8")
    for concurrency in (1, 4):
        for service in ("baseline", "ours", "ours x2 workers"):
            row = re.search(
                rf"^\| {concurrency} \| {service} \| 8 \| 0 \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \|",
                results,
                re.M,
            )
            assert row, (concurrency, service, results)
    for figure in (
        "cold start to /readyz",
        "peak RSS",
        "full index build",
        "re-index after editing one file",
    ):
        assert re.search(rf"\| {re.escape(figure)}[^|]*\| [\d.]+ \|", results), figure
    assert re.search(r"\| ours x2 workers: cold start[^|]*\| [\d.]+, \d+ \|", results)
    assert re.search(r"model_capacity \d+\.\d{3}", results)  # every calculator timed
    png = (tmp_path / "results.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    assert len(png) > 10_000


def test_the_replicas_benchmark_runs_against_real_stores() -> None:
    done = run_benchmark("replicas.py", "--smoke")
    for replicas in ("1", r"2 \(same machine\)"):
        assert re.search(rf"^\| {replicas} \| 8 \| 0 \| [\d.]+ \| \d+ \| \d+ \|$", done.stdout, re.M), (
            done.stdout
        )


def test_the_lead_measure_runs_and_reports_every_group(tmp_path: Path) -> None:
    rows = tmp_path / "rows.json"
    done = run_benchmark("leads.py", "--limit", "6", "--rows", str(rows))
    for group in ("all", r"k1-k5 \(earlier\)", r"k6-k8 \(later\)", "language en", "language zh"):
        assert re.search(rf"^\| {group} \| \d+ \| ", done.stdout, re.M), (group, done.stdout)
    asked = json.loads(rows.read_text(encoding="utf-8"))
    assert len(asked) == 6
    # every turn's lead is named as the labels name sections: an article and its English heading
    assert all(row["lead"] in ("", "catalog") or re.match(r"^[a-z-]+: ", row["lead"]) for row in asked), asked
    assert "labels name sections no longer in the articles" not in done.stderr, done.stderr
