from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

import pytest

from knowledge.files import write_aside


def test_a_file_is_replaced_whole_or_not_at_all(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    write_aside(path, lambda out: out.write(b"first"))
    assert path.read_bytes() == b"first"

    def torn(out: BinaryIO) -> None:
        out.write(b"half of the sec")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_aside(path, torn)
    assert path.read_bytes() == b"first"  # the previous file, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tokens.json"]  # nothing left beside it
