"""Files the index keeps beside itself (sentence vectors, keyword tokens), replaced whole or not at all."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def write_aside(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write ``path`` through ``write`` into a new file beside it, then rename that over ``path``: a crash
    mid-write leaves the previous file whole, and a failed write leaves nothing behind. ``OSError`` when the
    folder cannot be written to."""
    handle, name = tempfile.mkstemp(dir=path.parent, suffix=path.suffix)
    try:
        with os.fdopen(handle, "wb") as out:
            write(out)
        os.chmod(name, 0o644)
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
