"""The one composition root: settings in, ready objects out. Nothing else reads settings."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from chromadb.api.models.Collection import Collection
from langchain_core.embeddings import Embeddings

from assistant.composer import Composer
from assistant.composer.template import TemplateComposer
from assistant.errors import InvalidInput, NotReady, StorageError
from assistant.library import DocumentLibrary, SharedUploads, mirror
from assistant.memory import ConversationStore, SqliteStore
from assistant.providers import load_embeddings
from assistant.retriever import HybridRetriever, Retriever, cache_sentence_vectors
from assistant.router import Router
from assistant.service import Assistant
from assistant.settings import Settings
from assistant.slots import SlotExtractor
from assistant.toolbox import ToolBox
from assistant.watcher import IndexWatcher
from knowledge.catalog import Catalog, default_catalog, load_catalog
from knowledge.indexing import (
    KNOWLEDGE_DIR,
    IndexState,
    IndexStats,
    Root,
    extra_root,
    index_state,
    knowledge_root,
    sync,
    uploads_root,
)
from knowledge.names import NameIndex
from knowledge.store import collection_name, open_client, open_collection

if TYPE_CHECKING:  # a chat model's modules load only when one is configured (a third of a second at start)
    from langchain_core.language_models import BaseChatModel

    from assistant.agent import ToolCallingAgent


def knowledge_dir(settings: Settings) -> Path:
    return settings.knowledge_dir or KNOWLEDGE_DIR


def open_index(settings: Settings) -> Collection:
    """The passages collection for the configured embedding model (created empty if missing);
    ``StorageError`` naming the place when the store cannot be opened."""
    where = settings.vector_store.url or str(settings.chroma_path)
    try:
        client = open_client(path=settings.chroma_path, url=settings.vector_store.url)
        name = collection_name(settings.vector_store.collection_prefix, settings.embedding.model)
        return open_collection(client, name)
    except Exception as exc:  # an unwritable folder, a corrupt store, a server that is down
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise StorageError(f"cannot open the vector index at {where}: {reason}") from exc


def stored_index_state(settings: Settings) -> IndexState:
    """Whether the configured index is ``empty``, ``partial`` (a build stopped half-way) or ``complete``."""
    return index_state(open_index(settings))


def ingest(
    settings: Settings,
    paths: list[Path] | None = None,
    *,
    rebuild: bool = False,
    embeddings: Embeddings | None = None,
    on_start: Callable[[int], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    on_sentences: Callable[[int], None] | None = None,
    shared_uploads: bool = True,
) -> IndexStats:
    """Index the knowledge folder, the uploads folder and ``paths``; with ``rebuild`` start from an empty
    collection. With a database, the uploads folder is first made a copy of the uploads kept there
    (``shared_uploads=False``: the caller, the document library, already did under the same lock).

    Then embed the passages' sentences not embedded before (``on_sentences`` hears how many), which answers
    are picked from, so that a start after an ingest embeds nothing.
    """
    roots: list[Root] = [knowledge_root(knowledge_dir(settings)), uploads_root(uploads_dir(settings))]
    for path in paths or []:
        try:
            roots.append(extra_root(path))
        except (FileNotFoundError, ValueError) as exc:
            raise InvalidInput(str(exc)) from exc
    embeddings = embeddings or load_embeddings(settings.embedding.model, threads=settings.embedding.threads)
    if shared_uploads and settings.database.url is not None:
        # a job or another process: bring this uploads folder in line with the shared one, under its lock
        memory = open_memory(settings)
        try:
            with _uploads_of(memory).change() as change:
                mirror(uploads_dir(settings), change)
                return ingest(
                    settings, paths, rebuild=rebuild, embeddings=embeddings, on_start=on_start,
                    on_progress=on_progress, on_sentences=on_sentences, shared_uploads=False,
                )  # fmt: skip
        finally:
            memory.close()
    collection = open_index(settings)
    if rebuild:
        client = open_client(path=settings.chroma_path, url=settings.vector_store.url)
        client.delete_collection(collection.name)
        collection = open_index(settings)
    stats = sync(
        collection,
        embeddings,
        roots,
        batch_size=settings.embedding.batch_size,
        on_start=on_start,
        on_progress=on_progress,
    )
    cache_sentence_vectors(collection, embeddings, _local_index(settings), on_embed=on_sentences)
    return stats


def _local_index(settings: Settings) -> Path | None:
    """The local index's folder; None when the index is a Chroma server's."""
    return None if settings.vector_store.url else settings.chroma_path


def uploads_dir(settings: Settings) -> Path:
    """Where documents uploaded through the API are kept; the folder is indexed as one root."""
    return settings.data_dir / "uploads"


def build_library(
    settings: Settings,
    retriever: Retriever,
    *,
    refresh: Callable[[], object] | None = None,
    memory: ConversationStore | None = None,
) -> DocumentLibrary:
    """Document administration over the configured index; after each change ``refresh`` runs (by default
    ``retriever.refresh``; a replica watching a shared index passes its watcher's look). With PostgreSQL as
    ``memory``, uploads are kept there for every replica."""
    embeddings = getattr(retriever, "embeddings", None)
    return DocumentLibrary(
        folder=uploads_dir(settings),
        collection=lambda: open_index(settings),
        sync=lambda: ingest(settings, embeddings=embeddings, shared_uploads=False),
        refresh=refresh or retriever.refresh,
        max_bytes=settings.server.max_upload_bytes,
        shared=_uploads_of(memory) if memory is not None and settings.database.url is not None else None,
        frozen=_frozen_documents(settings),
    )


def limit_blas_threads(settings: Settings) -> None:
    """numpy's matrix products (sentence and heading scores) on as many threads as the model: a second
    BLAS thread spins between the small products of a turn, as much CPU again for no time saved. For a
    serving process, once, before its first turn."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(settings.embedding.threads, user_api="blas")


def _frozen_documents(settings: Settings) -> str | None:
    """Why the API may not change the documents, or None. Several worker processes over one local index:
    each holds its own copy of the vectors and keywords, and a change made through one would not reach
    the others (replicas sharing a Chroma server watch it instead, see ``watch_index``)."""
    if settings.server.workers == 1 or settings.vector_store.url:
        return None
    return (
        f"this service answers with {settings.server.workers} worker processes over a local index, and a "
        "change made through one would not reach the others: add or remove documents with `advisor ingest` "
        "and restart, or serve with one worker (ADVISOR_SERVER__WORKERS=1) or a Chroma server "
        "(ADVISOR_VECTOR_STORE__URL)"
    )


def _uploads_of(memory: ConversationStore) -> SharedUploads:
    uploads = getattr(memory, "uploads", None)
    if uploads is None:
        raise InvalidInput("a database URL is configured but the conversation store keeps no uploads")
    shared: SharedUploads = uploads()
    return shared


def watch_index(settings: Settings, retriever: Retriever) -> IndexWatcher | None:
    """With a Chroma server, a started watcher that keeps ``retriever`` current with changes other
    replicas make (see ``assistant.watcher``); None for a local index or ``vector_store.watch_s`` = 0."""
    if not settings.vector_store.url or settings.vector_store.watch_s <= 0:
        return None
    if not isinstance(retriever, HybridRetriever):
        return None
    watcher = IndexWatcher(lambda: open_index(settings), retriever, settings.vector_store.watch_s)
    watcher.start()
    return watcher


def build_retriever(
    settings: Settings, embeddings: Embeddings | None = None, *, names: NameIndex | None = None
) -> HybridRetriever:
    """The hybrid retriever over the existing index; ``NotReady`` when nothing is indexed yet."""
    collection = open_index(settings)
    if collection.count() == 0:
        raise NotReady("the knowledge base is not indexed yet: run `advisor ingest`")
    catalog = catalog_for(settings)
    return HybridRetriever(
        collection=collection,
        embeddings=embeddings
        or load_embeddings(settings.embedding.model, threads=settings.embedding.threads),
        catalog=catalog,
        names=names,
        candidates=settings.retrieval.candidates,
        rrf_k=settings.retrieval.rrf_k,
        max_per_doc=settings.retrieval.max_per_doc,
        location=_local_index(settings),
    )


def catalog_for(settings: Settings) -> Catalog:
    directory = knowledge_dir(settings) / "catalog"
    return default_catalog() if directory == KNOWLEDGE_DIR / "catalog" else load_catalog(directory)


def build_composer(settings: Settings, catalog: Catalog) -> Composer:
    """The offline template composer, or an LLM composer when ``llm.model`` is set; ``catalog`` gives the rate
    the calculators convert at (its defaults), so the answers show their dollars in yuan at the same rate."""
    template = template_composer(catalog)
    if not settings.llm.model:
        return template
    from assistant.composer.llm import LLMComposer

    return LLMComposer(model=chat_model(settings), fallback=template)


def template_composer(catalog: Catalog) -> TemplateComposer:
    """The offline composer, converting dollars to yuan at the catalog's rate."""
    return TemplateComposer(usd_to_cny=catalog.defaults.usd_to_cny)


def chat_model(settings: Settings) -> BaseChatModel:
    """The configured chat model (``llm.model`` must be set)."""
    from assistant.providers import load_chat_model

    llm = settings.llm
    assert llm.model is not None
    return load_chat_model(
        llm.model,
        base_url=llm.base_url,
        timeout=llm.timeout_s,
        api_key=llm.api_key.get_secret_value() if llm.api_key else None,
    )


def build_agent(settings: Settings, catalog: Catalog, retriever: Retriever) -> ToolCallingAgent | None:
    """The tool-calling agent when a chat model is configured and ``llm.tool_calling`` is not "never"."""
    if not settings.llm.model or settings.llm.tool_calling == "never":
        return None
    from assistant.agent import ToolCallingAgent

    return ToolCallingAgent(
        model=chat_model(settings), catalog=catalog, retriever=retriever, timeout_s=settings.llm.timeout_s
    )


def open_memory(settings: Settings) -> ConversationStore:
    """The conversation store: PostgreSQL when ``database.url`` is set, else the SQLite file;
    ``StorageError`` at once when it cannot be opened (a bad store fails before models load)."""
    database = settings.database
    if database.url is not None:
        from assistant.postgres import PostgresStore  # psycopg is imported only when configured

        return PostgresStore(
            database.url.get_secret_value(), pool_size=database.pool_size, timeout_s=database.timeout_s
        )
    return SqliteStore(settings.conversations_path)


def build_assistant(
    settings: Settings, embeddings: Embeddings | None = None, *, memory: ConversationStore | None = None
) -> Assistant:
    """Everything the assistant needs, built once."""
    memory = memory or open_memory(settings)  # first: a bad store fails before models load
    catalog = catalog_for(settings)
    names = NameIndex(catalog)  # one index for slot filling and the retriever's catalog ranking
    retriever = build_retriever(settings, embeddings, names=names)
    agent = build_agent(settings, catalog, retriever)
    return Assistant(
        router=Router(extractor=SlotExtractor(names)),
        tools=ToolBox(catalog=catalog),
        retriever=retriever,
        composer=build_composer(settings, catalog),
        memory=memory,
        top_k=settings.retrieval.top_k,
        agent=agent,
        agent_when=settings.llm.tool_calling,
        offline=template_composer(catalog) if agent else None,
    )
