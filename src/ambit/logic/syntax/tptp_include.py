"""TPTP includes, resolved and bounded (`Limits`): only regular files inside the caller's TPTP root
(no `..`, absolute name or link leading out), each read once; a cycle refused. Errors never quote an
included file: a root such as /etc must not be read back through them."""

from __future__ import annotations

import errno
import os
import stat
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from ambit import _files

MAX_INCLUDE_DEPTH = 16  # includes inside includes
MAX_INCLUDES = 256  # include statements followed in one problem, repeats counted
MAX_BYTES = 8 * 2 ** 20  # bytes of the problem file and of every include (repeats counted), in all
MAX_STATEMENTS = 1_000_000  # statements read in one problem, repeats counted (150,000 small ones: about 5 s)
_CHUNK = 1 << 16
_O_CLOEXEC, _O_NONBLOCK, _O_NOFOLLOW = (getattr(os, f, 0) for f in ("O_CLOEXEC", "O_NONBLOCK", "O_NOFOLLOW"))


@dataclass(frozen=True)
class Limits:
    """Bounds on reading one problem (statements and bytes count repeats; None: no bound)."""

    max_chars: int | None = None
    max_includes: int = MAX_INCLUDES
    max_bytes: int = MAX_BYTES
    max_depth: int = MAX_INCLUDE_DEPTH
    max_statements: int = MAX_STATEMENTS


class TPTPProblemError(ValueError):
    """A problem file that cannot be read as a problem: where (`source`, `line`) and why."""

    def __init__(self, message: str, source: str, line: int) -> None:
        super().__init__(f"{source}:{line}: {message}" if line else f"{source}: {message}")
        self.source, self.line = source, line  # line 0: the file as a whole


class _FileError(Exception):
    """Why a file cannot be read, without its path (the caller names it), never its content."""


@dataclass
class _Included:
    """One file read under the root: its entries, parsed once, and its size, spent per include."""

    size: int
    entries: list = field(default_factory=list)  # ("fof", name, role, formula, line) or ("include", Statement)


class Includes:
    """The includes of one problem: the root, the limits and what has been spent on them."""

    def __init__(self, root: Path | None, limits: Limits, spent_bytes: int) -> None:
        self.root, self.limits, self.includes, self.bytes = root, limits, 0, spent_bytes
        self.base = root.resolve() if root is not None else None
        self.files: dict[Path, _Included] = {}
        self.stack: list[Path] = []

    @contextmanager
    def follow(self, name: str, line: int, source: str, quote: bool, entries: Callable[[str, str], list],
               read_bytes: Callable[..., bytes]) -> Iterator[tuple[Path, list]]:
        """Inside the include of `name`: its path and entries (made once per file); else
        TPTPProblemError."""
        name = name.strip("'\"")
        shown = f"include('{name}')" if quote else "this include"
        if self.root is None or self.base is None:
            raise TPTPProblemError(f"{shown} is refused: pass --tptp-root DIR to read includes "
                                   "from that folder", source, line)
        if len(self.stack) >= self.limits.max_depth:
            raise TPTPProblemError(f"includes nested deeper than {self.limits.max_depth}", source, line)
        self.includes += 1
        if self.includes > self.limits.max_includes:
            raise TPTPProblemError(f"{shown}: more than {self.limits.max_includes} includes in one problem "
                                   "(repeats counted; --tptp-max-includes)", source, line)
        path = self._resolve(name, shown, source, line)
        if path in self.stack:
            chain = " -> ".join(self._shown_path(p) for p in [*self.stack[self.stack.index(path):], path])
            raise TPTPProblemError(f"{shown}: an include cycle ({chain})", source, line)
        included = self.files.get(path)
        if included is None:
            try:
                data = read_bytes(path, self.limits.max_bytes - self.bytes, regular_only=True, root=self.base)
                text = _decode(data)
            except _FileError as e:
                where = f"{path}: " if quote or os.path.lexists(path) else ""  # a name, not a file: not shown
                raise TPTPProblemError(f"{shown}: {where}{e}", source, line) from None
            included = self.files[path] = _Included(len(data), entries(text, str(path)))
        self.bytes += included.size
        if self.bytes > self.limits.max_bytes:
            raise TPTPProblemError(f"{shown}: {self._shown_path(path)} brings the bytes read to {self.bytes:,}, "
                                   f"over the limit of {self.limits.max_bytes:,} (repeats counted; "
                                   "--tptp-max-bytes)", source, line)
        self.stack.append(path)
        try:
            yield path, included.entries
        finally:
            self.stack.pop()

    def _resolve(self, name: str, shown: str, source: str, line: int) -> Path:
        """The file `name` names: relative, no `..`, inside the root once links are followed."""
        assert self.base is not None
        rel = Path(name)
        if not name or "\x00" in name or rel.is_absolute() or ".." in rel.parts:
            why = "an absolute name" if rel.is_absolute() else "a name with '..'" if ".." in rel.parts else "not a file name"
            raise TPTPProblemError(f"{shown} is outside the TPTP root {self.base} ({why}); includes name files "
                                   "relative to the root", source, line)
        try:
            path = (self.base / rel).resolve()
        except (OSError, RuntimeError) as e:  # a loop of symbolic links
            raise TPTPProblemError(f"{shown}: cannot follow its symbolic links ({e.__class__.__name__})",
                                   source, line) from None
        if not path.is_relative_to(self.base):
            raise TPTPProblemError(f"{shown} is outside the TPTP root {self.base} (a symbolic link leads out)",
                                   source, line)
        return path

    def _shown_path(self, path: Path) -> str:
        return str(path.relative_to(self.base)) if self.base is not None and path.is_relative_to(self.base) else str(path)


_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"))


def _read_bytes(path: Path, max_bytes: int, regular_only: bool, root: Path | None = None) -> bytes:
    """The bytes of `path`, at most `max_bytes` (`regular_only`: other files refused unread); under
    `root` opened with O_NOFOLLOW per component, so a swapped-in link cannot lead out (issue 45)."""
    flags = os.O_RDONLY | _O_CLOEXEC | _O_NONBLOCK | (_O_NOFOLLOW if regular_only else 0)
    try:
        fd = (os.open(path, flags) if root is None
              else _files.open_nofollow(os.path.relpath(path, root), root=root))
    except _files.FileError as e:  # a link swapped in that leads out, or a component gone
        raise _FileError(f"cannot be read: {_files_reason(e)}") from None
    except OSError as e:
        raise _FileError(f"cannot be read: {e.strerror}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise _FileError("a folder, not a file")
        if regular_only and not stat.S_ISREG(st.st_mode):
            kind = next((k for test, k in _KINDS if test(st.st_mode)), "not a regular file")
            raise _FileError(f"{kind}; only regular files are read")
        if stat.S_ISREG(st.st_mode) and st.st_size > max_bytes:
            raise _FileError(f"{st.st_size:,} bytes, over the {max(max_bytes, 0):,} bytes left to read "
                             "(--tptp-max-bytes)")
        if not stat.S_ISREG(st.st_mode):  # a pipe given on the command line: wait for its writer
            os.set_blocking(fd, True)
        chunks, total = [], 0
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except OSError as e:
                raise _FileError(f"cannot be read: {e.strerror}") from None
            if not chunk:
                break
            total += len(chunk)
            if total > max_bytes:
                raise _FileError(f"more than the {max(max_bytes, 0):,} bytes left to read "
                                 "(--tptp-max-bytes)")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _files_reason(e: _files.FileError) -> str:
    """A file-layer refusal's reason in words that quote no name."""
    if isinstance(e, _files.FileMissing):
        return os.strerror(errno.ENOENT)
    if e.errno == errno.ELOOP or "root folder" in str(e):
        return "a symbolic link on its path leads out of the TPTP root (or was swapped in while it was read)"
    return os.strerror(e.errno) if e.errno else "refused by the file layer"


def _decode(data: bytes) -> str:
    """`data` as UTF-8; _FileError naming the line and byte that is not (never the bytes)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise _FileError(f"not UTF-8 text (line {line}, byte {e.start + 1}: {e.reason})") from None


__all__ = ["MAX_BYTES", "MAX_INCLUDES", "MAX_INCLUDE_DEPTH", "MAX_STATEMENTS", "Includes", "Limits", "TPTPProblemError"]
