"""Keep every file operation of an MCP server inside the roots the user
consented to.

``Roots`` holds one session's roots under the server's policy and revokes
the files that leave them; ``RootSet`` is a fixed set. Both take ``file://``
URIs or absolute paths and refuse, with an exception whose ``.reason`` is
the Rust crate's stable string, everything that leads outside.
"""

from __future__ import annotations

from ._core import (
    REASONS,
    AskAbout,
    DirEntry,
    Grant,
    Rejected,
    Report,
    Revoked,
    RootInfo,
    Roots,
    RootSet,
    ScopedPath,
    ScopeEvent,
    Stat,
    Walk,
    WalkEntry,
    WatchGuard,
    confine,
)
from ._errors import (
    AlreadyExistsError,
    ConfinementError,
    HiddenError,
    InvalidPathError,
    InvalidUriError,
    McpRootsError,
    NoRootsError,
    NotAbsoluteError,
    NotADirectoryRootsError,
    NotARegularFileError,
    NotFoundError,
    OutsideCeilingError,
    OutsideRootsError,
    PatternError,
    PermissionDeniedError,
    ReadOnlyError,
    RootGoneError,
    RootsIOError,
    ScopeLostError,
    SymlinkLoopError,
    error_class,
)
from ._file import File

__all__ = [
    "REASONS",
    "AskAbout",
    "DirEntry",
    "File",
    "Grant",
    "Rejected",
    "Report",
    "Revoked",
    "RootInfo",
    "Roots",
    "RootSet",
    "ScopedPath",
    "ScopeEvent",
    "Stat",
    "Walk",
    "WalkEntry",
    "WatchGuard",
    "confine",
    "AlreadyExistsError",
    "ConfinementError",
    "HiddenError",
    "InvalidPathError",
    "InvalidUriError",
    "McpRootsError",
    "NoRootsError",
    "NotAbsoluteError",
    "NotADirectoryRootsError",
    "NotARegularFileError",
    "NotFoundError",
    "OutsideCeilingError",
    "OutsideRootsError",
    "PatternError",
    "PermissionDeniedError",
    "ReadOnlyError",
    "RootGoneError",
    "RootsIOError",
    "ScopeLostError",
    "SymlinkLoopError",
    "error_class",
]
