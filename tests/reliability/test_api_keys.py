"""Defect 4 of the pre-ship probe: ``ADVISOR_API_KEYS='[""]' advisor serve --host 0.0.0.0`` ran with the
API open on every interface (the refusal checked the list, the parser dropped the empty key)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from assistant.settings import Settings

ADVISOR = str(Path(sys.executable).parent / "advisor")


@pytest.mark.parametrize(
    "keys", [[""], ["  "], [":admin"], ["good-key", " padded"], ["good-key", "\t:admin"]]
)
def test_blank_keys_are_refused_by_the_settings(keys: list[str], tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="empty or has spaces around it"):
        Settings(_env_file=None, data_dir=tmp_path, api_keys=keys)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ('[""]', "ADVISOR_API_KEYS: key 1 of 1 is empty"),
        ('["k1", "  :admin"]', "ADVISOR_API_KEYS: key 2 of 2 is empty"),
        ("k1,k2", "lists are JSON"),
    ],
)
def test_serve_refuses_them_in_one_line_before_binding(value: str, message: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [ADVISOR, "serve", "--host", "0.0.0.0", "--port", "9"],
        cwd=tmp_path,  # no .env here
        env={**os.environ, "ADVISOR_API_KEYS": value, "ADVISOR_DATA_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert message in lines[0]
    assert "Traceback" not in result.stderr
