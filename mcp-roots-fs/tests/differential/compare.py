"""mcp-roots-fs against the official filesystem server, call by call.

    python compare.py ORIGINAL_INDEX_JS MCP_ROOTS_FS

ORIGINAL_NODE names the node that runs the original (default `node`; 2.x
needs Node 24 or later, which run.sh provides); ORIGINAL_VERSION names it in
the output.

Lays one fixture tree twice (one copy per server), starts
`node ORIGINAL_INDEX_JS BASE/root` and `MCP_ROOTS_FS BASE/root` over stdio
with the official Python SDK's client (legacy mode: the original's SDK
speaks up to 2025-11-25; the client declares no roots, so both serve their
command-line directory), and sends both the same scripted calls. After each
call it compares the replies and the two trees, normalised only for the
temporary base path, timestamps and error wording; listings, searches and
trees are compared in order (the original's libuv `readdir` sorts names
by bytes, and so does mcp-roots-fs). Every call either matches or
shows exactly the difference listed for it (the README's table); anything
else fails. Then it checks mcp-roots-fs's own options and roots rules.

Prints one line per call and exits non-zero on any unexplained difference.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import stat
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any, Callable

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPDeprecationWarning

CALL_BOUND = 20.0
# The node that runs the original (run.sh: Node 24 from PyPI for 2.x).
NODE = os.environ.get("ORIGINAL_NODE", "node")
VERSION = os.environ.get("ORIGINAL_VERSION", "2026.8.31")
SECRET = "the secret outside"

# The original compared against: 2.x is 2.3.0's newer contract, which
# mcp-roots-fs follows; against 2026.8.31 the answers 2.3.0 changed are
# listed differences (`newer-*`).
VERSION = os.environ.get("ORIGINAL_VERSION", "2026.8.31")
NEWER = VERSION.split(".")[0] == "2"

failures = 0
counted = {"same": 0, "listed": 0, "resynced": 0}


def report(ok: bool, what: str, detail: str = "") -> None:
    global failures
    if not ok:
        failures += 1
    print(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}", flush=True)


# ---------------------------------------------------------------- fixture

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000") + b"\x00" * 16


def fixture(base: Path) -> None:
    files: dict[str, bytes | str] = {
        "root/a.txt": "alpha\nbeta\ngamma\n",
        "root/notes.md": "# Notes\n\nfirst\nsecond\nthird\n",
        "root/B.txt": "upper\n",
        "root/a_b.txt": "underscore\n",
        "root/code.py": "def f():\n    x = 1\n    y = 2\n    return x + y\n\n\nclass C:\n    def m(self):\n        pass\n",
        "root/crlf.txt": "one\r\ntwo\r\nthree\r\n",
        "root/nonl.txt": "no newline at end",
        "root/lines.txt": "".join(f"line {i}\n" for i in range(1, 2001)),
        "root/ticks.md": "```\ncode\n```\n",
        "root/sub/y.log": "log\n",
        "root/sub/deep/x.txt": "deep x\n",
        "root/sub/deep/z.md": "deep z\n",
        "root/.hidden/h.txt": "hidden\n",
        "root/node_modules/pkg/index.js": "module.exports = 1;\n",
        "root/img.png": PNG,
        "root/sound.mp3": b"ID3\x03\x00\x00\x00",
        "root/data.bin": bytes(range(256)),
        "root/doc.pdf": b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n",
        "root/bad-utf8.txt": b"ok \xff\xfe bytes\n",
        "outside/secret.txt": SECRET,
        "root_evil/x.txt": "prefix sibling\n",
    }
    for rel, content in files.items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content)
        else:
            path.write_bytes(content)
    (base / "root/empty_dir").mkdir()
    (base / "root/link_in").symlink_to("a.txt")
    (base / "root/link_dir").symlink_to("sub")
    (base / "root/link_out").symlink_to("../outside/secret.txt")
    (base / "root/dangling").symlink_to("nothere")
    (base / "root/loop").symlink_to(".")


def snapshot(base: Path) -> dict[str, Any]:
    """The tree under base: type, content, link target, permission bits."""
    out: dict[str, Any] = {}
    for dirpath, dirnames, filenames in os.walk(base):
        for name in sorted(dirnames + filenames):
            path = Path(dirpath) / name
            rel = str(path.relative_to(base))
            st = path.lstat()
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(path))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", oct(st.st_mode & 0o777))
            else:
                out[rel] = ("file", path.read_bytes(), oct(st.st_mode & 0o777))
    return out


# ---------------------------------------------------------- normalisation

DATE = re.compile(r"\w{3} \w{3} \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4} \([^)]*\)")


def normalise(tool: str, result: dict[str, Any], base: Path) -> dict[str, Any]:
    """The reply with the base path, dates and unfixed orders taken out."""
    text = json.dumps(result)
    text = text.replace(str(base), "<BASE>")
    # file:// URIs spell the base the same way.
    text = text.replace("file://" + str(base), "file://<BASE>")
    value = json.loads(text)
    if value.get("isError"):
        # Error wording is the library's, not the original's (listed); a
        # JSON-RPC error stays apart from a tool error.
        return {"isError": True, **({"protocol": True} if "protocol" in value else {})}
    value.pop("isError", None)
    for block in value.get("content", []):
        if block.get("type") == "text":
            block["text"] = fix_text(tool, block["text"])
    sc = value.get("structuredContent")
    if isinstance(sc, dict) and isinstance(sc.get("content"), str):
        sc["content"] = fix_text(tool, sc["content"])
    return value


def fix_text(tool: str, text: str) -> str:
    text = DATE.sub("<DATE>", text)
    if tool == "read_multiple_files":
        text = re.sub(r": Error - .*?(?=\n---\n|$)", ": Error - <ERROR>", text, flags=re.S)
    return text


# ------------------------------------------------------------------ calls

Call = tuple[str, str, Callable[[Path], dict[str, Any]], str]


def calls() -> list[Call]:
    """(label, tool, arguments for a base, expectation). Expectation `same`,
    or the name of a listed difference checked by DIFFERENCES."""
    r = lambda b, rel="": str(b / "root" / rel) if rel else str(b / "root")
    c: list[Call] = []

    def add(label: str, tool: str, args: Callable[[Path], dict[str, Any]], expect: str = "same") -> None:
        c.append((label, tool, args, expect))

    def newer(difference: str) -> str:
        """The same as 2.3.0; against 2026.8.31, the listed difference."""
        return "same" if NEWER else difference

    add("allowed dirs", "list_allowed_directories", lambda b: {})
    # read_text_file / read_file
    add("read whole", "read_text_file", lambda b: {"path": r(b, "a.txt")})
    add("read via deprecated alias", "read_file", lambda b: {"path": r(b, "notes.md")})
    add("read head 2", "read_text_file", lambda b: {"path": r(b, "lines.txt"), "head": 2})
    add("read tail 3", "read_text_file", lambda b: {"path": r(b, "lines.txt"), "tail": 3}, newer("newer-lines"))
    add("read tail 2 (trailing newline quirk)", "read_text_file", lambda b: {"path": r(b, "a.txt"), "tail": 2}, newer("newer-lines"))
    add("read head past end", "read_text_file", lambda b: {"path": r(b, "a.txt"), "head": 50})
    add("read head 0 (2.3.0: no lines)", "read_text_file", lambda b: {"path": r(b, "a.txt"), "head": 0}, newer("newer-lines"))
    add("read tail 0 (2.3.0: no lines)", "read_text_file", lambda b: {"path": r(b, "a.txt"), "tail": 0}, newer("newer-lines"))
    add("read head and tail", "read_text_file", lambda b: {"path": r(b, "a.txt"), "head": 1, "tail": 1})
    add("read crlf tail", "read_text_file", lambda b: {"path": r(b, "crlf.txt"), "tail": 2}, newer("newer-lines"))
    add("read crlf head", "read_text_file", lambda b: {"path": r(b, "crlf.txt"), "head": 2}, newer("newer-lines"))
    add("read no final newline", "read_text_file", lambda b: {"path": r(b, "nonl.txt")})
    add("read invalid utf-8", "read_text_file", lambda b: {"path": r(b, "bad-utf8.txt")})
    add("read relative path", "read_text_file", lambda b: {"path": "a.txt"})
    add("read relative subpath", "read_text_file", lambda b: {"path": "sub/y.log"})
    add("read through link inside", "read_text_file", lambda b: {"path": r(b, "link_in")})
    add("read through link outside", "read_text_file", lambda b: {"path": r(b, "link_out")})
    add("read dangling link", "read_text_file", lambda b: {"path": r(b, "dangling")})
    add("read outside", "read_text_file", lambda b: {"path": str(b / "outside/secret.txt")})
    add("read dot-dot escape", "read_text_file", lambda b: {"path": r(b, "../outside/secret.txt")})
    add("read prefix sibling", "read_text_file", lambda b: {"path": str(b / "root_evil/x.txt")})
    add("read relative escape", "read_text_file", lambda b: {"path": "../outside/secret.txt"})
    add("read home", "read_text_file", lambda b: {"path": "~/.bashrc"})
    add("read missing", "read_text_file", lambda b: {"path": r(b, "missing.txt")})
    add("read a directory", "read_text_file", lambda b: {"path": r(b, "sub")})
    add("read a file with a trailing slash", "read_text_file", lambda b: {"path": r(b, "a.txt") + "/"}, "trailing-slash")
    add("read a file:// URI", "read_text_file", lambda b: {"path": "file://" + r(b, "a.txt")}, "file-uri")
    # read_media_file
    add("media png", "read_media_file", lambda b: {"path": r(b, "img.png")})
    add("media mp3", "read_media_file", lambda b: {"path": r(b, "sound.mp3")})
    add("media unknown binary", "read_media_file", lambda b: {"path": r(b, "data.bin")})
    add("media pdf", "read_media_file", lambda b: {"path": r(b, "doc.pdf")}, "mime-table")
    add("media outside", "read_media_file", lambda b: {"path": r(b, "link_out")})
    # read_multiple_files
    add("multiple", "read_multiple_files", lambda b: {"paths": [r(b, "a.txt"), r(b, "B.txt")]})
    add("multiple with failures inline", "read_multiple_files",
        lambda b: {"paths": [r(b, "a.txt"), r(b, "missing.txt"), r(b, "link_out"), r(b, "nonl.txt")]})
    add("multiple empty list", "read_multiple_files", lambda b: {"paths": []})
    # get_file_info
    add("info file", "get_file_info", lambda b: {"path": r(b, "a.txt")}, newer("newer-hard-links"))
    add("info dir", "get_file_info", lambda b: {"path": r(b, "sub")}, newer("newer-hard-links"))
    add("info link inside", "get_file_info", lambda b: {"path": r(b, "link_in")}, newer("newer-hard-links"))
    add("info outside", "get_file_info", lambda b: {"path": r(b, "link_out")})
    # listings
    add("list root", "list_directory", lambda b: {"path": r(b)})
    add("list sub", "list_directory", lambda b: {"path": r(b, "sub")})
    add("list empty", "list_directory", lambda b: {"path": r(b, "empty_dir")})
    add("list a file", "list_directory", lambda b: {"path": r(b, "a.txt")})
    add("list outside", "list_directory", lambda b: {"path": str(b / "outside")})
    add("list via link dir", "list_directory", lambda b: {"path": r(b, "link_dir")})
    add("sizes sub by name", "list_directory_with_sizes", lambda b: {"path": r(b, "sub")})
    add("sizes sub by size", "list_directory_with_sizes", lambda b: {"path": r(b, "sub/deep"), "sortBy": "size"})
    add("sizes root (a link outside)", "list_directory_with_sizes", lambda b: {"path": r(b)}, newer("outside-link-size"))
    add("sizes root by size", "list_directory_with_sizes", lambda b: {"path": r(b), "sortBy": "size"}, newer("outside-link-size"))
    add("tree sub", "directory_tree", lambda b: {"path": r(b, "sub")})
    add("tree root", "directory_tree", lambda b: {"path": r(b)})
    add("tree excluding names", "directory_tree", lambda b: {"path": r(b), "excludePatterns": ["node_modules", "deep"]})
    add("tree excluding a glob", "directory_tree", lambda b: {"path": r(b), "excludePatterns": ["*.txt", "**/*.md"]})
    add("tree excluding a directory with /**", "directory_tree", lambda b: {"path": r(b), "excludePatterns": ["**/deep/**"]}, newer("newer-exclude"))
    add("tree of a file", "directory_tree", lambda b: {"path": r(b, "a.txt")})
    add("tree depth 1 (2.3.0)", "directory_tree", lambda b: {"path": r(b), "depth": 1}, newer("newer-depth"))
    add("tree depth 2 (2.3.0)", "directory_tree", lambda b: {"path": r(b), "depth": 2}, newer("newer-depth"))
    # search_files
    add("search *.txt (top level)", "search_files", lambda b: {"path": r(b), "pattern": "*.txt"})
    add("search **/*.md", "search_files", lambda b: {"path": r(b), "pattern": "**/*.md"})
    add("search braces", "search_files", lambda b: {"path": r(b), "pattern": "**/*.{log,js}"})
    add("search dot dirs", "search_files", lambda b: {"path": r(b), "pattern": "**/h.txt"})
    add("search links", "search_files", lambda b: {"path": r(b), "pattern": "link_*"})
    add("search with excludes", "search_files", lambda b: {"path": r(b), "pattern": "**/*.txt", "excludePatterns": ["sub", ".hidden"]})
    add("search excluding a name at any depth", "search_files", lambda b: {"path": r(b), "pattern": "**", "excludePatterns": ["deep"]}, newer("newer-exclude"))
    add("search excluding a directory with /**", "search_files", lambda b: {"path": r(b), "pattern": "**", "excludePatterns": ["**/deep/**"]}, newer("newer-exclude"))
    add("search sub-relative", "search_files", lambda b: {"path": r(b, "sub"), "pattern": "deep/*"})
    add("search class", "search_files", lambda b: {"path": r(b), "pattern": "[ab]*.txt"})
    add("search negation", "search_files", lambda b: {"path": r(b, "sub"), "pattern": "!**/*.md"})
    add("search no match", "search_files", lambda b: {"path": r(b), "pattern": "*.nothing"})
    add("search extglob", "search_files", lambda b: {"path": r(b), "pattern": "*.+(md|py)"}, "extglob")
    add("search outside", "search_files", lambda b: {"path": str(b / "outside"), "pattern": "*"})
    # writes
    add("write new", "write_file", lambda b: {"path": r(b, "new.txt"), "content": "fresh\n"})
    add("write overwrite", "write_file", lambda b: {"path": r(b, "B.txt"), "content": "replaced\n"})
    add("write relative", "write_file", lambda b: {"path": "rel.txt", "content": "relative\n"})
    add("write through link inside", "write_file", lambda b: {"path": r(b, "link_in"), "content": "via link\n"})
    add("write through link outside", "write_file", lambda b: {"path": r(b, "link_out"), "content": "pwned"})
    add("write dangling link", "write_file", lambda b: {"path": r(b, "dangling"), "content": "pwned"})
    add("write missing parent", "write_file", lambda b: {"path": r(b, "nodir/x.txt"), "content": "x"})
    add("write outside", "write_file", lambda b: {"path": str(b / "outside/new.txt"), "content": "x"})
    add("write unicode", "write_file", lambda b: {"path": r(b, "uni.txt"), "content": "héllo wörld ✓\n"})
    # edit_file
    add("edit exact", "edit_file", lambda b: {"path": r(b, "notes.md"), "edits": [{"oldText": "second", "newText": "SECOND"}]})
    add("edit dry run", "edit_file", lambda b: {"path": r(b, "notes.md"), "edits": [{"oldText": "third", "newText": "3rd"}], "dryRun": True})
    add("edit several", "edit_file", lambda b: {"path": r(b, "notes.md"), "edits": [{"oldText": "first", "newText": "1st"}, {"oldText": "# Notes", "newText": "# Notes\nadded line"}]})
    add("edit whitespace tolerant", "edit_file", lambda b: {"path": r(b, "code.py"), "edits": [{"oldText": "x = 1\ny = 2", "newText": "x = 10\n    y = 20\nz = 3"}]}, newer("newer-edit"))
    add("edit indented method", "edit_file", lambda b: {"path": r(b, "code.py"), "edits": [{"oldText": "  def m(self):\n      pass", "newText": "def m(self):\n    return 1"}]}, newer("newer-edit"))
    add("edit no match", "edit_file", lambda b: {"path": r(b, "a.txt"), "edits": [{"oldText": "zzz", "newText": "y"}]})
    add("edit crlf file", "edit_file", lambda b: {"path": r(b, "crlf.txt"), "edits": [{"oldText": "two", "newText": "2"}]}, newer("newer-edit"))
    add("edit a line ended by oldText's newline", "edit_file", lambda b: {"path": r(b, "notes.md"), "edits": [{"oldText": "  third\n", "newText": "THIRD"}], "dryRun": True}, newer("newer-edit"))
    add("edit last line without newline", "edit_file", lambda b: {"path": r(b, "nonl.txt"), "edits": [{"oldText": "end", "newText": "the end"}]})
    add("edit with backticks", "edit_file", lambda b: {"path": r(b, "ticks.md"), "edits": [{"oldText": "code", "newText": "more code"}]})
    add("edit far apart (two hunks)", "edit_file", lambda b: {"path": r(b, "lines.txt"), "edits": [{"oldText": "line 5\n", "newText": "LINE 5\n"}, {"oldText": "line 1500\n", "newText": ""}]})
    add("edit outside", "edit_file", lambda b: {"path": r(b, "link_out"), "edits": [{"oldText": "secret", "newText": "x"}]})
    # edit_file's diff, line for line jsdiff's: files written here, each
    # edit shown (dryRun) then applied.
    long = "".join(f"line {i}\n" for i in range(1, 61))
    diff_cases: list[tuple[str, str, str, list[tuple[str, str]]]] = [
        ("equal lines, the first replaced", "e_dup.txt", "x = 1\nx = 1\n", [("x = 1", "x = 2")]),
        ("a repeated pair", "e_pair.txt", "a\nb\na\nb\n", [("a\nb\na", "b\na\nb")]),
        ("empty file to content", "e_empty.txt", "", [("", "a\nb\n")]),
        ("delete all", "e_all.txt", "a\nb\n", [("a\nb\n", "")]),
        ("content to one line without newline", "e_one.txt", "a\nb\n", [("a\nb\n", "c")]),
        ("a trailing newline added", "e_nonl.txt", "a\nb", [("b", "b\n")]),
        ("the last line without newline changed", "e_nonl2.txt", "a\nb\nc", [("c", "C")]),
        ("crlf, a stray cr kept", "e_crlf.txt", "one\r\ntwo\r\n\r\r\nthree", [("two", "2")]),
        ("insert at the start", "e_start.txt", long, [("line 1\n", "line 0\nline 1\n")]),
        ("append at the end", "e_end.txt", long, [("line 60\n", "line 60\nline 61\n")]),
        ("close edits share a hunk", "e_near.txt", long, [("line 10\n", "X\n"), ("line 19\n", "Y\n")]),
        ("edits 9 apart give two hunks", "e_apart.txt", long, [("line 10\n", "X\n"), ("line 20\n", "Y\n")]),
        ("three hunks", "e_three.txt", long, [("line 3\n", ""), ("line 30\n", "A\nB\n"), ("line 58\n", "C\n")]),
        ("a line moved", "e_move.txt", "1\n2\n3\n4\n5\n", [("1\n", ""), ("5\n", "5\n1\n")]),
        ("a byte order mark is whitespace to the match", "e_bom.txt", "\ufeffab\ncd\n", [("ab\n  cd", "x\n  y")]),
        ("U+0085 is not whitespace to the match", "e_nel.txt", "\u0085ab\ncd\n", [("ab\n  cd", "x\n  y")]),
        ("braces, whitespace-tolerant", "e_braces.txt", "fn a() {\n    1\n}\n\nfn b() {\n    2\n}\n", [("}\n\nfn b() {", "}\n\nfn c() {\n    3\n}\n\nfn b() {")]),
    ]
    # The cases whose answer 2.3.0 changed (the file's line end kept; a byte
    # order mark no longer copied onto the next line).
    changed = {"crlf, a stray cr kept", "a byte order mark is whitespace to the match"}
    for label, name, content, edits in diff_cases:
        add(f"write {name}", "write_file", lambda b, n=name, t=content: {"path": r(b, n), "content": t})
        for dry in (True, False):
            add(f"edit {'dry run' if dry else 'applied'}: {label}", "edit_file",
                lambda b, n=name, e=edits, d=dry: {"path": r(b, n), "edits": [{"oldText": o, "newText": w} for o, w in e], "dryRun": d},
                newer("newer-edit") if label in changed else "same")
    # The patch names the file by its resolved path.
    add("edit through link inside (patch names the target)", "edit_file", lambda b: {"path": r(b, "link_in"), "edits": [{"oldText": "link", "newText": "the link"}], "dryRun": True})
    add("edit relative path (patch names the absolute path)", "edit_file", lambda b: {"path": "e_dup.txt", "edits": [{"oldText": "x = 2", "newText": "x = 3"}]})
    # directories and moves
    add("mkdir nested", "create_directory", lambda b: {"path": r(b, "made/a/b")})
    add("mkdir existing", "create_directory", lambda b: {"path": r(b, "sub")})
    add("mkdir outside", "create_directory", lambda b: {"path": str(b / "outside/made")})
    add("mkdir over a file", "create_directory", lambda b: {"path": r(b, "a.txt")})
    add("mkdir through a link to a directory inside", "create_directory", lambda b: {"path": r(b, "link_dir/made/x")})
    add("mkdir through a link outside", "create_directory", lambda b: {"path": r(b, "link_out/made")})
    add("mkdir through a file", "create_directory", lambda b: {"path": r(b, "a.txt/sub")})
    add("move rename", "move_file", lambda b: {"source": r(b, "new.txt"), "destination": r(b, "renamed.txt")})
    add("move into dir", "move_file", lambda b: {"source": r(b, "renamed.txt"), "destination": r(b, "made/renamed.txt")})
    add("move a directory", "move_file", lambda b: {"source": r(b, "made/a"), "destination": r(b, "moved_a")})
    add("move onto existing", "move_file", lambda b: {"source": r(b, "a.txt"), "destination": r(b, "B.txt")})
    add("move out", "move_file", lambda b: {"source": r(b, "a_b.txt"), "destination": str(b / "outside/a_b.txt")})
    add("move in from outside", "move_file", lambda b: {"source": str(b / "outside/secret.txt"), "destination": r(b, "stolen.txt")})
    add("move missing", "move_file", lambda b: {"source": r(b, "missing"), "destination": r(b, "x")})
    add("tree after changes", "directory_tree", lambda b: {"path": r(b)})
    add("list after changes", "list_directory", lambda b: {"path": r(b)})
    add("unknown tool", "no_such_tool", lambda b: {}, newer("unknown-tool"))
    # Last: the trees differ after it.
    add("move a link inside", "move_file", lambda b: {"source": r(b, "link_in"), "destination": r(b, "link_moved")}, "move-link")
    return c


def check_listed(name: str, orig: dict[str, Any], ours: dict[str, Any]) -> tuple[bool, str]:
    """Whether the two replies differ exactly as the listed difference says."""
    if orig.get("isError") != ours.get("isError") and name not in ("unknown-tool", "trailing-slash", "file-uri"):
        return False, f"{orig} vs {ours}"
    if name == "newer-lines":
        # 2026.8.31's head/tail (0 is the whole file, CRLF and a final
        # newline kept) against 2.3.0's, which ours follows.
        return orig != ours and ours.get("isError") is None, f"{text(orig)!r} vs {text(ours)!r}"
    if name == "newer-hard-links":
        # 2.3.0 adds a last line with the link count.
        ok = re.fullmatch(re.escape(text(orig)) + r"\nhardLinks: \d+", text(ours)) is not None
        return ok, text(ours).rsplit("\n", 1)[-1]
    if name == "newer-edit":
        # 2.3.0's matching, re-indentation and line end (the trees differ
        # after an applied edit: checked beside).
        return orig.get("isError") == ours.get("isError"), "2.3.0's edit"
    if name == "newer-exclude":
        # 2026.8.31's search matches each pattern as written, its tree has
        # no `/**` rule for the directory itself; 2.3.0 excludes more.
        o, w = text(orig), text(ours)
        return orig != ours and len(w) < len(o), f"{len(o)} vs {len(w)} characters"
    if name == "newer-depth":
        # 2026.8.31 ignores `depth` and gives the whole tree; 2.3.0 (and
        # ours) the levels asked for, the last level's directories unread.
        o, w = text(orig), text(ours)
        return orig != ours and len(w) < len(o), f"{len(o)} vs {len(w)} characters"
    if name == "mime-table":
        # Ours names the type from a MIME table; the original says octet-stream.
        o = orig["content"][0]["resource"]
        w = ours["content"][0]["resource"]
        ok = o["mimeType"] == "application/octet-stream" and w["mimeType"] == "application/pdf" and o["blob"] == w["blob"] and o["uri"] == w["uri"]
        return ok, f"{o['mimeType']} vs {w['mimeType']}"
    if name == "outside-link-size":
        # The original stats the target outside; ours reports 0 for it.
        o = orig["content"][0]["text"]
        w = ours["content"][0]["text"]
        ol = [l for l in o.split("\n") if "link_out" in l]
        wl = [l for l in w.split("\n") if "link_out" in l]
        unsized = ("link_out", "dangling")
        same_rest = [l for l in o.split("\n")[:-3] if not any(n in l for n in unsized)]
        rest_w = [l for l in w.split("\n")[:-3] if not any(n in l for n in unsized)]
        # 2026.8.31 stats the target outside; ours (as 2.3.0) lists it as
        # `unknown`, sorted last by size and left out of the total.
        ok = bool(wl) and wl[0].endswith(" unknown") and bool(ol) and not ol[0].endswith(" unknown") and sorted(same_rest) == sorted(rest_w)
        return ok, f"{ol[0].split()[-2:] if ol else None} vs {wl[0].split()[-2:] if wl else None}"
    if name == "trailing-slash":
        # The original drops the '/' and reads the file; ours demands a directory.
        return orig.get("isError") is None and ours == {"isError": True}, "read vs not_a_directory"
    if name == "file-uri":
        # The original takes the URI as a relative path; ours reads the file.
        return orig == {"isError": True} and ours.get("isError") is None and "alpha" in text(ours), "refused vs read"
    if name == "move-link":
        return orig == ours, "the same reply; the trees differ (checked beside)"
    if name == "unknown-tool":
        # The original's SDK answers a tool result; rmcp a JSON-RPC error.
        ok = orig == {"isError": True} and ours == {"isError": True, "protocol": True}
        return ok, "tool error vs JSON-RPC error -32602"
    if name == "extglob":
        # globset has no extglob: ours matches nothing.
        w = ours["content"][0]["text"]
        o = orig["content"][0]["text"]
        return w == "No matches found" and o != w, "minimatch matched, globset did not"
    return False, f"no check for {name}"


# mcp-roots-fs lists 2.3.0's tools/list (tests/schemas.rs compares it with
# the captured one field by field); what it leaves out of 2.3.0's on
# purpose: nothing (its output schemas' additionalProperties are not
# compared here).
ADDED_IN_2_3_0 = {"append_file", "copy_file"}
# Arguments 2.3.0 added to a tool 2026.8.31 has.
ARGS_ADDED_IN_2_3_0 = {"directory_tree": {"depth"}}


def tool_list_same(orig: list[types.Tool], ours: list[types.Tool]) -> None:
    o = {t.name: t for t in orig}
    w = {t.name: t for t in ours}
    ann = lambda t: (t.annotations.read_only_hint, t.annotations.idempotent_hint, t.annotations.destructive_hint, t.annotations.open_world_hint) if t.annotations else None
    props = lambda t: sorted((t.input_schema or {}).get("properties", {}))
    req = lambda t: sorted((t.input_schema or {}).get("required", []))
    if VERSION.startswith("2026."):
        # Listed: ours serves 2.3.0's contract, so against 2026.8.31 its two
        # added tools are extra and its titles, descriptions and annotations
        # are 2.3.0's; the arguments of the tools both have are the same.
        extra = sorted(set(w) - set(o))
        report(sorted(o) == sorted(set(w) - ADDED_IN_2_3_0) and extra == sorted(ADDED_IN_2_3_0),
               f"tools/list names ({len(w)}): 2026.8.31's and 2.3.0's append_file, copy_file [listed]", f"{sorted(o)} vs {sorted(w)}")
        for name in sorted(set(o) & set(w)):
            a, b = o[name], w[name]
            b_props = [p for p in props(b) if p not in ARGS_ADDED_IN_2_3_0.get(name, set())]
            ok = props(a) == b_props and req(a) == req(b)
            report(ok, f"tools/list {name}: arguments (titles, descriptions, annotations are 2.3.0's) [listed]",
                   "" if ok else f"props {props(a)} vs {b_props}, required {req(a)} vs {req(b)}")
        return
    order = [t.name for t in orig] == [t.name for t in ours]
    report(order, f"tools/list names in order ({len(w)})", "" if order else f"{[t.name for t in orig]} vs {[t.name for t in ours]}")
    for name in sorted(set(o) & set(w)):
        a, b = o[name], w[name]
        a_desc, a_props = a.description, props(a)
        ok = a_desc == b.description and ann(a) == ann(b) and a_props == props(b) and req(a) == req(b) and a.title == b.title
        detail = "" if ok else f"desc {a_desc == b.description}, ann {ann(a)} vs {ann(b)}, props {a_props} vs {props(b)}, required {req(a)} vs {req(b)}, title {a.title!r} vs {b.title!r}"
        report(ok, f"tools/list {name}: description, title, annotations, arguments", detail)


async def call(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    try:
        with anyio.fail_after(CALL_BOUND):
            result = await client.call_tool(tool, args)
    except Exception as err:  # a protocol error: compared as an error
        return {"isError": True, "protocol": f"{type(err).__name__}"}
    return result.model_dump(by_alias=True, exclude_none=True, mode="json")


async def differential(original: str, ours: str) -> None:
    with tempfile.TemporaryDirectory() as d1, tempfile.TemporaryDirectory() as d2:
        b1, b2 = Path(d1).resolve(), Path(d2).resolve()
        fixture(b1)
        fixture(b2)
        p1 = StdioServerParameters(command=NODE, args=[original, str(b1 / "root")])
        p2 = quiet(ours, [str(b2 / "root")])
        async with Client(p1, mode="legacy") as c1, Client(p2, mode="legacy") as c2:
            tool_list_same((await c1.list_tools()).tools, (await c2.list_tools()).tools)
            script = calls()
            for label, tool, args, expect in script:
                r1 = normalise(tool, await call(c1, tool, args(b1)), b1)
                r2 = normalise(tool, await call(c2, tool, args(b2)), b2)
                t1, t2 = snapshot(b1), snapshot(b2)
                trees = t1 == t2
                tree_detail = "" if trees else f"trees differ: {sorted(set(t1.items()) ^ set(t2.items()), key=str)[:4]}"
                if expect == "same":
                    ok = r1 == r2 and trees
                    if ok:
                        counted["same"] += 1
                    detail = tree_detail or ("" if r1 == r2 else f"\n  original: {json.dumps(r1)[:600]}\n  ours:     {json.dumps(r2)[:600]}")
                    report(ok, f"same   {tool:<26} {label}", detail)
                else:
                    ok, detail = check_listed(expect, r1, r2)
                    if expect == "move-link":
                        # The original resolves the link and moves its target;
                        # ours moves the link itself (rename's own meaning).
                        trees = (
                            t1.get("root/link_moved", ("",))[0] == "file" and "root/a.txt" not in t1 and t1.get("root/link_in") == ("link", "a.txt")
                            and t2.get("root/link_moved") == ("link", "a.txt") and "root/link_in" not in t2 and "root/a.txt" in t2
                        )
                        tree_detail = "" if trees else f"original {t1.get('root/link_moved')}, ours {t2.get('root/link_moved')}"
                    # An edit 2.3.0 writes differently leaves the trees
                    # different by design (re-laid below).
                    ok = ok and (trees or expect == "newer-edit")
                    if ok:
                        counted["listed"] += 1
                    report(ok, f"listed {tool:<26} {label} [{expect}]", detail or tree_detail)
                if not trees and expect != "move-link":
                    resync(b1, b2, t1, t2)
                    counted["resynced"] += 1
            report(len(script) >= 60, f"{len(script)} scripted calls")


def resync(b1: Path, b2: Path, t1: dict[str, Any], t2: dict[str, Any]) -> None:
    """Makes ours's tree what the original's is, after a call that left them
    different (its row fails), so that each later call is judged on its own
    instead of on the difference it inherited. Entries are rewritten in
    place: the roots' directories themselves stay (ours holds them open)."""
    for rel in sorted(set(t2) - set(t1), key=len, reverse=True):
        path = b2 / rel
        if path.is_symlink() or not path.is_dir():
            path.unlink()
        else:
            shutil.rmtree(path)
    for rel in sorted(t1, key=len):
        if t1[rel] == t2.get(rel):
            continue
        path = b2 / rel
        if path.is_symlink() or path.is_file():
            path.unlink()
        kind = t1[rel][0]
        if kind == "dir":
            path.mkdir(exist_ok=True)
            path.chmod(int(t1[rel][1], 8))
        elif kind == "link":
            path.symlink_to(t1[rel][1])
        else:
            path.write_bytes(t1[rel][1])
            path.chmod(int(t1[rel][2], 8))


def quiet(command: str, args: list[str]) -> StdioServerParameters:
    """Our server with its log at warnings only (the comparison's output stays readable)."""
    return StdioServerParameters(command=command, args=args, env={**os.environ, "RUST_LOG": os.environ.get("RUST_LOG", "warn")})


def text(result: dict[str, Any]) -> str:
    return "\n".join(b.get("text", "") for b in result.get("content", []) if b.get("type") == "text")


async def options(ours: str) -> None:
    """mcp-roots-fs's own options and roots rules (the original has none)."""
    with tempfile.TemporaryDirectory() as d:
        b = Path(d).resolve()
        fixture(b)
        (b / "ro").mkdir()
        (b / "ro/kept.txt").write_text("kept\n")
        # --read-only
        async with Client(quiet(ours, ["--read-only", str(b / "root")]), mode="legacy") as c:
            w = await call(c, "write_file", {"path": str(b / "root/x.txt"), "content": "x"})
            r = await call(c, "read_text_file", {"path": str(b / "root/a.txt")})
            m = await call(c, "move_file", {"source": str(b / "root/a.txt"), "destination": str(b / "root/z.txt")})
            report(w.get("isError") is True and m.get("isError") is True and not r.get("isError") and not (b / "root/x.txt").exists() and (b / "root/a.txt").exists(),
                   "option --read-only refuses changes, reads")
        # --read-only-dir beside a writable directory
        async with Client(quiet(ours, [str(b / "root"), "--read-only-dir", str(b / "ro")]), mode="legacy") as c:
            w1 = await call(c, "write_file", {"path": str(b / "ro/kept.txt"), "content": "changed"})
            w2 = await call(c, "write_file", {"path": str(b / "root/w.txt"), "content": "w"})
            rd = await call(c, "read_text_file", {"path": str(b / "ro/kept.txt")})
            allowed = text(await call(c, "list_allowed_directories", {}))
            report(w1.get("isError") is True and not w2.get("isError") and text(rd) == "kept\n" and "(read-only)" in allowed,
                   "option --read-only-dir: read-only there, writable elsewhere, listed as read-only", allowed.replace("\n", " | "))
        # --max-entries: a walk that stops says so
        async with Client(quiet(ours, ["--max-entries", "5", str(b / "root")]), mode="legacy") as c:
            s = await call(c, "search_files", {"path": str(b / "root"), "pattern": "**"})
            stopped = (s.get("structuredContent") or {}).get("stoppedEarly", "")
            report(not s.get("isError") and "5 entries" in stopped and "stopped early" in text(s), "option --max-entries stops a search and says why", stopped)
            t = await call(c, "directory_tree", {"path": str(b / "root")})
            report(not t.get("isError") and "stoppedEarly" in (t.get("structuredContent") or {}) and json.loads(t["content"][0]["text"]) is not None,
                   "option --max-entries stops a tree, the tree stays JSON")
        # --max-depth
        async with Client(quiet(ours, ["--max-depth", "1", str(b / "root")]), mode="legacy") as c:
            s = await call(c, "search_files", {"path": str(b / "root"), "pattern": "**/x.txt"})
            report(text(s).startswith("No matches found") and "max-depth" in (s.get("structuredContent") or {}).get("stoppedEarly", ""),
                   "option --max-depth bounds the search and says so")
        # Progress notifications with a progress token.
        async with Client(quiet(ours, [str(b / "root")]), mode="legacy") as c:
            for i in range(3000):
                (b / "root/many").mkdir(exist_ok=True)
                (b / "root/many" / f"f{i}").write_text("")
            seen: list[float] = []

            async def progress(p: float, total: float | None, message: str | None) -> None:
                seen.append(p)

            result = await c.call_tool("search_files", {"path": str(b / "root"), "pattern": "**/f2999"}, progress_callback=progress)
            report(not result.is_error and "f2999" in text(result.model_dump(by_alias=True, mode="json")), f"progress token: search answered, {len(seen)} progress notification(s)")
        # notifications/cancelled stops a walk in progress (the server logs it).
        # 80,000 files: several times what the walk gets through before the
        # cancellation arrives (about 20,000 in this debug build).
        for i in range(80):
            d = b / "root/wide" / f"d{i}"
            d.mkdir(parents=True, exist_ok=True)
            for j in range(1000):
                (d / f"f{j}").touch()
        log = b / "server.log"
        wrapped = StdioServerParameters(
            command="sh",
            args=["-c", f'exec "$0" --walk-timeout 600 "$1" 2>"$2"', ours, str(b / "root"), str(log)],
            env={**os.environ, "RUST_LOG": "mcp_roots_fs=info"},
        )
        async with Client(wrapped, mode="legacy") as c:
            with anyio.move_on_after(0.05):
                await c.call_tool("search_files", {"path": str(b / "root"), "pattern": "**/nothing"})
            await anyio.sleep(1.0)
            after = await call(c, "list_allowed_directories", {})
        logged = log.read_text() if log.exists() else ""
        report("the client cancelled the call" in logged and not after.get("isError"),
               "notifications/cancelled stops a walk in progress", next((l for l in logged.splitlines() if "cancelled" in l), "not logged"))
        shutil.rmtree(b / "root/wide")
        # Roots: narrow within the directories; un-sharing shares nothing.
        shared = [f"file://{b}/root/sub"]

        async def list_roots(_ctx: Any) -> types.ListRootsResult:
            return types.ListRootsResult(roots=[types.Root(uri=u) for u in shared])

        async with Client(quiet(ours, [str(b / "root")]), mode="legacy", list_roots_callback=list_roots) as c:
            inside = await call(c, "read_text_file", {"path": str(b / "root/sub/y.log")})
            narrowed = await call(c, "read_text_file", {"path": str(b / "root/a.txt")})
            report(text(inside) == "log\n" and narrowed.get("isError") is True, "client roots narrow within the directories")
            shared[:] = [f"file://{b}/outside"]
            with warnings.catch_warnings():
                # Deprecated from 2026-07-28 on; this session speaks 2025-11-25.
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                await c.session.send_roots_list_changed()
            await anyio.sleep(0.5)
            widened = await call(c, "read_text_file", {"path": str(b / "outside/secret.txt")})
            report(widened.get("isError") is True and SECRET not in text(widened), "client roots never widen past the directories")
            shared[:] = []
            with warnings.catch_warnings():
                # Deprecated from 2026-07-28 on; this session speaks 2025-11-25.
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                await c.session.send_roots_list_changed()
            await anyio.sleep(0.5)
            gone = await call(c, "read_text_file", {"path": str(b / "root/sub/y.log")})
            report(gone.get("isError") is True, "un-sharing after sharing shares nothing")
        # The newest revision (2026-07-28, the SDK's default mode) serves the tools too.
        async with Client(quiet(ours, [str(b / "root")])) as c:
            r = await call(c, "read_text_file", {"path": str(b / "root/sub/y.log")})
            report(text(r) == "log\n", f"revision {c.protocol_version}: read_text_file")
            s = await call(c, "search_files", {"path": str(b / "root/sub"), "pattern": "**/*.md"})
            report(text(s) == str(b / "root/sub/deep/z.md"), f"revision {c.protocol_version}: search_files", text(s))
            w = await call(c, "write_file", {"path": str(b / "root/modern.txt"), "content": "m"})
            report(not w.get("isError") and (b / "root/modern.txt").read_text() == "m", f"revision {c.protocol_version}: write_file")


async def empty_first_answer(original: str, ours: str) -> None:
    """A client that declares roots and answers [] first: both servers serve
    their directories. Then it shares a folder and un-shares it: the
    original keeps serving (a listed difference), ours shares nothing."""
    with tempfile.TemporaryDirectory() as d1, tempfile.TemporaryDirectory() as d2:
        b1, b2 = Path(d1).resolve(), Path(d2).resolve()
        fixture(b1)
        fixture(b2)
        servers = [
            ("original", b1, StdioServerParameters(command=NODE, args=[original, str(b1 / "root")])),
            ("ours", b2, quiet(ours, [str(b2 / "root")])),
        ]
        seen: dict[str, tuple[str, bool]] = {}
        for who, b, params in servers:
            shared: list[str] = []

            async def list_roots(_ctx: Any, shared: list[str] = shared) -> types.ListRootsResult:
                return types.ListRootsResult(roots=[types.Root(uri=u) for u in shared])

            async with Client(params, mode="legacy", list_roots_callback=list_roots) as c:
                first = await call(c, "read_text_file", {"path": str(b / "root/a.txt")})
                shared[:] = [f"file://{b}/root/sub"]
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", MCPDeprecationWarning)
                    await c.session.send_roots_list_changed()
                await anyio.sleep(0.5)
                shared[:] = []
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", MCPDeprecationWarning)
                    await c.session.send_roots_list_changed()
                await anyio.sleep(0.5)
                after = await call(c, "read_text_file", {"path": str(b / "root/sub/y.log")})
            seen[who] = (text(first) if not first.get("isError") else "", after.get("isError") is True)
        report(seen["original"][0] == seen["ours"][0] != "",
               "an empty first roots answer is served the directories, as the original does",
               f"original {seen['original'][0]!r}, ours {seen['ours'][0]!r}")
        if NEWER:
            # 2.3.0 revokes too (#5094).
            report(seen["original"][1] is True and seen["ours"][1] is True,
                   "un-sharing after sharing shares nothing, as 2.3.0 does",
                   f"refused: original {seen['original'][1]}, ours {seen['ours'][1]}")
        else:
            report(seen["original"][1] is False and seen["ours"][1] is True,
                   "listed difference: un-sharing after sharing keeps the directories in the original, shares nothing in ours",
                   f"refused: original {seen['original'][1]}, ours {seen['ours'][1]}")


async def default_client_without_folders(ours: str) -> None:
    """The SDK's default client (2026-07-28) declaring roots with an empty
    list, over stdio: the process is the session (the glue's
    `with_process_session`), so it is served the directories, as the
    original serves its command-line directories on that revision. Then it
    shares a folder and un-shares it: nothing is shared."""
    with tempfile.TemporaryDirectory() as d:
        b = Path(d).resolve()
        fixture(b)
        shared: list[str] = []

        async def list_roots(_ctx: Any) -> types.ListRootsResult:
            return types.ListRootsResult(roots=[types.Root(uri=u) for u in shared])

        async with Client(quiet(ours, [str(b / "root")]), list_roots_callback=list_roots) as c:
            allowed = await call(c, "list_allowed_directories", {})
            first = await call(c, "read_text_file", {"path": str(b / "root/a.txt")})
            report(c.protocol_version == "2026-07-28" and not allowed.get("isError") and text(first) == "alpha\nbeta\ngamma\n",
                   f"revision {c.protocol_version}: the default client with an empty roots list is served the directories",
                   text(allowed).replace("\n", " | ")[:200])
            shared[:] = [f"file://{b}/root/sub"]
            inside = await call(c, "read_text_file", {"path": str(b / "root/sub/y.log")})
            shared[:] = []
            gone = await call(c, "read_text_file", {"path": str(b / "root/sub/y.log")})
            report(text(inside) == "log\n" and gone.get("isError") is True,
                   f"revision {c.protocol_version}: sharing then un-sharing shares nothing")


async def main() -> int:
    original, ours = sys.argv[1], sys.argv[2]
    started = time.monotonic()
    await differential(original, ours)
    await options(ours)
    await empty_first_answer(original, ours)
    # Over stdio the process is the session (SessionRoots::with_process_session).
    await default_client_without_folders(ours)
    print(f"{counted['same']} calls the same, {counted['listed']} listed differences asserted, "
          f"{counted['resynced']} tree(s) re-laid after a difference; {time.monotonic() - started:.1f}s", flush=True)
    print(f"{'FAILED' if failures else 'passed'}: {failures} failure(s)", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(anyio.run(main))
