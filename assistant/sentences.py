"""Sentence vectors for picking the sentence that answers a question.

Which passage answers a question is the retriever's job; which of its sentences to lead with is this
module's. Every sentence of the index is embedded once, with the same model as the passages, and kept in
a file beside the index keyed by the sentence's hash, so a restart or a re-index embeds only sentences
it has not seen. At question time the choice is a dot product with the query vector the dense search
already computed: no model call per request.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import zipfile
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from knowledge.files import write_aside

log = logging.getLogger(__name__)

Embed = Callable[[list[str]], list[list[float]]]
_BATCH = 256


def _key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:20]


class SentenceVectors:
    """Unit vectors for sentences, computed once per distinct sentence and cached in ``path``."""

    def __init__(self, embed: Embed, path: Path | None) -> None:
        self._embed = embed
        self._path = path
        self._read = self._stamp()  # the file's version this instance holds
        self._known: dict[str, np.ndarray] = self._load()

    def _stamp(self) -> int | None:
        try:
            return self._path.stat().st_mtime_ns if self._path is not None else None
        except OSError:
            return None

    def _load(self) -> dict[str, np.ndarray]:
        if self._path is None or not self._path.is_file():
            return {}
        try:
            with self._path.open("rb") as handle, np.load(handle, allow_pickle=False) as data:
                return dict(zip(data["keys"].tolist(), data["vectors"], strict=True))
        except (
            OSError,
            ValueError,
            KeyError,
            EOFError,
            zipfile.BadZipFile,
        ) as exc:  # a torn or foreign file: recompute, never fail
            log.warning("sentence vectors in %s are unreadable (%s); recomputing", self._path, exc)
            return {}

    def _save(self) -> None:
        if self._path is None or not self._path.parent.is_dir():
            return
        keys = np.array(list(self._known), dtype="U20")
        vectors = np.stack(list(self._known.values())) if self._known else np.zeros((0, 0), np.float32)
        try:
            write_aside(self._path, lambda out: np.savez(out, keys=keys, vectors=vectors))
            self._read = self._stamp()
        except OSError as exc:
            log.warning("could not save sentence vectors to %s: %s", self._path, exc)

    def of(
        self, sentences: Sequence[Sequence[str]], *, on_embed: Callable[[int], None] | None = None
    ) -> list[np.ndarray]:
        """For each passage's sentences, a matrix of their unit vectors (one row per sentence).

        The cache keeps only the sentences of this call: pass everything the index uses in one call.
        ``on_embed`` hears how many sentences are not cached, before they are embedded.
        """
        if (stamp := self._stamp()) != self._read:
            # written since by another instance (an ingest beside a running service): its vectors are used
            self._read, self._known = stamp, self._load()
        used = {_key(s) for group in sentences for s in group}
        missing = [
            k for k in dict.fromkeys(_key(s) for group in sentences for s in group) if k not in self._known
        ]
        stale = self._known.keys() - used
        for key in stale:  # sentences no longer in the index: the file keeps only what is used
            del self._known[key]
        if missing:
            texts = {_key(s): s for group in sentences for s in group}
            order = [texts[k] for k in missing]
            log.info("embedding %d new sentences", len(order))
            if on_embed is not None:
                on_embed(len(order))
            for start in range(0, len(order), _BATCH):
                batch = order[start : start + _BATCH]
                for text, vector in zip(batch, self._embed(batch), strict=True):
                    self._known[_key(text)] = _unit(np.asarray(vector, dtype=np.float32))
        if missing or stale:
            self._save()
        return [
            np.stack([self._known[_key(s)] for s in group]) if group else np.zeros((0, 1), np.float32)
            for group in sentences
        ]


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector


def unit(vector: Sequence[float] | np.ndarray) -> np.ndarray:
    """A query vector scaled to length 1, to compare with the sentence vectors."""
    return _unit(np.asarray(vector, dtype=np.float32))


class QueryVectors:
    """Query vectors by text, the most recently asked ``size`` kept: a question asked again (a suggestion
    clicked, a common question from many users, a follow-up compared with the question it follows) is not
    embedded again. The model is deterministic, so a kept vector is the one it would compute. Safe across
    threads: two threads missing the same text both embed it, and either result is the same."""

    def __init__(self, embed: Embed, size: int = 4096) -> None:
        self._embed = embed
        self._size = size
        self._kept: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def __call__(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Each of ``texts``'s vector, the ones not kept embedded in one call."""
        with self._lock:
            found = {t: v for t in texts if (v := self._kept.get(t)) is not None}
            for text in found:
                self._kept.move_to_end(text)
            self.hits += sum(t in found for t in texts)
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            computed = dict(
                zip(missing, (np.asarray(v, dtype=np.float64) for v in self._embed(missing)), strict=True)
            )
            with self._lock:
                self.misses += len(missing)
                self._kept.update(computed)
                while len(self._kept) > self._size:
                    self._kept.popitem(last=False)
            found |= computed
        return [found[t] for t in texts]
