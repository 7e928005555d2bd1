"""The `advisor` command as a user runs it: a real subprocess, the real model, Chroma on disk."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from api import user_tokens
from assistant.models import Answer
from tests.helpers import REPO, make_settings
from tests.reliability.bad_files import bomb_pdf, encrypted_pdf

pytestmark = pytest.mark.integration

ADVISOR = str(Path(sys.executable).parent / "advisor")


def run(data_dir: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [ADVISOR, *args],
        cwd=REPO,
        env={**os.environ, "ADVISOR_DATA_DIR": str(data_dir), **env},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh data folder whose first command is `advisor ask`: it builds the index itself (said in one
    line, the progress and summary on stderr) and answers; this module's other tests share the index."""
    folder = tmp_path_factory.mktemp("cli")
    first = run(folder, "ask", "How much memory does one H100 SXM have?", "--json")
    assert first.returncode == 0, first.stderr
    assert first.stderr.startswith("no index yet: building it from the knowledge base"), first.stderr
    assert "0 updated, 0 removed, 0 unchanged" in first.stderr
    answer = Answer.model_validate_json(first.stdout)  # stdout holds the answer and nothing else
    assert "80 GB" in answer.answer.split("\n")[0]
    return folder


def test_version_is_the_installed_packages(tmp_path: Path) -> None:
    from importlib.metadata import version

    result = run(tmp_path, "--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"advisor {version('advisor')}"


def test_second_ingest_re_embeds_nothing(data_dir: Path) -> None:
    second = run(data_dir, "ingest")
    assert second.returncode == 0, second.stderr
    assert " 0 added, 0 updated, 0 removed, " in second.stdout
    assert "embedding 0 passages" in second.stderr


def test_ask_cites_the_catalog_entries_of_both_gpus(data_dir: Path) -> None:
    result = run(data_dir, "ask", "MI300X和H100的显存带宽分别是多少？", "--json")
    assert result.returncode == 0, result.stderr
    answer = Answer.model_validate_json(result.stdout)
    assert answer.language == "zh"
    cited = {c.doc_id for c in answer.citations}
    assert {"catalog/accelerators/mi300x", "catalog/accelerators/h100-sxm"} <= cited
    mi300x = next(c for c in answer.citations if c.doc_id == "catalog/accelerators/mi300x")
    assert mi300x.url.startswith("https://")
    assert mi300x.as_of


def test_ask_prints_passages_with_citations(data_dir: Path) -> None:
    result = run(data_dir, "ask", "How much host RAM should an 8-GPU training server have?")
    assert result.returncode == 0, result.stderr
    assert "[1]" in result.stdout
    assert "conversation:" in result.stdout


def test_ingest_reports_a_bad_file_by_name_and_indexes_the_rest(data_dir: Path, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "good.md").write_text(
        "# Our cluster\n\nTwo nodes of 8x H800 with NDR InfiniBand.\n", encoding="utf-8"
    )
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4 truncated")
    (docs / "locked.pdf").write_bytes(encrypted_pdf())
    (docs / "bomb.pdf").write_bytes(bomb_pdf())
    result = run(data_dir, "ingest", str(docs))
    assert result.returncode == 1
    for name, reason in [("broken.pdf", "not a readable PDF"), ("locked.pdf", "encrypted"),
                         ("bomb.pdf", "expands beyond")]:  # fmt: skip
        assert any(name in line and reason in line for line in result.stderr.splitlines()), result.stderr
    assert "Traceback" not in result.stderr
    assert "1 added" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("ingest", "/no/such/folder"), "no such file or folder"),
        (("ask", "   "), "message is empty"),
        (("eval", "retrieval", "--set", "/no/such.yaml"), "no labelled question files"),
    ],
)
def test_bad_input_gets_one_line_and_a_non_zero_exit(
    data_dir: Path, args: tuple[str, ...], message: str
) -> None:
    result = run(data_dir, *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "command", [(), ("ingest",), ("ask",), ("serve",), ("eval",), ("eval", "retrieval"), ("user-token",)]
)
def test_every_command_has_help(tmp_path: Path, command: tuple[str, ...]) -> None:
    result = run(tmp_path, *command, "--help")
    assert result.returncode == 0
    assert "Usage:" in result.stdout


def test_a_run_killed_mid_way_leaves_a_usable_index_that_the_next_run_repairs(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(300):
        (docs / f"note-{i:03}.txt").write_text(
            f"Note {i}: rack {i % 12} uses {i % 7 + 1} kW.", encoding="utf-8"
        )
    data = tmp_path / "data"
    env = {**os.environ, "ADVISOR_DATA_DIR": str(data), "ADVISOR_EMBEDDING__BATCH_SIZE": "4"}
    total = 0
    with subprocess.Popen(
        [ADVISOR, "ingest", str(docs)],
        cwd=REPO,
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    ) as proc:
        assert proc.stderr is not None
        for line in proc.stderr:
            if line.startswith("embedding "):
                total = int(line.split()[1])
            if line.startswith("embedded ") and int(line.split()[1].split("/")[0]) >= 80:
                proc.send_signal(signal.SIGKILL)
                break
        proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL, "the run finished before it could be killed"

    # the index is usable as it stands: the retriever opens it and answers
    from assistant.wiring import build_retriever, open_index

    settings = make_settings(data)
    indexed = open_index(settings).count()
    assert 80 <= indexed < total
    assert build_retriever(settings).search("How many kW does rack 3 use?", k=3)

    # ... but it is marked as partial, and the next command completes it before answering from it
    from knowledge.indexing import index_state

    assert index_state(open_index(settings)) == "partial"
    repaired = run(data, "ask", "How many kW does rack 3 use?")  # the folder indexed before is remembered
    assert repaired.returncode == 0, repaired.stderr
    assert repaired.stderr.startswith("the index is incomplete (an earlier build stopped): completing it")
    added = int(repaired.stderr.split(" added")[0].rsplit(" ", 1)[1])
    assert added == total - indexed
    assert " 0 updated, 0 removed" in repaired.stderr
    assert index_state(open_index(settings)) == "complete"
    again = run(data, "ingest")
    assert " 0 added, 0 updated, 0 removed, " in again.stdout


def test_user_token_mints_what_the_api_accepts(tmp_path: Path) -> None:
    secret = "cli-test-secret-0123456789-abcdefghij"
    result = run(tmp_path, "user-token", "张伟", "--ttl", "600", ADVISOR_SERVER__USER_TOKEN_SECRET=secret)
    assert result.returncode == 0, result.stderr
    user = user_tokens.verify(result.stdout.strip(), secret, max_ttl_s=86400)
    assert user.id == "张伟"

    refused = run(tmp_path, "user-token", "alice")
    assert refused.returncode == 2
    assert "ADVISOR_SERVER__USER_TOKEN_SECRET" in refused.stderr
    too_long = run(
        tmp_path, "user-token", "alice", "--ttl", "999999", ADVISOR_SERVER__USER_TOKEN_SECRET=secret
    )
    assert too_long.returncode == 2
    assert "longer than the service accepts" in too_long.stderr
