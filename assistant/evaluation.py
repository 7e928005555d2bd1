"""Retrieval evaluation: recall@k and MRR per language on a labelled question set."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from assistant.errors import InvalidInput
from assistant.models import Answer
from assistant.retriever import Retriever
from assistant.service import Assistant
from knowledge.text import Language

T = TypeVar("T", bound=BaseModel)
DEFAULT_RETRIEVAL_SET = Path(__file__).resolve().parents[1] / "tests" / "data" / "retrieval"


class LabelledQuestion(BaseModel):
    """A question and the documents that answer it (any one counts)."""

    q: str = Field(min_length=3)
    lang: Language
    expected: list[str] = Field(min_length=1)

    @property
    def cross_lingual(self) -> bool:
        return all(not e.startswith(f"{self.lang}/") and not e.startswith("catalog/") for e in self.expected)


class Score(BaseModel):
    questions: int
    recall: float = Field(description="Share of questions with an expected document in the top k.")
    mrr: float = Field(description="Mean reciprocal rank of the first expected document (0 if absent).")


class RetrievalReport(BaseModel):
    k: int
    by_group: dict[str, Score]
    misses: list[tuple[str, list[str], list[str]]] = Field(
        default_factory=list, description="(question, expected, retrieved doc ids) for each miss."
    )


def _load_list(path: Path, item: type[T], what: str) -> list[T]:
    """Items from a YAML list file, or from every *.yaml in a folder; errors name the file."""
    files = sorted(path.glob("*.yaml")) if path.is_dir() else [path]
    if not files or not all(f.exists() for f in files):
        raise InvalidInput(f"{path}: no {what} files found")
    adapter = TypeAdapter(list[item])  # type: ignore[valid-type]
    items: list[T] = []
    for file in files:
        try:
            items += adapter.validate_python(yaml.safe_load(file.read_text(encoding="utf-8")))
        except (yaml.YAMLError, ValidationError) as exc:
            raise InvalidInput(f"{file}: {exc}") from exc
    return items


def load_questions(path: Path = DEFAULT_RETRIEVAL_SET) -> list[LabelledQuestion]:
    """Labelled retrieval questions from a YAML file, or from every *.yaml in a folder."""
    return _load_list(path, LabelledQuestion, "labelled question")


def evaluate(retriever: Retriever, questions: list[LabelledQuestion], *, k: int = 5) -> RetrievalReport:
    """Score ``retriever`` at document level: a hit is any passage of an expected document."""
    hits: dict[str, list[float]] = defaultdict(list)
    reciprocal: dict[str, list[float]] = defaultdict(list)
    misses: list[tuple[str, list[str], list[str]]] = []
    for question in questions:
        doc_ids = [p.doc_id for p in retriever.search(question.q, k=k)]
        rank = next((i for i, d in enumerate(doc_ids, 1) if d in question.expected), None)
        groups = ["all", question.lang] + ([f"{question.lang}→other"] if question.cross_lingual else [])
        for group in groups:
            hits[group].append(1.0 if rank else 0.0)
            reciprocal[group].append(1.0 / rank if rank else 0.0)
        if rank is None:
            misses.append((question.q, question.expected, doc_ids))
    by_group = {
        group: Score(questions=len(values), recall=sum(values) / len(values),
                     mrr=sum(reciprocal[group]) / len(values))
        for group, values in sorted(hits.items())
    }  # fmt: skip
    return RetrievalReport(k=k, by_group=by_group, misses=misses)


# --- answers --------------------------------------------------------------------------------------

DEFAULT_ANSWER_SET = Path(__file__).resolve().parents[1] / "tests" / "data" / "eval"


class ExpectedValue(BaseModel):
    """A number a calculator must produce: ``path`` walks the tool's output (``days.expected``)."""

    tool: str
    path: str
    value: float
    tolerance: float = Field(default=0.02, ge=0, le=1, description="Relative tolerance.")


class Expectation(BaseModel):
    language: Language | None = None
    tools: list[str] = Field(default_factory=list, description="Calculators that must have run.")
    no_tools: bool = Field(
        default=False, description="No calculator may run (knowledge, greeting, off-topic)."
    )
    values: list[ExpectedValue] = Field(default_factory=list)
    cites_any: list[str] = Field(
        default_factory=list, description="At least one citation from these documents."
    )
    contains: list[str] = Field(default_factory=list, description="Substrings the answer must contain.")
    not_contains: list[str] = Field(
        default_factory=list, description="Substrings the answer must not contain."
    )
    out_of_scope: bool = False


class EvalTurn(BaseModel):
    ask: str = Field(min_length=1)
    expect: Expectation = Field(default_factory=Expectation)


class EvalItem(BaseModel):
    """One conversation of one or more turns, each with what its answer must show."""

    id: str
    lang: Language
    kind: str = Field(description="calculation, knowledge, multi-turn, out_of_scope, greeting, ...")
    turns: list[EvalTurn] = Field(min_length=1)


class ItemResult(BaseModel):
    id: str
    lang: Language
    kind: str
    passed: bool
    failures: list[str]


class AnswerReport(BaseModel):
    by_group: dict[str, tuple[int, int]] = Field(description="group -> (passed, total)")
    results: list[ItemResult]

    @property
    def pass_rate(self) -> float:
        passed, total = self.by_group.get("all", (0, 0))
        return passed / total if total else 0.0


def load_eval_items(path: Path = DEFAULT_ANSWER_SET) -> list[EvalItem]:
    """Answer evaluation items from a YAML file, or from every *.yaml in a folder."""
    return _load_list(path, EvalItem, "evaluation")


def _dig(data: Any, path: str) -> Any:
    for key in path.split("."):
        data = data[int(key)] if isinstance(data, list) else data[key]
    return data


def check_answer(answer: Answer, expect: Expectation) -> list[str]:
    """Every way ``answer`` falls short of ``expect``; empty when it passes."""
    failures: list[str] = []
    ran = [call.name for call in answer.tool_calls]
    if expect.language and answer.language != expect.language:
        failures.append(f"language {answer.language} != {expect.language}")
    failures += [f"calculator {t} did not run (ran {ran})" for t in expect.tools if t not in ran]
    if expect.no_tools and ran:
        failures.append(f"no calculator expected, ran {ran}")
    for value in expect.values:
        call = next((c for c in answer.tool_calls if c.name == value.tool), None)
        if call is None:
            failures.append(f"{value.tool}.{value.path}: calculator did not run")
            continue
        try:
            actual = float(_dig(call.output, value.path))
        except (KeyError, IndexError, TypeError, ValueError):
            failures.append(f"{value.tool}.{value.path}: not in the output")
            continue
        if abs(actual - value.value) > value.tolerance * abs(value.value):
            failures.append(
                f"{value.tool}.{value.path} = {actual:g}, expected {value.value:g} ±{value.tolerance:.0%}"
            )
    cited = {c.doc_id for c in answer.citations}
    if expect.cites_any and not cited & set(expect.cites_any):
        failures.append(f"cites {sorted(cited)}, none of {expect.cites_any}")
    failures += [f"missing {s!r}" for s in expect.contains if s not in answer.answer]
    failures += [f"contains {s!r}" for s in expect.not_contains if s in answer.answer]
    if expect.out_of_scope and "out_of_scope" not in answer.notes:
        failures.append("not answered as out of scope")
    return failures


def evaluate_answers(assistant: Assistant, items: list[EvalItem]) -> AnswerReport:
    """Run every conversation through ``assistant`` and tally pass rates by language and kind."""
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    results: list[ItemResult] = []
    for item in items:
        conversation: str | None = None
        failures: list[str] = []
        for n, turn in enumerate(item.turns, 1):
            answer = assistant.ask(turn.ask, conversation_id=conversation)
            conversation = answer.conversation_id
            failures += [f"turn {n}: {f}" for f in check_answer(answer, turn.expect)]
        passed = not failures
        for group in ("all", item.lang, f"kind:{item.kind}"):
            tally[group][0] += passed
            tally[group][1] += 1
        results.append(
            ItemResult(id=item.id, lang=item.lang, kind=item.kind, passed=passed, failures=failures)
        )
    return AnswerReport(by_group={g: (p, t) for g, (p, t) in sorted(tally.items())}, results=results)
