"""Real PostgreSQL, Redis and Chroma servers for the scale-out tests, each on a free loopback port.

PostgreSQL and Redis come from Debian's packages (``.ci/run`` installs postgresql and redis-server),
the Chroma server from the chromadb package (``chroma run``). A missing server program fails the test
with what to install, never a skip: a skipped suite would pass CI without having run.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.helpers import free_port

STARTUP_S = 60.0


def wait_for_port(
    port: int, *, timeout: float = STARTUP_S, process: subprocess.Popen[bytes] | None = None
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited with {process.returncode} while starting")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listened on 127.0.0.1:{port} within {timeout:.0f} s")


def _program(pattern: str, package: str) -> str:
    """The newest installed program matching ``pattern``, else the one on PATH; a failure naming the package."""
    found = sorted(glob.glob(pattern))
    program = found[-1] if found else shutil.which(Path(pattern).name)
    if program is None:
        pytest.fail(f"{Path(pattern).name} is not installed: `apt-get install -y {package}` (see .ci/run)")
    return program


@dataclass
class Postgres:
    """A PostgreSQL cluster of the test's own: ``url`` to connect, ``stop``/``start`` to restart it."""

    bindir: Path
    datadir: Path
    port: int
    as_user: list[str]

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _pg_ctl(self, *args: str) -> None:
        subprocess.run(
            [*self.as_user, str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-w", "-t", "60", *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.datadir} -c fsync=off"
        self._pg_ctl("-o", options, "-l", str(self.datadir / "server.log"), "start")

    def stop(self, mode: str = "fast") -> None:
        self._pg_ctl("-m", mode, "stop")

    def new_database(self, name: str) -> str:
        """A fresh, empty database on this server; its URL."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}"')
            db.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"


@contextmanager
def postgres_server() -> Iterator[Postgres]:
    initdb = _program("/usr/lib/postgresql/*/bin/initdb", "postgresql")
    bindir = Path(initdb).parent
    root = os.geteuid() == 0
    # PostgreSQL refuses to run as root: the cluster belongs to the postgres user, in a folder it can reach
    datadir = Path(tempfile.mkdtemp(prefix="advisor-pg-", dir="/tmp"))
    as_user: list[str] = []
    if root:
        account = pwd.getpwnam("postgres")
        os.chown(datadir, account.pw_uid, account.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    subprocess.run(
        [*as_user, initdb, "-D", str(datadir), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    server = Postgres(bindir=bindir, datadir=datadir, port=free_port(), as_user=as_user)
    server.start()
    try:
        yield server
    finally:
        with suppress(subprocess.CalledProcessError):  # already stopped by the test
            server.stop("immediate")
        shutil.rmtree(datadir, ignore_errors=True)


@dataclass
class Redis:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


@contextmanager
def redis_server() -> Iterator[Redis]:
    program = _program("/usr/bin/redis-server", "redis-server")
    port = free_port()
    process = subprocess.Popen(
        [program, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, process=process)
        yield Redis(port=port, process=process)
    finally:
        process.terminate()
        process.wait(timeout=30)


@dataclass
class Chroma:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextmanager
def chroma_server(path: Path) -> Iterator[Chroma]:
    """``chroma run`` from this environment's chromadb, storing under ``path``."""
    program = Path(sys.executable).parent / "chroma"
    if not program.exists():
        pytest.fail(f"{program} is missing: the chromadb package installs it")
    port = free_port()
    log = (path.parent / f"chroma-{port}.log").open("wb")
    process = subprocess.Popen(
        [str(program), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "ANONYMIZED_TELEMETRY": "False"},
    )
    try:
        deadline = time.monotonic() + STARTUP_S
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"chroma run exited with {process.returncode}; see {log.name}")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"chroma run did not answer within {STARTUP_S:.0f} s; see {log.name}")
            time.sleep(0.2)
        yield Chroma(port=port, process=process)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


ADVISOR = str(Path(sys.executable).parent / "advisor")
READY_S = 180.0


@dataclass
class Advisor:
    """An `advisor serve` process of the test's own, with a data folder of its own (as each pod has)."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def chat(self, message: str, conversation_id: str | None = None, timeout: float = 60) -> httpx.Response:
        return httpx.post(
            f"{self.url}/v1/chat",
            json={"message": message, "conversation_id": conversation_id},
            timeout=timeout,
        )

    def wait_ready(self, timeout: float = READY_S) -> None:
        """Until ``/readyz`` answers 200; AssertionError with its log if it exits, TimeoutError if it is slow."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            try:
                if httpx.get(f"{self.url}/readyz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        raise TimeoutError(f"{self.url} was not ready in {timeout:.0f} s: {self.log.read_text()[-3000:]}")


def start_advisor(env: dict[str, str], work: Path, name: str) -> Advisor:
    """`advisor serve` on a free port with ``env`` and the data folder ``work/data-<name>``, its output in
    ``work/<name>.log``; not yet ready (``wait_ready``)."""
    port = free_port()
    log = work / f"{name}.log"
    with log.open("wb") as out:  # the child keeps its own descriptor
        process = subprocess.Popen(
            [ADVISOR, "serve", "--port", str(port)],
            env={**env, "ADVISOR_DATA_DIR": str(work / f"data-{name}")},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    return Advisor(url=f"http://127.0.0.1:{port}", process=process, log=log)
