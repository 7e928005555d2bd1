"""Hybrid retrieval: dense vectors (Chroma) + BM25 keywords (bm25s, jieba) + catalog names, fused by RRF.

Dense search finds passages in either language by meaning; BM25 catches exact names and numbers
("MI300X", "NDR", "ZeRO-3") that embeddings blur; and a name in the question that is in the
catalog ("H100", "MI300X") pulls in that entry's spec sheet. Reciprocal rank fusion combines the three
rankings without having to calibrate their scores against each other.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import bm25s
import numpy as np
from chromadb.api.models.Collection import Collection
from langchain_core.embeddings import Embeddings
from pydantic import BaseModel, Field

from assistant.errors import NotReady, StorageError
from assistant.sentences import QueryVectors, SentenceVectors, unit
from knowledge.catalog import Catalog
from knowledge.names import NameIndex
from knowledge.store import read_all
from knowledge.text import (
    Language,
    american,
    detect_language,
    load_tokens,
    save_tokens,
    sentences_of,
    tokenize,
)


class Passage(BaseModel):
    """A retrieved passage with what a citation needs."""

    chunk_id: str
    doc_id: str
    title: str
    section: str
    source: str = Field(description="Path of the document inside its root (e.g. corpus/en/storage.md).")
    url: str = Field(description="The first source URL of the passage ('' for a user's file).")
    source_urls: list[str]
    lang: str
    doc_type: str
    as_of: str
    text: str
    snippet: str = Field(description="The lines of the passage that best match the question.")
    snippet_score: float = Field(
        default=0.0,
        description="How well the snippet's first sentence matches the question (IDF-weighted words).",
    )
    score: float = Field(description="Fused reciprocal-rank score; higher is better.")
    ranks: dict[str, int] = Field(default_factory=dict, description="1-based rank in each ranker.")


class SearchFilters(BaseModel):
    """Metadata filters; ``lang`` keeps bilingual catalog passages too."""

    lang: Language | None = None
    doc_types: list[str] | None = None
    vendor: str | None = None

    def chroma_where(self) -> dict[str, Any] | None:
        clauses: list[dict[str, Any]] = []
        if self.lang:
            clauses.append({"lang": {"$in": [self.lang, "multi"]}})
        if self.doc_types:
            clauses.append({"doc_type": {"$in": self.doc_types}})
        if not clauses:
            return None
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}

    def accepts(self, metadata: dict[str, Any]) -> bool:
        if self.lang and metadata.get("lang") not in {self.lang, "multi"}:
            return False
        if self.doc_types and metadata.get("doc_type") not in self.doc_types:
            return False
        if self.vendor:
            vendors = {v.strip().lower() for v in str(metadata.get("vendors", "")).split(",")}
            return self.vendor.lower() in vendors
        return True


# how much a section heading that matches the question adds to its best sentence's score
HEADING_WEIGHT = 0.3
# a passage's excerpt: the best sentence and what follows it, enough for a knowledge answer's lead
SNIPPET_CHARS = 420
# what a section's opening sentence adds: it states what the section settles
OPENING_BONUS = 0.1
# ... and in a question-and-answer article, where each section opens with its answer ("Choose InfiniBand if…")
FAQ_OPENING_BONUS = 0.3
# ... when its heading is close to the question (cosine); under another question it is an ordinary opening
FAQ_HEADING_MATCH = 0.35
# headings that may name a term asked about and still single its sections out (one per language, a few more)
_RARE_TERM_HEADINGS = 4
DEFAULT_WEIGHTS = {
    "dense": 1.0,
    "other_language": 1.0,
    "keyword": 1.0,
    "catalog": 2.0,
    "question": 2.0,
    "card_heading": 1.0,
    "term_heading": 2.0,
    "heading_terms": 0.5,
    "choice": 2.0,
}
# a heading word is evidence of a section's topic only when few headings carry it ("ROCm", "Trainium",
# "Mixing"), never when many do ("training", "GPU")
RARE_HEADING_WORD = 6
# how much more a heading sharing two or more of those words counts than one sharing a single word
SEVERAL_HEADING_WORDS = 4.0
# a question-and-answer section whose heading is the question asked, in other words: its heading's cosine
# with the question at least QUESTION_MATCH and QUESTION_MARGIN above any other section's ("slurm or
# kubernetes for a 32-node cluster?" under "Slurm or Kubernetes for a GPU training cluster?")
QUESTION_MATCH = 0.55
QUESTION_MARGIN = 0.1
# a word on a side of a choice asked names a topic when at most this many distinct headings carry it ("Slurm":
# 8, "Kubernetes": 9; not "GPU": over a hundred)
CHOICE_HEADING_WORD = 20


class Retriever(Protocol):
    def search(
        self,
        query: str,
        *,
        k: int = 6,
        filters: SearchFilters | None = None,
        prefer_language: Language | None = None,
    ) -> list[Passage]: ...

    def refresh(self) -> None:
        """Reload after the index changed."""
        ...

    def unknown_share(self, text: str) -> float:
        """The share of ``text``'s keyword tokens that no indexed passage contains (0 with nothing to read)."""
        ...

    def closeness(self, text: str) -> float:
        """How near ``text`` comes in meaning to the nearest sentence of the index (cosine; 1 without vectors)."""
        ...

    def likeness(self, text: str, other: str) -> float:
        """How near ``text`` comes in meaning to ``other`` (cosine)."""
        ...

    def check(self) -> None:
        """Reach the index once (``/readyz``); ``StorageError`` or ``NotReady`` when it cannot answer."""
        ...


class HybridRetriever:
    """Dense + BM25 + catalog-name retrieval over one Chroma collection."""

    def __init__(
        self,
        *,
        collection: Collection,
        embeddings: Embeddings,
        catalog: Catalog | None = None,
        names: NameIndex | None = None,
        candidates: int = 30,
        rrf_k: int = 60,
        max_per_doc: int = 1,
        weights: dict[str, float] | None = None,
        location: Path | None = None,
        sentence_vectors: bool = True,
    ) -> None:
        self._collection = collection
        self._location = location  # a local store's folder: check() notices when it is gone
        self._embeddings = embeddings
        self._candidates = candidates
        self._rrf_k = rrf_k
        self._max_per_doc = max_per_doc
        self._weights = {**DEFAULT_WEIGHTS, **(weights or {})}
        # the router's NameIndex when shared: it answers the same message's lookup from its memory
        self._names = names or (NameIndex(catalog) if catalog else None)
        # the sentence that answers: embedded once per distinct sentence, cached beside a local index
        self._sentence_vectors = (
            SentenceVectors(embeddings.embed_documents, sentence_cache(collection, location))
            if sentence_vectors
            else None
        )
        self._queries = QueryVectors(self._embed_batch)
        self.refresh()

    @property
    def embeddings(self) -> Embeddings:
        """The embedding model, loaded once; indexing reuses it."""
        return self._embeddings

    def check(self) -> None:
        """Reach the vector store once; ``StorageError`` when it is gone, ``NotReady`` when it is empty."""
        if self._location is not None and not self._location.is_dir():
            # an open local store keeps answering from deleted files until the process ends
            raise StorageError(
                f"the knowledge index folder {self._location} is missing: run `advisor ingest`"
            )
        try:
            count = self._collection.count()
        except Exception as exc:  # whatever the local store or the server raises
            raise StorageError(f"the knowledge index cannot be read ({exc})") from exc
        if count == 0:
            raise NotReady("the knowledge index is empty: run `advisor ingest`")

    def refresh(self) -> None:
        """Reload the keyword index from the collection (after an ingest).

        The new index is built aside and swapped in with one assignment: a search running meanwhile
        keeps reading the snapshot it started with, so re-indexing never breaks a chat in flight.
        """
        self._index = _Snapshot.of(
            self._collection, self._sentence_vectors, token_cache(self._collection, self._location)
        )

    def reopen(self, collection: Collection) -> None:
        """Search ``collection`` from now on (the shared index changed, or was rebuilt under a new id),
        with the keyword index reloaded from it."""
        snapshot = _Snapshot.of(collection, self._sentence_vectors, token_cache(collection, self._location))
        self._collection, self._index = collection, snapshot

    def _embed_queries(self, texts: list[str]) -> list[np.ndarray]:
        """``texts``'s query vectors, a text asked recently not embedded again."""
        return self._queries(texts)

    def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        """``texts`` as queries, in one call where the model can (an ``embed_queries`` method)."""
        batch = getattr(self._embeddings, "embed_queries", None)
        if batch is None:
            return [self._embeddings.embed_query(text) for text in texts]
        vectors: list[list[float]] = batch(texts)
        return vectors

    def unknown_share(self, text: str) -> float:
        """The share of ``text``'s keyword tokens the indexed passages never use: "purple monkey dishwasher
        gpu????" is three words no guidance contains, a question in the domain's words is almost none."""
        ix = self._index
        tokens = tokenize(text)
        vocabulary = getattr(ix.bm25, "vocab_dict", None) if ix.bm25 is not None else None
        if not tokens or not vocabulary:
            return 0.0
        return sum(t not in vocabulary for t in tokens) / len(tokens)

    def closeness(self, text: str) -> float:
        """The cosine between ``text`` and the index's nearest sentence: "激活重计算是啥" or "why does everyone
        insist on GPUDirect RDMA?" come within about 0.5 of a sentence that answers them, a recipe or the
        weather within about 0.3 of anything here. One embedding, asked only when the words decided nothing."""
        ix = self._index
        if ix.stacked is None or not len(ix.stacked) or not text.strip():
            return 1.0  # nothing to compare with: the words alone decide
        return float((ix.stacked @ unit(self._embed_queries([text])[0])).max())

    def likeness(self, text: str, other: str) -> float:
        """The cosine between ``text`` and ``other``, embedded in one call: "can we do both?" comes within about
        0.2 of the question on buying or renting it follows, "那明天会下雨吗" within 0.1 of one on checkpoints."""
        if not text.strip() or not other.strip():
            return 0.0
        first, second = self._embed_queries([text, other])
        return float(unit(first) @ unit(second))

    def search(
        self,
        query: str,
        *,
        k: int = 6,
        filters: SearchFilters | None = None,
        prefer_language: Language | None = None,
    ) -> list[Passage]:
        """The ``k`` best passages for ``query``, fused from the three rankers.

        With ``prefer_language``, a passage of an article that also exists in that language (the
        packaged corpus has every article as ``en/<id>`` and ``zh/<id>``) is replaced by its twin's
        best passage, so a reader is quoted in their own language; a document that exists in one
        language only (an upload, say) still answers across languages.
        """
        ix = self._index  # one snapshot for the whole search, whatever a refresh does meanwhile
        if not ix.ids or not query.strip():
            return []
        filters = filters or SearchFilters()
        # "zero3是啥": the sentence that says what it is leads (read before the abbreviations are spelled out:
        # "TP PP DP 分别是啥" defines no one "tensor parallelism")
        term = defined_term(spell_out(query, abbreviations=False))
        query = spell_out(query)
        tokens = tokenize(query)
        asked = asked_sentence(query) if ix.vectors is not None else None
        # the message and the sentence it asks in, embedded in one call (a batch of two costs half again
        # as much as one, two calls twice as much)
        vector, *asked_vector = self._embed_queries([query, asked] if asked else [query])
        dense = self._dense(ix, vector, filters)
        query_vector = unit(vector) if ix.vectors is not None else None
        whole = query_vector  # the message as written, for the headings asked as it is
        if query_vector is not None and asked_vector:
            # "Intel is pitching Gaudi 3 hard. Do we still need InfiniBand HCAs …?": the sentence that answers
            # is the one closest to what is asked as much as to the setting told around it
            query_vector = unit(query_vector + unit(asked_vector[0]))
        language = detect_language(query)
        rankings = {
            "dense": dense[: self._candidates],
            # the best passages written in the other language get a ranking of their own, so a
            # question in Chinese still reaches an English-only source (and the other way round)
            "other_language": [r for r in dense if ix.metas[r].get("lang") not in {language, "multi"}],
            "keyword": self._keyword(ix, tokens, filters),
            "catalog": self._named(ix, query, filters),
            "card_heading": self._card_headings(ix, query, filters),
            "question": self._asked_as_headed(ix, whole, filters),
            # "rail-optimized是啥意思": the sections headed by the term asked about
            "term_heading": self._headed_by(ix, term, filters),
            # "realistic state of ROCm for Megatron on MI300X": sections headed by the question's rare words
            "heading_terms": (headed_by := self._heading_terms(ix, tokens, filters)),
            # "上 slurm 还是 k8s+volcano？": the sections headed by both of the alternatives asked between
            "choice": self._choice_headings(ix, query, filters),
        }
        # a heading that shares two or more of the question's rare words ("Lustre, WEKA" for "lustre vs weka
        # vs NFS?") names the question's topic, not a neighbour of it: it counts as much as a heading asked
        several = {row for row, shared in headed_by.items() if shared >= 2}
        fused: dict[int, float] = defaultdict(float)
        ranks: dict[int, dict[str, int]] = defaultdict(dict)
        for name, rows in rankings.items():
            for rank, row in enumerate(rows, 1):
                weight = self._weights[name] * (
                    SEVERAL_HEADING_WORDS if name == "heading_terms" and row in several else 1
                )
                fused[row] += weight / (self._rrf_k + rank)
                ranks[row][name] = rank
        ordered = sorted(fused, key=lambda r: (-fused[r], r))
        if query_vector is not None and ix.vectors is not None:
            # a document and its twin in the other language may both rank: twice k documents cover the answer
            ordered = self._best_sections(
                ix,
                ordered,
                fused,
                query_vector,
                tokens,
                docs=2 * k + 2,
                headed=set(rankings["question"]),
                term=term,
            )
        per_doc: dict[str, int] = defaultdict(int)
        per_faq: dict[str, int] = defaultdict(int)
        out: list[Passage] = []
        for found in ordered:
            row = self._twin(ix, found, fused, prefer_language) if prefer_language else found
            unit_id = ix.unit(row)
            if per_doc[unit_id] >= self._max_per_doc:
                continue
            doc_id = str(ix.metas[row].get("doc_id", ""))
            if unit_id != doc_id:
                # a question-and-answer article's sections answer different questions, each its own unit,
                # but one article does not fill the answer
                # (a section both rankers put near the top is never the one left out: "can I do TP=16 across two
                # servers over 400G?" is the question its section is headed by)
                agreed = ranks[found].get("keyword") == 1 and ranks[found].get("dense", 99) <= 3
                if per_faq[doc_id] >= FAQ_SECTIONS and not agreed:
                    continue
                per_faq[doc_id] += 1
            per_doc[unit_id] += 1
            out.append(self._passage(ix, row, fused[found], ranks[found], tokens, query_vector, term))
            if len(out) == k:
                break
        return out

    @staticmethod
    def _best_sections(
        ix: _Snapshot,
        ordered: list[int],
        fused: dict[int, float],
        query_vector: np.ndarray,
        tokens: list[str],
        docs: int,
        headed: set[int] | None = None,
        term: str | None = None,
    ) -> list[int]:
        """``ordered`` with each document's first row moved behind the row of the same document whose best
        sentence is closest to the question, among its well-ranked rows: a document's introduction may
        rank first on words while a later section holds the sentence that answers. Only the first ``docs``
        documents can be answered from, so only theirs are weighed. A question-and-answer article's sections
        count as documents of their own (``_Snapshot.unit``)."""
        rows_of: dict[str, list[int]] = defaultdict(list)
        for row in ordered:
            rows_of[ix.unit(row)].append(row)

        def closest(row: int) -> float:
            similarity, heading = ix.fit(row, query_vector)
            if similarity is None or not len(similarity):
                return -1.0
            return (
                pick(ix.sentences[row], tokens, idf=ix.idf, similarity=similarity, term=term).score
                + HEADING_WEIGHT * heading
            )

        chosen: dict[str, int] = {}
        for unit_id, rows in list(rows_of.items())[:docs]:
            top = fused[rows[0]]
            contenders = [r for r in rows[:4] if fused[r] >= 0.6 * top]
            # the section headed by the question itself speaks for its document
            asked = [r for r in rows if r in (headed or set())]
            chosen[unit_id] = asked[0] if asked else max(contenders, key=closest)
        lead = set(chosen.values())
        # each document's place is now held by its chosen row, between the document's best fused score and
        # the chosen row's own: a weaker section of a well-ranked document does not outrank a strong one
        placed: list[tuple[float, int]] = []
        for row in ordered:
            unit_id = ix.unit(row)
            if row == rows_of[unit_id][0]:
                held = chosen.get(unit_id, row)
                placed.append(((fused[row] + fused.get(held, 0.0)) / 2, held))
            elif row not in lead:
                placed.append((fused[row], row))
        return [row for _, row in sorted(placed, key=lambda item: -item[0])]

    def _twin(self, ix: _Snapshot, row: int, fused: dict[int, float], language: Language) -> int:
        """The passage of ``row``'s twin article in ``language`` that best stands in for it, or ``row``."""
        meta = ix.metas[row]
        lang, doc_id = str(meta.get("lang", "")), str(meta.get("doc_id", ""))
        if lang in {language, "multi"} or not doc_id.startswith(f"{lang}/"):
            return row
        twin = ix.sections.get(f"{language}/{doc_id.removeprefix(f'{lang}/')}")
        if not twin:
            return row
        # the articles are written in parallel, section for section: the same section says the same thing
        ordinal = ix.section_of[row]
        candidates = twin[ordinal] if ordinal < len(twin) else [r for section in twin for r in section]
        return max(candidates, key=lambda r: fused.get(r, 0.0))

    def _dense(self, ix: _Snapshot, vector: np.ndarray, filters: SearchFilters) -> list[int]:
        n = min(self._candidates * 3, len(ix.ids))
        result = self._collection.query(
            query_embeddings=[vector],
            n_results=n,
            where=filters.chroma_where(),
            include=["distances"],
        )
        rows = [ix.row[i] for i in result["ids"][0] if i in ix.row]
        return [r for r in rows if filters.accepts(ix.metas[r])]

    def _keyword(self, ix: _Snapshot, tokens: list[str], filters: SearchFilters) -> list[int]:
        if not tokens or ix.bm25 is None:
            return []
        scores = np.asarray(ix.bm25.get_scores(tokens))
        rows: list[int] = []
        # the best few times the candidates wanted, sorted; all of them only when a filter turned most away
        for wanted in (4 * self._candidates, len(scores)):
            ranked, rows = _top(scores, wanted), []
            for row in ranked:
                if scores[row] <= 0 or len(rows) == self._candidates:
                    return rows
                if filters.accepts(ix.metas[row]):
                    rows.append(row)
            if len(ranked) < wanted:
                break
        return rows

    @staticmethod
    def _asked_as_headed(ix: _Snapshot, query_vector: np.ndarray | None, filters: SearchFilters) -> list[int]:
        """The opening row of the question-and-answer section headed by the question itself, if one stands
        out; its twin in the other language is the same question and does not count against it."""
        if query_vector is None or ix.headings is None or not ix.ids:
            return []
        # each distinct heading compared once (a long section's pieces share theirs), then read per row
        cosines = (ix.distinct_headings @ query_vector)[ix.heading_of]
        best: dict[str, tuple[float, int]] = {}  # section (without its language) -> (cosine, a row of it)
        for row in _top(cosines, 64):
            meta = ix.metas[int(row)]
            if meta.get("doc_type") == "catalog":
                continue
            doc_id = str(meta.get("doc_id", ""))
            key = f"{doc_id.split('/', 1)[-1]}#{ix.section_of[int(row)]}"
            if key not in best:
                best[key] = (float(cosines[row]), int(row))
        ranked = sorted(best.values(), reverse=True)
        if not ranked:
            return []
        cosine, row = ranked[0]
        runner_up = ranked[1][0] if len(ranked) > 1 else 0.0
        meta = ix.metas[row]
        if (
            meta.get("doc_type") != "faq"
            or cosine < QUESTION_MATCH
            or cosine - runner_up < QUESTION_MARGIN
            or not filters.accepts(meta)
        ):
            return []
        doc = ix.sections.get(str(meta.get("doc_id", "")))
        return [doc[ix.section_of[row]][0]] if doc else [row]

    def _named(self, ix: _Snapshot, query: str, filters: SearchFilters) -> list[int]:
        """The catalog entries of the items the question names."""
        rows: list[int] = []
        for doc_id in self._names.doc_ids(query) if self._names else []:
            rows.extend(r for r in ix.doc_rows.get(doc_id, []) if filters.accepts(ix.metas[r]))
        return rows

    @staticmethod
    def _headed_by(ix: _Snapshot, term: str | None, filters: SearchFilters) -> list[int]:
        """Sections whose heading names ``term``, the thing a question asks the meaning of ("rail-optimized",
        "PUE", "ZeRO-3"), however it is spelled ("Rail-optimised fat-tree topology"); only when few do, since a
        term that heads many sections (H100) says nothing about which one answers."""
        words = (term or "").split()
        # "a rail-optimized fabric": the term, else the term without its last word ("rail-optimized")
        for wanted in (
            _squash(american(" ".join(words[:n]).lower()))
            for n in range(len(words), 0, -1)
            if len(" ".join(words[:n])) >= 3
        ):
            headed = sorted(
                r
                for squashed, rows in ix.squashed_headings.items()
                if wanted in squashed
                for r in rows
                if filters.accepts(ix.metas[r])
            )
            if headed:
                return headed if len(headed) <= _RARE_TERM_HEADINGS else []
        return []

    def _heading_terms(self, ix: _Snapshot, tokens: list[str], filters: SearchFilters) -> dict[int, int]:
        """Guidance sections whose headings share the question's rare words, the rarest first: a heading names
        its topic ("AMD ROCm, RCCL and MIOpen", "AWS Trainium and other cloud-only accelerators"), where the
        passage's own words may be spent on a neighbouring one. "trainium2" also seeks "trainium"."""
        # names and technical terms ("rocm", "nccl", "trainium") in either language's question; a Chinese word
        # splits into many short segments that head sections on every topic
        # (model numbers are the card-heading ranker's: "H100" heads sections on every topic)
        ascii_words = [t for t in tokens if t.isascii() and len(t) >= 3 and t not in _PARTICLES]
        wanted = {t for t in ascii_words if not any(c.isdigit() for c in t)}
        wanted |= {stem.group(1) for t in ascii_words if (stem := _FAMILY_STEM.match(t))}
        scored: list[tuple[float, int, int]] = []
        # only the rows whose heading carries a rare word asked (the index lists them), not every row
        for row in {r for w in wanted if w in ix.heading_idf for r in ix.heading_word_rows.get(w, ())}:
            shared = [ix.heading_idf[w] for w in wanted & ix.heading_words[row] if w in ix.heading_idf]
            if filters.accepts(ix.metas[row]):
                scored.append((sum(shared), row, len(shared)))
        scored.sort(key=lambda item: (-item[0], item[1]))
        # the rows in rank order (a dict keeps it), each with how many rare words its heading shares
        return {row: count for _, row, count in scored[: self._candidates]}

    @staticmethod
    def _choice_headings(ix: _Snapshot, query: str, filters: SearchFilters) -> list[int]:
        """Guidance sections whose heading names something from each side of a choice the question asks
        ("上 slurm 还是 k8s+volcano？" -> "GPU 训练集群用 Slurm 还是 Kubernetes？", not the section on Kueue and
        Volcano, which names one side only); none when the choice names no words that few headings carry."""
        sides = _choice_sides(query)
        if sides is None:
            return []
        # a word on both sides ("gpu" in "GPU A or GPU B") tells neither apart; a word heading many sections
        # ("GPU", "LLM") names no topic
        left, right = (
            {
                w
                for w in side - (sides[0] & sides[1])
                if 0 < ix.heading_carriers.get(w, 0) <= CHOICE_HEADING_WORD
            }
            for side in sides
        )
        if not left or not right:
            return []
        carrying = [{r for w in side for r in ix.heading_token_rows.get(w, ())} for side in (left, right)]
        both = [row for row in carrying[0] & carrying[1] if filters.accepts(ix.metas[row])]
        # the heading that is most nearly the choice itself first ("Slurm or Kubernetes for a GPU training
        # cluster?" before a longer heading that also names both)
        return sorted(
            both,
            key=lambda row: (-len(ix.heading_tokens[row] & (left | right)), len(ix.heading_tokens[row]), row),
        )

    def _card_headings(self, ix: _Snapshot, query: str, filters: SearchFilters) -> list[int]:
        """Guidance sections whose heading names a card the question names ("H20 any good?" -> "What are
        the China-market A800, H800 and H20?"): dense vectors confuse H20 with H200, a heading does not."""
        rows: list[int] = []
        # a card named as the yardstick ("H100-class at a fraction of the price", "H100 级别") is not asked about
        doc_ids = self._names.doc_ids(_YARDSTICK.sub(" ", query)) if self._names else []
        models = {m for doc_id in doc_ids if (m := _model_number(doc_id))}
        if len(models) == 1:  # a question about one card; two named are compared or mixed, not looked up
            # "gaudi3" is written "Gaudi 3" in headings: a space or hyphen may part letters from digits
            spelled = [re.sub(r"(?<=[a-z])(?=\d)", r"[\\s-]?", re.escape(m)) for m in sorted(models)]
            named = re.compile(rf"(?<![\w.-])(?:{'|'.join(spelled)})(?![\w.])", re.IGNORECASE)
            headed = sorted(
                r
                for section, section_rows in ix.section_rows.items()
                if named.search(section)
                for r in section_rows
                if filters.accepts(ix.metas[r])
            )
            # only a rare heading is evidence: H100 heads many sections that are about something else (a
            # section and its twin in the other language are one heading: "910B" heads two, in two languages)
            sections = {
                (str(ix.metas[r].get("doc_id", "")).split("/", 1)[-1], ix.section_of[r]) for r in headed
            }
            if len(sections) <= _RARE_HEADINGS:
                rows.extend(headed)
        return rows

    def _passage(
        self,
        ix: _Snapshot,
        row: int,
        score: float,
        ranks: dict[str, int],
        tokens: list[str],
        query_vector: np.ndarray | None = None,
        term: str | None = None,
    ) -> Passage:
        meta = ix.metas[row]
        urls = [u for u in str(meta.get("source_urls", "")).split("\n") if u]
        similarity, heading = ix.fit(row, query_vector)
        return Passage(
            chunk_id=ix.ids[row],
            doc_id=str(meta.get("doc_id", "")),
            title=str(meta.get("title", "")),
            section=str(meta.get("section", "")),
            source=str(meta.get("path", "")),
            url=str(meta.get("url", "")),
            source_urls=urls,
            lang=str(meta.get("lang", "")),
            doc_type=str(meta.get("doc_type", "")),
            as_of=str(meta.get("as_of", "")),
            text=ix.texts[row],
            snippet=(
                picked := pick(
                    ix.sentences[row], tokens, SNIPPET_CHARS, idf=ix.idf, similarity=similarity, term=term
                )
            ).text,
            snippet_score=round(picked.score + HEADING_WEIGHT * heading, 4),
            score=round(score, 6),
            ranks=ranks,
        )


@dataclass(frozen=True)
class _Snapshot:
    """Everything a search reads besides Chroma, built from one read of the collection and never changed."""

    ids: list[str]
    texts: list[str]
    metas: list[dict[str, Any]]
    row: dict[str, int]  # chunk id -> row
    doc_rows: dict[str, list[int]]  # doc id -> rows in reading order
    sections: dict[str, list[list[int]]]  # doc id -> its sections' rows, in reading order
    section_of: dict[int, int]  # row -> ordinal of its section in its document
    sentences: list[list[Sentence]]
    bm25: bm25s.BM25 | None
    idf: dict[str, float]  # token -> log(1 + sentences / sentences holding it): rare words weigh more
    vectors: list[np.ndarray] | None  # per row, its sentences' unit vectors (None: no sentence model)
    headings: np.ndarray | None  # per row, its section heading's unit vector (rows x dimensions)
    stacked: np.ndarray | None = None  # every sentence's unit vector in one matrix (sentences x dimensions)
    # each guidance section heading in lower case without spaces or hyphens, spelled the American way, and the
    # rows it heads: what a term asked about is looked for in ("Rail-optimised fat-tree topology" ->
    # "railoptimizedfattreetopology"); and each heading as written, with its rows. A search reads each distinct
    # heading once, not each row (a long section's pieces, and an article's twin, repeat it)
    squashed_headings: dict[str, list[int]] = field(default_factory=dict)
    section_rows: dict[str, list[int]] = field(default_factory=dict)
    # per row, the words of its guidance section's heading (none for catalog entries), and for each heading word
    # carried by at most RARE_HEADING_WORD distinct headings, log(headings / headings carrying it)
    heading_words: list[frozenset[str]] = field(default_factory=list)
    heading_idf: dict[str, float] = field(default_factory=dict)
    heading_word_rows: dict[str, list[int]] = field(default_factory=dict)  # word -> the rows it heads
    # per row, every word of its guidance section's heading ("Slurm or Kubernetes…" -> slurm, kubernete, …; none
    # for catalog entries or an article's title), and for every such word how many distinct headings carry it
    heading_tokens: list[frozenset[str]] = field(default_factory=list)
    heading_carriers: dict[str, int] = field(default_factory=dict)
    heading_token_rows: dict[str, list[int]] = field(default_factory=dict)  # word -> the rows it heads
    # each distinct heading's unit vector once (distinct headings x dimensions), and per row which one is its own
    distinct_headings: np.ndarray | None = None
    heading_of: np.ndarray | None = None

    @classmethod
    def of(
        cls,
        collection: Collection,
        sentence_vectors: SentenceVectors | None = None,
        tokens: Path | None = None,
    ) -> _Snapshot:
        ids, texts, metas = read_all(collection)
        saved = load_tokens(tokens) if tokens is not None else set()
        doc_rows: dict[str, list[int]] = defaultdict(list)
        for i, meta in enumerate(metas):
            doc_rows[str(meta.get("doc_id", ""))].append(i)
        # each document's sections in reading order (a long section's pieces ``~n`` are one section), so an
        # article's twin in the other language can stand in section for section
        section_of: dict[int, int] = {}
        sections: dict[str, list[list[int]]] = {}
        for doc_id, doc in doc_rows.items():
            doc.sort(key=lambda r: int(metas[r].get("position", 0)))
            by_section: dict[str, list[int]] = {}
            for r in doc:
                by_section.setdefault(ids[r].partition("~")[0], []).append(r)
            sections[doc_id] = list(by_section.values())
            for ordinal, section_rows in enumerate(sections[doc_id]):
                for r in section_rows:
                    section_of[r] = ordinal
        # each passage is tokenised once, by sentence: BM25 indexes the tokens, snippets pick sentences
        sentences = [split_sentences(t) for t in texts]
        for doc_sections in sections.values():
            # an article's introduction lists what the article covers ("…, what PUE is, and how to turn it
            # into a bill"): it names every topic and answers none, so its sentences never lead
            intro = doc_sections[0] if len(doc_sections) > 1 else []
            for r in intro:
                if metas[r].get("section") == metas[r].get("title"):
                    sentences[r] = [s._replace(aside=True) for s in sentences[r]]
        bm25: bm25s.BM25 | None = None
        if ids:
            bm25 = bm25s.BM25()
            corpus = [tokenize(t.partition("\n\n")[0]) + [w for s in ss for w in s.tokens] for t, ss in
                      zip(texts, sentences, strict=True)]  # fmt: skip
            bm25.index(corpus, show_progress=False)
        if tokens is not None:
            _keep_tokens(tokens, texts, metas, saved)
        holding = Counter(token for ss in sentences for s in ss for token in set(s.tokens))
        total = sum(len(ss) for ss in sentences) or 1
        vectors: list[np.ndarray] | None = None
        headings: np.ndarray | None = None
        if sentence_vectors is not None:
            both = sentence_vectors.of(_vector_groups(texts, metas))
            vectors = both[: len(texts)]
            headings = np.vstack(both[len(texts) :]) if metas else None
        return cls(
            ids=ids,
            texts=texts,
            metas=metas,
            row={chunk_id: i for i, chunk_id in enumerate(ids)},
            doc_rows=dict(doc_rows),
            sections=sections,
            section_of=section_of,
            sentences=sentences,
            bm25=bm25,
            idf={token: math.log(1 + total / n) for token, n in holding.items()},
            vectors=vectors,
            headings=headings,
        )

    def __post_init__(self) -> None:
        if not self.section_rows:
            section_rows: dict[str, list[int]] = defaultdict(list)
            for r, m in enumerate(self.metas):
                if m.get("doc_type") != "catalog":
                    section_rows[str(m.get("section", ""))].append(r)
            squashed: dict[str, list[int]] = defaultdict(list)
            for section, its_rows in section_rows.items():
                squashed[_squash(american(section.lower()))].extend(its_rows)
            object.__setattr__(self, "section_rows", dict(section_rows))
            object.__setattr__(self, "squashed_headings", dict(squashed))
        if not self.heading_words:
            words = [
                frozenset(_named_words(str(m.get("section", ""))))
                if m.get("doc_type") != "catalog"
                else frozenset()
                for m in self.metas
            ]
            distinct = {str(m.get("section", "")): w for m, w in zip(self.metas, words, strict=True) if w}
            carrying = Counter(w for ws in distinct.values() for w in ws)
            total = len(distinct) or 1
            object.__setattr__(self, "heading_words", words)
            object.__setattr__(self, "heading_word_rows", _rows_by_word(words))
            object.__setattr__(
                self,
                "heading_idf",
                {w: math.log(total / n) for w, n in carrying.items() if n <= RARE_HEADING_WORD},
            )
        if not self.heading_tokens:
            tokens = [
                frozenset(tokenize(str(m.get("section", ""))))
                if m.get("doc_type") != "catalog" and m.get("section") != m.get("title")
                else frozenset()
                for m in self.metas
            ]
            headed = {str(m.get("section", "")): t for m, t in zip(self.metas, tokens, strict=True) if t}
            object.__setattr__(self, "heading_tokens", tokens)
            object.__setattr__(self, "heading_token_rows", _rows_by_word(tokens))
            object.__setattr__(
                self, "heading_carriers", dict(Counter(w for ws in headed.values() for w in ws))
            )
        if self.headings is not None and self.distinct_headings is None:
            first: dict[str, int] = {}  # heading -> the first row it heads
            for r, m in enumerate(self.metas):
                first.setdefault(_heading(m), r)
            ordinal = {heading: n for n, heading in enumerate(first)}
            object.__setattr__(self, "distinct_headings", self.headings[list(first.values())])
            object.__setattr__(
                self, "heading_of", np.array([ordinal[_heading(m)] for m in self.metas], dtype=np.intp)
            )
        if self.vectors is not None and self.stacked is None:
            rows = [m for m in self.vectors if m.size and m.ndim == 2 and m.shape[1] > 1]
            object.__setattr__(self, "stacked", np.vstack(rows) if rows else None)

    def unit(self, row: int) -> str:
        """What diversity counts ``row`` as: its document, or in a question-and-answer article, its section
        (the FAQ's sections answer separate questions, as separate documents would)."""
        doc_id = str(self.metas[row].get("doc_id", ""))
        if self.metas[row].get("doc_type") == "faq":
            return f"{doc_id}#{self.section_of[row]}"
        return doc_id

    def fit(self, row: int, query_vector: np.ndarray | None) -> tuple[np.ndarray | None, float]:
        """Row ``row``'s sentences' cosines with the question, and its section heading's: a section titled
        as the question is asked ("InfiniBand versus RoCE") is where the answer is. A section's opening
        sentence states what the section settles, so it gets a little more."""
        if query_vector is None or self.vectors is None or self.headings is None:
            return None, 0.0
        similarity = self.vectors[row] @ query_vector
        heading = float(self.headings[row] @ query_vector)
        doc = self.sections.get(str(self.metas[row].get("doc_id", "")))
        if len(similarity) and doc and doc[self.section_of[row]][0] == row:
            similarity = similarity.copy()
            # an article's introduction says what the article covers; any other section's opening, what it
            # settles, and in a question-and-answer article, under the question asked, the answer itself
            faq = self.metas[row].get("doc_type") == "faq" and heading >= FAQ_HEADING_MATCH
            opening = FAQ_OPENING_BONUS if faq else OPENING_BONUS
            similarity[0] += opening if self.section_of[row] else -OPENING_BONUS
        return similarity, heading


_WORD = re.compile(r"[A-Za-z][A-Za-z0-9.+-]*")
# a sentence that asks without a question mark: "…吗", "how do we improve it"
_ASKS = re.compile(
    r"[吗呢么]\W*$|\b(?:how|what|why|which)\b|^\W*(?:when|where|who|is|are|do|does|can|could|should|will|would)\b|"
    r"怎么|为什么|为啥|如何|是否|哪(?:个|些|种)",
    re.IGNORECASE,
)
# how many sections of one question-and-answer article a search returns at most
FAQ_SECTIONS = 2
# the asked part is this much shorter than the message, or the setting adds little to it
ASKED_SHARE = 0.9


def asked_sentence(message: str) -> str | None:
    """The message's question when the message also tells its setting around it ("Intel is pitching Gaudi 3
    hard. Do we still need to buy InfiniBand HCAs …?" → the second sentence), or None when the message is
    one question throughout. Decimal points ("2.5 TB") do not end a sentence."""
    sentences = sentences_of(message)
    questions = [s for s in sentences if s.endswith(("?", "？")) or _ASKS.search(s)]
    if len(sentences) < 2 or not questions:
        return None
    asked = " ".join(questions)
    return asked if len(asked) <= ASKED_SHARE * len(message) else None


# "slurm or kubernetes", "IB 还是 RoCE", "lustre vs weka": the word that offers a choice, and the clause
# boundaries that end each side of it
_CHOICE = re.compile(r"还是|或者|或是|\b(?:or|vs\.?|versus)\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[,.;:!?，。；：！？、\n]|\b(?:for|with|on|in|to|and)\b", re.IGNORECASE)


def _choice_sides(query: str) -> tuple[set[str], set[str]] | None:
    """The words on each side of the choice a question asks ("上 slurm 还是 k8s+volcano？" -> {slurm},
    {k8s, kubernete, volcano}): the clause before the choice word and the one after it, names only (ASCII
    words of three or more letters, no digits: the card-heading ranker reads model numbers)."""
    match = _CHOICE.search(query)
    if match is None:
        return None
    before = _CLAUSE_END.split(query[: match.start()])[-1]
    after = _CLAUSE_END.split(query[match.end() :])[0]

    def names(text: str) -> set[str]:
        return {t for t in tokenize(text) if t.isascii() and len(t) >= 3 and not any(c.isdigit() for c in t)}

    return names(before), names(after)


def _named_words(heading: str) -> list[str]:
    """The names and acronyms in a heading, as keyword tokens: the words written with a capital past the
    heading's first word, or with one inside ("AMD ROCm, RCCL and MIOpen" -> amd, rocm, rccl, miopen), not
    the ordinary words around them ("add", "have", "job")."""
    kept = [
        m.group()
        for m in _WORD.finditer(heading)
        if any(c.isupper() for c in m.group()[1:]) or (m.group()[0].isupper() and m.start() > 0)
    ]
    return tokenize(" ".join(kept))


# "trainium2", "gaudi3": the family a numbered product belongs to, as headings name it
_FAMILY_STEM = re.compile(r"([a-z]{4,})\d+[a-z]?$")


def _rows_by_word(words: list[frozenset[str]]) -> dict[str, list[int]]:
    """Per word, the rows whose words (``words[row]``) hold it, in row order: an inverted index."""
    rows: dict[str, list[int]] = defaultdict(list)
    for row, held in enumerate(words):
        for word in held:
            rows[word].append(row)
    return dict(rows)


def _top(scores: np.ndarray, n: int) -> list[int]:
    """The rows of the ``n`` highest ``scores``, highest first, a tie in row order: what a stable sort of all
    of them would give first, in time that grows with ``n``, not with the rows' sort."""
    if len(scores) <= n:
        return [int(r) for r in np.argsort(-scores, kind="stable")]
    threshold = np.partition(scores, len(scores) - n)[len(scores) - n]
    chosen = np.flatnonzero(scores >= threshold)  # ascending rows: ties in row order
    order = chosen[np.argsort(-scores[chosen], kind="stable")]
    return [int(r) for r in order[:n]]


def _heading(meta: dict[str, Any]) -> str:
    """A passage's section heading, else its document's title."""
    return str(meta.get("section") or meta.get("title") or "")


_SENTENCE_END = re.compile(r"(?<=[。！？；])\s*|(?<=[.!?;])\s+|\n+")


class Sentence(NamedTuple):
    text: str
    tokens: list[str]
    aside: bool = False  # about the text itself or bookkeeping ("本文回答…", "Also called …", a link)


def sentence_texts(text: str) -> list[str]:
    """The sentences (or catalog lines) of a passage's body; its title and section come before its first
    blank line, so they are left out."""
    head, _, body = text.partition("\n\n")
    return [p for p in (s.strip() for s in _SENTENCE_END.split(body or head)) if p]


def split_sentences(text: str) -> list[Sentence]:
    """The sentences (or catalog lines) of a passage's body, each with its keyword tokens."""
    return [Sentence(p, tokenize(p), bool(_ABOUT_THE_TEXT.match(p))) for p in sentence_texts(text)]


def _vector_groups(texts: list[str], metas: list[dict[str, Any]]) -> list[list[str]]:
    """What the sentence vectors of an index are: each passage's sentences, then each passage's heading.

    Asked for in one call: the cache keeps what a call uses and drops the rest, so two calls would drop
    each other's vectors and re-embed them at every start.
    """
    return [sentence_texts(t) for t in texts] + [[_heading(m)] for m in metas]


def _keep_tokens(path: Path, texts: list[str], metas: list[dict[str, Any]], saved: set[str]) -> None:
    """Save the keyword tokens of the passages' sentences and headings, the texts a start segments, unless
    ``saved`` (what ``path`` holds) has them all: new or changed passages, the next start reads theirs too.
    The headings are each passage's first line (what BM25 indexes) and its section's name (what the choice
    ranker reads)."""
    segmented = (
        [s for text in texts for s in sentence_texts(text)]
        + [t.partition("\n\n")[0] for t in texts]
        + [str(m.get("section", "")) for m in metas if m.get("doc_type") != "catalog"]
    )
    if not saved.issuperset(segmented):
        save_tokens(path, segmented)


def token_cache(collection: Collection, location: Path | None) -> Path | None:
    """Where a local index keeps its sentences' keyword tokens for the next start (beside it, like the
    sentence vectors); None for a remote store."""
    return location.parent / f"{collection.name}.tokens.json" if location else None


def sentence_cache(collection: Collection, location: Path | None) -> Path | None:
    """Where a local index keeps its sentence vectors: beside it, named after the collection, which is named
    after the embedding model, so vectors of two models never mix. None for a remote store."""
    return location.parent / f"{collection.name}.sentences.npz" if location else None


def cache_sentence_vectors(
    collection: Collection,
    embeddings: Embeddings,
    location: Path | None,
    *,
    on_embed: Callable[[int], None] | None = None,
) -> None:
    """Embed the index's sentences that the cache beside it lacks (after an ingest), and save their keyword
    tokens, so that the next start embeds and segments none of them; ``on_embed`` hears how many sentences
    are embedded, before they are."""
    path = sentence_cache(collection, location)
    tokens = token_cache(collection, location)
    if path is None or tokens is None:
        return
    _, texts, metas = read_all(collection)
    SentenceVectors(embeddings.embed_documents, path).of(_vector_groups(texts, metas), on_embed=on_embed)
    _keep_tokens(tokens, texts, metas, load_tokens(tokens))


class Picked(NamedTuple):
    text: str
    score: float


# the field's abbreviations, spelled out beside themselves so both the keyword and the meaning rankers
# reach the passages that use the full term ("IB vs RoCE", "k8s还是slurm", "PFS or local NVMe")
_ABBREVIATIONS = {
    "ib": "InfiniBand",
    "k8s": "Kubernetes",
    "pfs": "parallel file system",
    "tp": "tensor parallelism",
    "pp": "pipeline parallelism",
    "dp": "data parallelism",
    "tco": "total cost of ownership",
    "oom": "out of memory",
    "ft": "fine-tuning",
    "sft": "supervised fine-tuning",
}
_ABBREVIATION = re.compile(
    r"(?<![A-Za-z0-9])(" + "|".join(_ABBREVIATIONS) + r")(?![A-Za-z0-9])", re.IGNORECASE
)


def spell_out(query: str, *, abbreviations: bool = True) -> str:
    """``query`` with each known abbreviation followed by its full term: "IB vs RoCE" -> "IB (InfiniBand) vs RoCE";
    "zero3" and "zero 2" are written as the documents write them, "ZeRO-3"."""
    query = _ZERO_STAGE.sub(lambda m: f"ZeRO-{m.group(1)}", query)
    if not abbreviations:
        return query
    return _ABBREVIATION.sub(lambda m: f"{m.group(1)} ({_ABBREVIATIONS[m.group(1).lower()]})", query)


_ZERO_STAGE = re.compile(r"(?<![A-Za-z])zero\s*-?\s*([123])(?!\d)", re.IGNORECASE)


# sentences that lean on the one before them
_DANGLING = re.compile(
    r"^(?:that|this|these|those|it|they|so|thus|therefore|hence|then|such|which|both|also|however|but)\b"
    r"|^(?:因此|所以|这|那|它|其|此外|但|然而|同样|也)",
    re.IGNORECASE,
)
# sentences that describe the document rather than answer anything: "本文回答三个问题", "This page covers",
# and a catalog entry's bookkeeping lines (its other names, its sources, a link)
_ABOUT_THE_TEXT = re.compile(
    r"^(?:本文|本节|本篇|这篇|下文|下面|以下|this (?:article|page|section|document|guide|note)|below|in this (?:article|page|section)"
    r"|also called|又称|sources?\b|来源|as of\b|截至|all tensor tflops below|.*https?://)",
    re.IGNORECASE,
)


# the particles of phrasal verbs: "lay out the NVMe" names no "scale-out" topic, "back off" no backup
_PARTICLES = frozenset({"out", "off", "over", "down", "back", "away"})
# sections (one heading in each language) a card may head and still single them out
_RARE_HEADINGS = 2


# a card named as a measure of another: "H100-class", "A100 class performance", "H100级别", "4090 同级", "like an H100"
# (a model number is ASCII: "从A100升级到H100" names both cards, "级" there is part of 升级)
_YARDSTICK = re.compile(
    r"[\w.-]+[- ](?:class|level|equivalent|grade)\b|[A-Za-z0-9.-]+\s*(?:级别|同级|这一级|这个级别)"
    r"|\b(?:like|as fast as|on par with|comparable to)\s+(?:an?\s+)?[\w.-]+"
    # "at ~half the price of an HGX H100", "比 H100 便宜一半", "价格是 H100 的一半": the card priced against
    r"|\b(?:half|a third|a quarter|a fraction|twice|double)\s+(?:of\s+)?(?:the\s+)?(?:price|cost)\s+of\s+"
    r"(?:an?\s+)?(?:(?:hgx|dgx)\s+)?[\w.-]+|比\s*(?:(?:hgx|dgx)\s*)?[A-Za-z0-9.-]+\s*(?:便宜|贵)"
    r"|(?:(?:hgx|dgx)\s*)?[A-Za-z0-9.-]+\s*的\s*一半",
    re.IGNORECASE,
)


def _model_number(doc_id: str) -> str | None:
    """The model number an accelerator's catalog id carries: "catalog/accelerators/h20" -> "h20",
    "…/rtx-4090" -> "4090", "…/ascend-910b2" -> "910b" (headings name the family, not the bin)."""
    if "/accelerators/" not in doc_id:
        return None
    token = next((t for t in doc_id.rsplit("/", 1)[-1].split("-") if any(c.isdigit() for c in t)), None)
    if token is None or len(token) < 3:
        return None
    return re.sub(r"(?<=[a-z])\d+$", "", token) if re.search(r"\d[a-z]+\d+$", token) else token


def pick(
    sentences: Sequence[Sentence],
    tokens: list[str],
    max_chars: int = 280,
    idf: Mapping[str, float] | None = None,
    similarity: np.ndarray | None = None,
    term: str | None = None,
) -> Picked:
    """The run of sentences that starts with the one that best matches the question, and that match.

    With ``similarity`` (each sentence's cosine with the question) a sentence scores its meaning, plus a
    little for the rare question words it shares; without it, the question words it shares, each weighted
    by ``idf`` (every word 1 without ``idf``). A sentence about the text itself ("本文回答三个问题")
    scores less. With ``term`` (the question asks what it is), a sentence that defines it scores more.
    Ties go to the earliest sentence; with no match at all the passage's opening is returned.
    """
    if not sentences:
        return Picked("", 0.0)
    wanted = set(tokens)
    weights: Mapping[str, float] = idf or {}
    lexical = [sum(weights.get(t, 1.0) for t in wanted.intersection(s.tokens)) for s in sentences]
    if similarity is not None and len(similarity) == len(sentences):
        most = max(lexical) or 1.0
        scores = [
            float(similarity[i]) + 0.1 * lexical[i] / most - (1.0 if s.aside else 0.0) + defines(term, s.text)
            for i, s in enumerate(sentences)
        ]
    else:
        scores = [lex * (0.33 if s.aside else 1.0) for lex, s in zip(lexical, sentences, strict=True)]
    best = max(range(len(sentences)), key=lambda i: (scores[i], -i)) if any(scores) else 0
    # what the answering sentence scored, even when the excerpt starts a sentence earlier
    score = scores[best]
    if best and _DANGLING.match(sentences[best].text):
        best -= 1  # "That is 8 × 400 Gb/s ...", "因此 ...": the sentence it points back to comes first
    while best and sentences[best - 1].text.endswith((";", "；")):
        best -= 1  # "above that, liquid cooling…" is the second half of a sentence: start where it starts
    snippet = ""
    for sentence in (s.text for s in sentences[best:]):
        # a catalog line or list item has no closing punctuation, so mark where it ends
        if not snippet or snippet.endswith(("。", "！", "？", "；")):
            joined = snippet + sentence
        elif snippet.endswith((".", "!", "?", ";")):
            joined = f"{snippet} {sentence}"
        else:
            joined = f"{snippet} · {sentence}"
        if snippet and len(joined) > max_chars:
            break
        snippet = joined
    text = snippet if len(snippet) <= max_chars else snippet[: max_chars - 1] + "…"
    return Picked(text, score)


# what a sentence that defines its subject says right after it: "PUE is", "（PUE）=", "ZeRO-3 把…", "指";
# not a passive ("PUE is measured over a year") or a use of the term ("A PUE of 2.0 means")
_COPULA = re.compile(
    r"^\W{0,3}(?:\([^)]{1,40}\)|（[^）]{1,40}）)?\s*(?:(?:is|are)\s+(?!\w+ed\b)|means\b|stands for\b|refers to\b|=|＝|是|指|即|就是)",
    re.IGNORECASE,
)
# or a verb after the term that opens its sentence: "Full activation checkpointing keeps…", "KV cache 保存…"
_VERB_AFTER = re.compile(
    r"^\W{0,3}(?:\([^)]{1,40}\)|（[^）]{1,40}）)?\s*(?:[a-z]{3,}s\b|[\u4e00-\u9fff](?!\s*\d))"
)
# how far into its sentence a term may start and still be its subject ("Full activation checkpointing")
_SUBJECT_START = 8
# a term defining sentence carries, at most: the bonus beside a cosine of 0.1-0.8
DEFINES = 0.3


def _squash(text: str) -> str:
    """Lower case without spaces or hyphens: "ZeRO-3" and "zero3" are the same term."""
    return re.sub(r"[\s\-_]+", "", text.lower())


def defines(term: str | None, sentence: str) -> float:
    """How much ``sentence`` reads as the definition of ``term``: it names the term, and more when the term
    is its subject or a copula follows ("PUE is…", "电能利用效率（PUE）= …", "Full activation checkpointing
    keeps…"; not "…; turn on activation checkpointing; shard…")."""
    if not term:
        return 0.0
    squashed, wanted = _squash(sentence), _squash(term)
    at = squashed.find(wanted)
    if at < 0:
        return 0.0
    # where the term ends in the sentence as written: after as many non-space, non-hyphen characters
    seen, end = 0, len(sentence)
    for i, ch in enumerate(sentence):
        if seen == at + len(wanted):
            end = i
            break
        if not re.match(r"[\s\-_]", ch):
            seen += 1
    after = sentence[end:]
    # the sentence's subject, or spelled out in brackets after its full name ("Power usage effectiveness
    # (PUE) is…"); a copula deep in a sentence ("IT 功率乘以 PUE 就是…") does not define the term
    before = sentence[: max(0, end - len(term))]
    # "Full activation checkpointing", "完整的激活检查点": a few words before it; "机房公布的 PUE" is an object
    opening = len(before) <= _SUBJECT_START and len(re.findall(r"[\u4e00-\u9fff]", before)) <= 3
    bracketed = sentence[end : end + 1] in {")", "）"}
    if ((opening or bracketed) and _VERB_AFTER.match(after)) or (
        (opening or bracketed) and _COPULA.match(after)
    ):
        return DEFINES
    return DEFINES / 3


# "what is X", "what does X mean", "explain X", "X是啥", "X啥意思", "什么是X", "解释一下X": the X asked about
_DEFINITION = [
    re.compile(
        r"\bwhat(?:'s| is| are)\s+(?:an?\s+|the\s+)?(?P<t>[A-Za-z][A-Za-z0-9./+_-]*(?:\s+[A-Za-z][A-Za-z0-9./+_-]*){0,2}?)\s*(?:\?|$|,|\band\b|\bexactly\b|\bactually\b)",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\W*(?P<t>[A-Za-z][A-Za-z0-9./+_-]*(?:\s+[A-Za-z][A-Za-z0-9./+_-]*){0,2}?)\s+(?:stands? for|means?)\s+what\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bwhat does\s+(?P<t>[A-Za-z][A-Za-z0-9./+_-]*(?:\s+[A-Za-z][A-Za-z0-9./+_-]*){0,2}?)\s+(?:mean|stand for|do)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:explain|define)\s+(?P<t>[A-Za-z][A-Za-z0-9./+_-]*(?:\s+[A-Za-z][A-Za-z0-9./+_-]*){0,2}?)\s*(?:\?|$|,|\bto\b|\bin\b)",
        re.IGNORECASE,
    ),
    re.compile(
        r"(?P<t>[A-Za-z][A-Za-z0-9./+_-]{1,20}(?:\s[A-Za-z][A-Za-z0-9./+_-]{1,20})?|[\u4e00-\u9fff]{2,6})\s*(?:到底)?\s*(?:是啥|是什么|啥意思|什么意思|是指什么|是干嘛的|是干什么的|有什么用)"
    ),
    re.compile(
        r"(?:什么是|解释一下|解释下|讲讲|介绍一下)\s*(?P<t>[A-Za-z][A-Za-z0-9./+_-]{1,20}|[\u4e00-\u9fff]{2,6})"
    ),
]
_NOT_A_TERM = {"the", "this", "that", "it", "difference", "best", "better", "cheapest", "price", "cost",
               # "what's missing?", "what's wrong?", "what's the catch": a diagnosis or a judgement asked, no term
               "missing", "wrong", "happening", "going", "catch", "problem", "issue", "causing", "next"}  # fmt: skip
# ... nor one ending in a word for an account of something: "what's the real-world story?", "what's the situation"
_NOT_A_TERM_END = {
    "story",
    "situation",
    "deal",
    "status",
    "experience",
    "verdict",
    "picture",
    "consensus",
    "take",
}
# words that say how a question asks, not what about: "分别是啥" (each of several), "到底是啥"
_NOT_A_TERM_ZH = {"分别", "到底", "这个", "那个", "它们", "这些", "那些", "区别"}


# an English term of two or three words inside a Chinese question: "开activation checkpointing 显存能省多少"
_EMBEDDED_TERM = re.compile(r"(?<![A-Za-z])([a-z][a-z-]{2,}(?:\s[a-z][a-z-]{2,}){1,2})(?![A-Za-z])")


def defined_term(question: str) -> str | None:
    """The term a question asks the meaning of ("zero3是啥" -> "zero3", "what is PUE" -> "PUE"), or the
    English term a Chinese question is about ("开activation checkpointing能省多少"), or None."""
    if re.search(r"[\u4e00-\u9fff]", question) and (embedded := _EMBEDDED_TERM.search(question)):
        return embedded.group(1)
    for pattern in _DEFINITION:
        if (
            (match := pattern.search(question))
            # "what's the difference between tensor, pipeline…": the first word says no term is defined
            and match.group("t").lower().split()[0] not in _NOT_A_TERM
            and match.group("t").lower().split()[-1] not in _NOT_A_TERM_END
            and match.group("t") not in _NOT_A_TERM_ZH
        ):
            return re.sub(r"\s+(?:actually|exactly|really|even)$", "", match.group("t"), flags=re.IGNORECASE)
    return None


def pick_snippet(sentences: Sequence[Sentence], tokens: list[str], max_chars: int = 280) -> str:
    """``pick``'s text, every question word weighing the same."""
    return pick(sentences, tokens, max_chars).text


def best_snippet(text: str, tokens: list[str], max_chars: int = 280) -> str:
    """``pick_snippet`` for a passage's raw text."""
    return pick_snippet(split_sentences(text), tokens, max_chars)
