"""Imports point down (api → assistant → tools, knowledge) and frameworks stay at the edge."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import REPO

PACKAGES = ("api", "assistant", "tools", "knowledge")
ALLOWED = {
    "api": {"api", "assistant", "tools", "knowledge"},
    "assistant": {"assistant", "tools", "knowledge"},
    "tools": {"tools", "knowledge"},
    "knowledge": {"knowledge"},
}
EDGE_ONLY = {"fastapi", "starlette", "slack_bolt", "slack_sdk", "uvicorn"}
# the CLI is a channel like api/: `advisor serve` starts the HTTP app
ENTRY_POINTS = {Path("assistant/cli.py")}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", PACKAGES)
def test_imports_point_down(package: str) -> None:
    problems = []
    for path in sorted((REPO / package).rglob("*.py")):
        if path.relative_to(REPO) in ENTRY_POINTS:
            continue
        found = imports(path)
        for name in found & set(PACKAGES) - ALLOWED[package]:
            problems.append(f"{path.relative_to(REPO)} imports {name}")
        if package != "api":
            problems += [f"{path.relative_to(REPO)} imports {n}" for n in found & EDGE_ONLY]
    assert not problems


def test_only_the_cli_and_app_factory_read_settings() -> None:
    readers = sorted(
        str(path.relative_to(REPO))
        for package in PACKAGES
        for path in (REPO / package).rglob("*.py")
        if "get_settings()" in path.read_text(encoding="utf-8") and path.name != "settings.py"
    )
    assert readers == ["api/app.py", "assistant/cli.py"]
