"""The exception classes: one per reason of the Rust crate, each a subclass
of ``McpRootsError`` and of the built-in exception that existing ``except``
clauses expect (``PermissionError`` for the boundary reasons)."""

from __future__ import annotations

__all__ = [
    "McpRootsError",
    "InvalidUriError",
    "NotAbsoluteError",
    "OutsideRootsError",
    "OutsideCeilingError",
    "NotADirectoryRootsError",
    "NotARegularFileError",
    "NotFoundError",
    "AlreadyExistsError",
    "SymlinkLoopError",
    "RootGoneError",
    "ScopeLostError",
    "NoRootsError",
    "ReadOnlyError",
    "HiddenError",
    "InvalidPathError",
    "PermissionDeniedError",
    "RootsIOError",
    "PatternError",
    "ConfinementError",
    "error_class",
]


class McpRootsError(Exception):
    """A refusal or failure of an operation on the roots.

    ``reason`` is the stable machine-readable string (``"outside_roots"``,
    ...), ``input`` the input as given, ``operation`` what was being done,
    ``detail`` a short explanation or None, ``sentence`` the refusal as one
    sentence for a tool result, ``pattern`` the server's pattern that made
    the path ``hidden`` or ``read_only`` (None when no pattern decided it).
    """

    reason: str = "io"
    input: str
    operation: str
    detail: str | None
    sentence: str
    pattern: str | None

    def __init__(
        self,
        message: str,
        *,
        input: str = "",
        operation: str = "",
        detail: str | None = None,
        sentence: str = "",
        pattern: str | None = None,
    ) -> None:
        super().__init__(message)
        self.input = input
        self.operation = operation
        self.detail = detail
        self.sentence = sentence or message
        self.pattern = pattern
        if isinstance(self, OSError):
            # OSError's own attribute, for code that reads it.
            setattr(self, "filename", input)

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class InvalidUriError(McpRootsError, ValueError):
    reason = "invalid_uri"


class NotAbsoluteError(McpRootsError, ValueError):
    reason = "not_absolute"


class OutsideRootsError(McpRootsError, PermissionError):
    reason = "outside_roots"


class OutsideCeilingError(McpRootsError, PermissionError):
    reason = "outside_ceiling"


class NotADirectoryRootsError(McpRootsError, NotADirectoryError):
    reason = "not_a_directory"


class NotARegularFileError(McpRootsError, OSError):
    reason = "not_a_regular_file"


class NotFoundError(McpRootsError, FileNotFoundError):
    reason = "not_found"


class AlreadyExistsError(McpRootsError, FileExistsError):
    reason = "already_exists"


class SymlinkLoopError(McpRootsError, OSError):
    reason = "symlink_loop"


class RootGoneError(McpRootsError, PermissionError):
    reason = "root_gone"


class ScopeLostError(McpRootsError, PermissionError):
    reason = "scope_lost"


class NoRootsError(McpRootsError, PermissionError):
    reason = "no_roots"


class ReadOnlyError(McpRootsError, PermissionError):
    reason = "read_only"


class HiddenError(McpRootsError, PermissionError):
    """The path is in a part of a root the server's policy hides."""

    reason = "hidden"


class InvalidPathError(McpRootsError, ValueError):
    reason = "invalid_path"


class PermissionDeniedError(McpRootsError, PermissionError):
    reason = "permission_denied"


class RootsIOError(McpRootsError, OSError):
    reason = "io"


_BY_REASON: dict[str, type[McpRootsError]] = {
    cls.reason: cls
    for cls in (
        InvalidUriError,
        NotAbsoluteError,
        OutsideRootsError,
        OutsideCeilingError,
        NotADirectoryRootsError,
        NotARegularFileError,
        NotFoundError,
        AlreadyExistsError,
        SymlinkLoopError,
        RootGoneError,
        ScopeLostError,
        NoRootsError,
        ReadOnlyError,
        HiddenError,
        InvalidPathError,
        PermissionDeniedError,
        RootsIOError,
    )
}


class PatternError(ValueError):
    """A hide or read-only pattern that does not parse: ``pattern`` is the
    pattern as given, ``message`` why (the policy is not built)."""

    pattern: str
    message: str

    def __init__(self, text: str, pattern: str, message: str) -> None:
        super().__init__(text)
        self.pattern = pattern
        self.message = message


class ConfinementError(OSError):
    """``confine`` did not confine the process: ``kind`` is
    ``"no_ceiling"``, ``"unsupported"``, ``"threads"`` or ``"kernel"``."""

    kind: str

    def __init__(self, text: str, kind: str) -> None:
        super().__init__(text)
        self.kind = kind

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def error_class(reason: str) -> type[McpRootsError]:
    """The exception class of a reason (``RootsIOError`` for one this
    version does not know)."""
    return _BY_REASON.get(reason, RootsIOError)


def _from_core(
    reason: str, message: str, input: str, operation: str, detail: str | None, sentence: str, pattern: str | None
) -> McpRootsError:
    """Called by the extension module to build the exception of an error."""
    err = error_class(reason)(message, input=input, operation=operation, detail=detail, sentence=sentence, pattern=pattern)
    if err.reason != reason:
        err.reason = reason
    return err
