from __future__ import annotations

from pathlib import Path

import pytest

from assistant.settings import Settings


def test_contract_environment_names(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    env = {
        "ADVISOR_SLACK__BOT_TOKEN": "xoxb-1",
        "ADVISOR_SLACK__SIGNING_SECRET": "s3cret",
        "ADVISOR_SLACK__APP_TOKEN": "xapp-1",
        "ADVISOR_SLACK__API_BASE_URL": "http://127.0.0.1:9/api/",
        "ADVISOR_LLM__MODEL": "openai:gpt-4o-mini",
        "ADVISOR_LLM__BASE_URL": "http://127.0.0.1:8080/v1",
        "ADVISOR_EMBEDDING__MODEL": "sentence-transformers/all-MiniLM-L6-v2",
        "ADVISOR_API_KEYS": '["k1", "k2"]',
        "ADVISOR_DATA_DIR": str(tmp_path),
    }
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.slack.bot_token is not None
    assert settings.slack.bot_token.get_secret_value() == "xoxb-1"
    assert settings.slack.signing_secret is not None
    assert settings.slack.app_token is not None
    assert settings.slack.api_base_url == "http://127.0.0.1:9/api/"
    assert settings.llm.model == "openai:gpt-4o-mini"
    assert settings.llm.base_url == "http://127.0.0.1:8080/v1"
    assert settings.embedding.model == "sentence-transformers/all-MiniLM-L6-v2"
    assert settings.api_keys == ["k1", "k2"]
    assert settings.chroma_path == tmp_path / "chroma"


def test_defaults_need_no_account_and_no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in list(__import__("os").environ):
        if key.startswith("ADVISOR_"):
            monkeypatch.delenv(key)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.embedding.model == "use/multilingual-v3"
    assert settings.llm.model is None
    assert settings.vector_store.url is None
    assert (settings.server.host, settings.server.port) == ("127.0.0.1", 8000)
