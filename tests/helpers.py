"""Helpers shared by tests."""

from __future__ import annotations

import shutil
from pathlib import Path

from assistant.settings import Settings

REPO = Path(__file__).resolve().parents[1]
KNOWLEDGE = REPO / "knowledge"


def make_settings(data_dir: Path, **overrides: object) -> Settings:
    """Settings that never read a developer's .env."""
    return Settings(_env_file=None, data_dir=data_dir, **overrides)  # type: ignore[call-arg]


def copy_knowledge(target: Path, *, articles: int | None = None) -> Path:
    """A writable copy of the packaged knowledge folder (optionally only the first few articles)."""
    shutil.copytree(KNOWLEDGE / "catalog", target / "catalog")
    for lang in ("en", "zh"):
        (target / "corpus" / lang).mkdir(parents=True)
        files = sorted((KNOWLEDGE / "corpus" / lang).glob("*.md"))
        for path in files[:articles]:
            shutil.copy(path, target / "corpus" / lang / path.name)
    return target
