"""A replica's uploads folder as a copy of the shared uploads (assistant.library.mirror): what another replica
added arrives, what it deleted goes, and what was uploaded here before uploads were shared is kept and shared,
never deleted. The shared side is an in-memory UploadChange; PostgreSQL's is tested in
tests/integration/test_replicas.py."""

from __future__ import annotations

import hashlib
from pathlib import Path

from assistant.library import MIRRORED, _remember, mirror


class Shared:
    def __init__(self, files: dict[str, bytes] | None = None) -> None:
        self.files = dict(files or {})

    def listing(self) -> dict[str, str]:
        return {name: hashlib.sha256(data).hexdigest() for name, data in self.files.items()}

    def read(self, name: str) -> bytes:
        return self.files[name]

    def put(self, name: str, data: bytes, digest: str) -> None:
        assert digest == hashlib.sha256(data).hexdigest()
        self.files[name] = data

    def delete(self, name: str) -> None:
        del self.files[name]


def test_what_another_replica_added_arrives_and_what_it_changed_is_replaced(tmp_path: Path) -> None:
    folder = tmp_path / "uploads"
    shared = Shared({"a.md": b"# A\n\nnew", "b.md": b"# B"})
    mirror(folder, shared)
    (folder / "a.md").write_bytes(b"# A\n\nold")  # a stale copy
    mirror(folder, shared)
    assert (folder / "a.md").read_bytes() == b"# A\n\nnew"
    assert (folder / "b.md").read_bytes() == b"# B"
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) == ["a.md", "b.md"]


def test_what_another_replica_deleted_goes(tmp_path: Path) -> None:
    folder = tmp_path / "uploads"
    shared = Shared({"a.md": b"# A", "b.md": b"# B"})
    mirror(folder, shared)
    shared.delete("b.md")
    mirror(folder, shared)
    assert not (folder / "b.md").exists()
    assert (folder / "a.md").exists()


def test_an_upload_from_before_sharing_is_shared_not_deleted(tmp_path: Path) -> None:
    folder = tmp_path / "uploads"
    folder.mkdir()
    (folder / "old-runbook.md").write_bytes(b"# Runbook")  # uploaded while the service ran on SQLite
    shared = Shared()
    mirror(folder, shared)
    assert (folder / "old-runbook.md").exists()
    assert shared.files == {"old-runbook.md": b"# Runbook"}
    assert "old-runbook.md" in (folder / MIRRORED).read_text(encoding="utf-8")


def test_an_upload_made_here_and_deleted_elsewhere_does_not_come_back(tmp_path: Path) -> None:
    folder = tmp_path / "uploads"
    shared = Shared()
    mirror(folder, shared)
    (folder / "new.md").write_bytes(b"# New")  # DocumentLibrary.add: the file, the record, then remembered
    shared.put("new.md", b"# New", hashlib.sha256(b"# New").hexdigest())
    _remember(folder, "new.md")
    shared.delete("new.md")  # deleted through another replica
    mirror(folder, shared)
    assert not (folder / "new.md").exists()
    assert shared.files == {}
