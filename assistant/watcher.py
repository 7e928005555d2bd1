"""Each replica's view of a shared index kept current: a replica that shares a Chroma server with others
looks every few seconds for a change another one made (an upload, a deletion, an `advisor ingest` job, a
rebuild) and reloads its keyword index from the collection, without a restart."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from chromadb.api.models.Collection import Collection

from assistant.retriever import HybridRetriever
from knowledge.indexing import change_stamp

logger = logging.getLogger(__name__)


class IndexWatcher:
    """Polls the collection's change stamp (``knowledge.indexing.change_stamp``) every ``every_s`` seconds
    on a daemon thread; ``check`` does one look at once (after this replica's own change)."""

    def __init__(
        self, open_collection: Callable[[], Collection], retriever: HybridRetriever, every_s: float
    ) -> None:
        self._open = open_collection
        self._retriever = retriever
        self._every_s = every_s
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._failing = False
        self._last = change_stamp(open_collection())  # the retriever was built from this state

    def check(self) -> bool:
        """Reload the retriever if the shared collection changed since the last look; whether it did."""
        with self._lock:  # one reload at a time: the thread's look and a change made here
            collection = self._open()
            stamp = change_stamp(collection)
            if stamp == self._last:
                return False
            self._retriever.reopen(collection)
            self._last = stamp
            logger.info("the shared knowledge index changed; keyword index reloaded (%s)", stamp)
            return True

    def start(self) -> None:
        if self._thread is None and self._every_s > 0:
            self._thread = threading.Thread(target=self._run, name="index-watcher", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.wait(self._every_s):
            try:
                self.check()
            except Exception as exc:  # a server that is down now: chats report it; look again later
                if not self._failing:
                    logger.warning("cannot look for changes to the shared knowledge index: %s", exc)
                self._failing = True
            else:
                self._failing = False
