"""The answer evaluation set as a test: pass rate floor overall and per language."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.embeddings import Embeddings

from assistant.evaluation import evaluate_answers, load_eval_items
from assistant.settings import ConversationSettings, Settings
from assistant.wiring import build_assistant

pytestmark = pytest.mark.integration

# The target is 95%; the floor leaves a little room without hiding a regression.
FLOOR = 0.90


def test_eval_set_is_big_bilingual_and_multi_turn() -> None:
    items = load_eval_items()
    assert len(items) >= 80
    assert sum(i.lang == "zh" for i in items) >= len(items) / 2 - 2
    assert sum(len(i.turns) > 1 for i in items) >= 10
    assert sum(any(t.expect.values for t in i.turns) for i in items) >= 30


def test_answer_pass_rate(indexed_settings: Settings, use_embeddings: Embeddings, tmp_path: Path) -> None:
    settings = indexed_settings.model_copy(
        update={"conversations": ConversationSettings(path=tmp_path / "eval.db")}
    )
    report = evaluate_answers(build_assistant(settings, use_embeddings), load_eval_items())
    failures = [f"{r.id}: {r.failures}" for r in report.results if not r.passed]
    assert report.pass_rate >= FLOOR, failures
    for lang in ("en", "zh"):
        passed, total = report.by_group[lang]
        assert passed / total >= FLOOR, failures
