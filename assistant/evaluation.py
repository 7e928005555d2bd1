"""Retrieval evaluation: recall@k and MRR per language on a labelled question set."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import yaml
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from assistant.errors import InvalidInput
from assistant.retriever import Retriever
from knowledge.text import Language

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


def load_questions(path: Path = DEFAULT_RETRIEVAL_SET) -> list[LabelledQuestion]:
    """Questions from a YAML file, or from every *.yaml in a folder."""
    files = sorted(path.glob("*.yaml")) if path.is_dir() else [path]
    if not files or not all(f.exists() for f in files):
        raise InvalidInput(f"{path}: no labelled question files found")
    adapter = TypeAdapter(list[LabelledQuestion])
    questions: list[LabelledQuestion] = []
    for file in files:
        try:
            questions += adapter.validate_python(yaml.safe_load(file.read_text(encoding="utf-8")))
        except (yaml.YAMLError, ValidationError) as exc:
            raise InvalidInput(f"{file}: {exc}") from exc
    return questions


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
