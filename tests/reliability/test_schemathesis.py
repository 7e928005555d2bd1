"""Property-based tests of every operation in /openapi.json, over real HTTP, with a chat key and with an
admin key: no server error, no response that the document does not declare (status, content type,
schema, headers), and invalid input refused. Schemathesis generates the requests from the document."""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from langchain_core.embeddings import Embeddings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from api.app import create_app
from assistant.settings import Settings
from assistant.wiring import build_assistant, ingest
from tests.helpers import copy_knowledge, make_settings, serve

pytestmark = pytest.mark.integration

KEYS = {"chat": "schemathesis-chat-key", "admin": "schemathesis-admin-key"}
EXAMPLES_PER_OPERATION = 40
MIN_CASES = 1000
CASES: Counter[str] = Counter()


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory, use_embeddings: Embeddings) -> Iterator[str]:
    """The service on a loopback port, over a small index of its own (uploads change it)."""
    root = tmp_path_factory.mktemp("schemathesis")
    settings: Settings = make_settings(
        root / "data",
        knowledge_dir=copy_knowledge(root / "knowledge", articles=1),
        api_keys=[KEYS["chat"], f"{KEYS['admin']}:admin"],
    )
    settings = settings.model_copy(
        update={
            "server": settings.server.model_copy(
                update={"rate_limit_per_minute": 0, "max_upload_bytes": 65536}
            )
        }
    )
    ingest(settings, embeddings=use_embeddings)
    with serve(create_app(settings=settings, assistant=build_assistant(settings, use_embeddings))) as url:
        yield url


# the document the service publishes (it does not depend on the index or the models, so an app built
# for it alone serves it); the requests go to the running service in ``base_url``
schema = schemathesis.openapi.from_dict(
    create_app(settings=make_settings(Path(tempfile.gettempdir()), api_keys=["k"])).openapi()
)


_SETTINGS = settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    derandomize=True,  # the same cases on every run: a failure here is a regression, not luck
    database=None,
    suppress_health_check=list(HealthCheck),
)


def _call(case: Any, base_url: str, role: str) -> None:
    CASES[role] += 1
    # a valid request may still be refused for a reason the schema cannot express (an unknown
    # conversation id is a 404, a chat key on an admin route a 403): acceptance is not required
    case.call_and_validate(
        base_url=base_url,
        headers={"Authorization": f"Bearer {KEYS[role]}"},
        excluded_checks=[positive_data_acceptance],
        # a re-index may take longer than Schemathesis's 10 s default on a busy 2-core machine; what is
        # checked is the response, not its time (the load script measures that)
        timeout=60,
    )


@schema.parametrize()
@_SETTINGS
def test_every_operation_holds_its_contract_with_a_chat_key(case: Any, base_url: str) -> None:
    _call(case, base_url, "chat")


@schema.parametrize()
@_SETTINGS
def test_every_operation_holds_its_contract_with_an_admin_key(case: Any, base_url: str) -> None:
    _call(case, base_url, "admin")


def test_enough_cases_ran() -> None:
    """Runs after the generated tests (pytest keeps file order): they must have sent enough requests."""
    if not CASES:
        pytest.skip("run together with the generated tests")
    print(f"schemathesis cases by key role: {dict(CASES)}")
    assert sum(CASES.values()) >= MIN_CASES, dict(CASES)
    assert set(CASES) == set(KEYS)
