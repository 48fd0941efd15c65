"""The file object of ``Roots.open``/``RootSet.open``: Python's own buffered
and text layers over the library's handle, each call first checking that the
handle was not revoked (so a revoked file fails on its next use even when
its buffer still holds data)."""

from __future__ import annotations

import io
from typing import Any, Iterator

from . import _core

_MODES = {
    # mode letter: (read, write, append, truncate, create)
    "r": (True, False, False, False, "no"),
    "w": (False, True, False, True, "or_open"),
    "x": (False, True, False, False, "new"),
    "a": (False, True, True, False, "or_open"),
}


def parse_mode(mode: str) -> tuple[tuple[bool, bool, bool, bool, str], bool]:
    """The open flags of a mode string (``"r"``, ``"wb"``, ``"x+"``, ...)
    and whether it is binary."""
    letters = set(mode)
    kinds = letters & set(_MODES)
    if len(kinds) != 1 or len(letters) != len(mode) or not letters <= set("rwxab+t") or {"b", "t"} <= letters:
        raise ValueError(f"invalid mode: {mode!r}")
    read, write, append, truncate, create = _MODES[kinds.pop()]
    if "+" in letters:
        read = write = True
    return (read, write, append, truncate, create), "b" in letters


class _Raw(io.RawIOBase):
    """``io.RawIOBase`` over the extension's ``RawFile``; no ``fileno``: a
    copy of the descriptor would escape revocation."""

    def __init__(self, raw: _core.RawFile, flags: tuple[bool, bool, bool, bool, str]) -> None:
        super().__init__()
        self._file = raw
        self._readable, self._writable = flags[0], flags[1]

    def readable(self) -> bool:
        return self._readable

    def writable(self) -> bool:
        return self._writable

    def seekable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        data = self._file.read(len(view))
        view[: len(data)] = data
        return len(data)

    def readall(self) -> bytes:
        return self._file.read(-1)

    def write(self, data: Any) -> int:
        return self._file.write(bytes(data))

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._file.seek(offset, whence)

    def tell(self) -> int:
        return self._file.tell()

    def close(self) -> None:
        if not self.closed:
            try:
                super().close()
            finally:
                self._file.close()


class File:
    """An open file beneath a root: ``read``, ``write``, ``seek``, ``tell``,
    iteration and the context manager, in text or binary mode."""

    def __init__(self, raw: _core.RawFile, flags: tuple[bool, bool, bool, bool, str], binary: bool, mode: str, encoding: str | None, errors: str | None, newline: str | None) -> None:
        self._raw = raw
        rawio = _Raw(raw, flags)
        read, write = flags[0], flags[1]
        if read and write:
            buffered: Any = io.BufferedRandom(rawio)
        elif write:
            buffered = io.BufferedWriter(rawio)
        else:
            buffered = io.BufferedReader(rawio)
        self._io: Any = buffered if binary else io.TextIOWrapper(buffered, encoding=encoding or "utf-8", errors=errors, newline=newline)
        self.mode = mode
        self.name = raw.name

    def _check(self) -> None:
        if not self._io.closed:
            self._raw.check()

    # Reading and writing.
    def read(self, size: int = -1) -> Any:
        self._check()
        return self._io.read(size)

    def readline(self, size: int = -1) -> Any:
        self._check()
        return self._io.readline(size)

    def readlines(self, hint: int = -1) -> list[Any]:
        self._check()
        return list(self._io.readlines(hint))

    def write(self, data: Any) -> int:
        self._check()
        return int(self._io.write(data))

    def writelines(self, lines: Any) -> None:
        self._check()
        self._io.writelines(lines)

    def seek(self, offset: int, whence: int = 0) -> int:
        self._check()
        return int(self._io.seek(offset, whence))

    def tell(self) -> int:
        self._check()
        return int(self._io.tell())

    def flush(self) -> None:
        self._check()
        self._io.flush()

    def readable(self) -> bool:
        return bool(self._io.readable())

    def writable(self) -> bool:
        return bool(self._io.writable())

    def seekable(self) -> bool:
        return True

    # Tracking.
    @property
    def revoked(self) -> str | None:
        """Why the handle was revoked (``"scope_lost"``, ``"read_only"``), or None."""
        return self._raw.revoked

    def stat(self) -> _core.Stat:
        """Metadata from the open descriptor."""
        self._check()
        return self._raw.stat()

    def path(self) -> _core.ScopedPath:
        """Where the file is now, relative to its root (live roots only)."""
        return self._raw.path()

    # Closing.
    @property
    def closed(self) -> bool:
        return bool(self._io.closed)

    def close(self) -> None:
        """Flushes and closes; unwritten data of a revoked file raises here."""
        try:
            self._io.close()
        finally:
            self._raw.close()

    def __enter__(self) -> "File":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def __repr__(self) -> str:
        return f"<mcp_roots.File name={self.name!r} mode={self.mode!r}>"


def open_file(scope: Any, path: Any, mode: str, encoding: str | None, errors: str | None, newline: str | None) -> File:
    flags, binary = parse_mode(mode)
    if binary and (encoding is not None or errors is not None or newline is not None):
        raise ValueError("binary mode takes no encoding, errors or newline")
    raw = scope._open(path, flags)
    return File(raw, flags, binary, mode, encoding, errors, newline)
