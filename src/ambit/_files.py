"""The one file layer: every file ambit reads or writes goes through this module.

Any path may hold links, FIFOs or devices planted by someone else, so the rules are held here once:
no link is followed (paths are opened one component at a time with ``O_NOFOLLOW``; only root-owned
links directly under ``/`` are, and under a ``root`` folder links that stay inside it); only regular
files are read, under a byte limit; writes are atomic (a random temporary name, fsync, rename);
lock files and logs must have one hard link; JSON and JSONL are bounded. Every refusal is a
``FileError`` (an ``OSError``) of one line naming the file; a bad line is a ``LineError``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

__all__ = [
    "DEFAULT_LIMIT", "MAX_LINE", "SECRET_LIMIT", "FileError", "FileMissing", "LineError",
    "JsonlLine", "open_dir", "open_nofollow", "open_regular", "read_bytes", "read_head",
    "read_text", "read_json", "regular_fd", "parse_json", "iter_jsonl_lines", "iter_json_rows",
    "exists", "ensure_dir", "write_atomic", "open_append", "open_lock", "file_mode", "read_secret",
]

DEFAULT_LIMIT = 256 * 2**20  # bytes read from one file unless the caller says otherwise
MAX_LINE = 16 * 2**20  # bytes in one JSONL line unless the caller says otherwise
SECRET_LIMIT = 64 * 2**10  # bytes in a token or key file
MAX_DEPTH = 64  # nesting of JSON arrays and objects
MAX_INT_DIGITS = 100  # digits of a JSON integer (a 5,000-digit one is data no ambit file holds)
_MAX_LINKS = 40  # links resolved in one path (as the kernel's own limit)
_CHUNK = 2**20
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_PREVIEW = 200  # bytes of an over-long line kept to show what it was

StrPath = str | os.PathLike[str]


class FileError(OSError):
    """A file ambit refuses or cannot use; ``str()`` is one line naming the file."""

    def __init__(self, message: str, code: int = 0) -> None:
        super().__init__(code, message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class FileMissing(FileError, FileNotFoundError):
    """The file (or a folder on its path) does not exist."""


class LineError(ValueError):
    """A line of a file that is not what it must be: bad UTF-8, bad JSON, too deep, too long."""

    def __init__(self, path: StrPath, line: int, why: str) -> None:
        super().__init__(f"{os.fspath(path)}: line {line}: {why}")
        self.path, self.line, self.why = os.fspath(path), line, why


def _refusal(shown: str, err: OSError, what: str) -> FileError:
    if err.errno == errno.ENOENT:
        return FileMissing(f"{shown}: no such file or folder ({what} is missing)", err.errno)
    if err.errno in (errno.ELOOP, errno.EMLINK):
        return FileError(f"{shown}: {what} is a symbolic link; ambit follows none (give the real path)",
                         err.errno)
    if err.errno == errno.ENOTDIR:
        return FileError(f"{shown}: {what} is not a folder", err.errno)
    return FileError(f"{shown}: {err.strerror or err}", err.errno or 0)


class _Walk:
    """Open folders from a start folder down, one component at a time, following no link."""

    def __init__(self, path: StrPath, root: StrPath | int | None) -> None:
        self.shown = os.fspath(path)
        self.root = root
        self.links = 0
        if root is None:
            self.root_text = "/"
            self.stack = [os.open("/", _DIR)]
            self.parts = _split(os.path.abspath(self.shown))
        else:
            if os.path.isabs(self.shown):
                raise FileError(f"{self.shown}: an absolute path where a path inside {_root_text(root)} is due")
            self.root_text = _root_text(root)
            self.stack = [os.dup(root) if isinstance(root, int) else open_dir(root)]
            self.parts = _split(self.shown)

    def __enter__(self) -> _Walk:
        return self

    def __exit__(self, *exc: object) -> None:
        for fd in self.stack:
            os.close(fd)
        self.stack = []

    def _up(self) -> None:
        if len(self.stack) > 1:
            os.close(self.stack.pop())
        elif self.root is not None:
            raise FileError(f"{self.shown}: leads out of its root folder {self.root_text}")

    def _link(self, name: str) -> str | None:
        """The target of ``name`` in the current folder when it is a link this walk follows."""
        try:
            st = os.stat(name, dir_fd=self.stack[-1], follow_symlinks=False)
        except OSError:
            return None
        if not stat.S_ISLNK(st.st_mode):
            return None
        system = self.root is None and len(self.stack) == 1 and st.st_uid == 0
        if not (system or self.root is not None):
            raise FileError(f"{self.shown}: {name} is a symbolic link; ambit follows none (give the real path)",
                            errno.ELOOP)
        self.links += 1
        if self.links > _MAX_LINKS:
            raise FileError(f"{self.shown}: too many links (a loop?)", errno.ELOOP)
        try:
            return os.readlink(name, dir_fd=self.stack[-1])
        except OSError as err:  # swapped back for a folder, or removed, since the stat above
            raise FileError(f"{self.shown}: {name!r} changed while it was being read "
                            f"({err.strerror or err})", err.errno or 0) from None

    def _follow(self, target: str) -> None:
        """Go on with a link's target in place of the link."""
        if os.path.isabs(target):
            if self.root is not None:
                target = os.path.relpath(target, self.root_text)
                if target == ".." or target.startswith("../") or not self.root_text.startswith("/"):
                    raise FileError(f"{self.shown}: a link leads out of its root folder "
                                    f"{self.root_text}")
            while len(self.stack) > 1:
                os.close(self.stack.pop())
        self.parts[:0] = _split(target)

    def _step(self, name: str) -> bool:
        """Whether ``name`` was `..` or a followed link, the walk gone on past it."""
        if name == "..":
            self._up()
            return True
        target = self._link(name)
        if target is not None:
            self._follow(target)
        return target is not None

    def parent(self, resolve_last: bool = True) -> tuple[int, str]:
        """(descriptor of the folder holding the last component, its name), links resolved (the
        last one too unless ``resolve_last`` is False: a link there is to be replaced)."""
        while True:
            if not self.parts:
                raise FileError(f"{self.shown}: names a folder, not a file")
            name = self.parts.pop(0)
            if name != ".." and not self.parts and not resolve_last:
                return self.stack[-1], name
            if self._step(name):
                continue
            if not self.parts:
                return self.stack[-1], name
            try:
                self.stack.append(os.open(name, _DIR, dir_fd=self.stack[-1]))
            except OSError as err:
                raise _refusal(self.shown, err, f"folder {name!r}") from None

    def folder(self, create: int | None = None) -> int:
        """A descriptor of the whole path as a folder (created with mode ``create`` if missing)."""
        while self.parts:
            name = self.parts.pop(0)
            if self._step(name):
                continue
            try:
                self.stack.append(os.open(name, _DIR, dir_fd=self.stack[-1]))
                continue
            except FileNotFoundError:
                if create is None:
                    raise FileMissing(f"{self.shown}: no such folder ({name!r} is missing)", errno.ENOENT) from None
            except OSError as err:
                raise _refusal(self.shown, err, repr(name)) from None
            try:
                with contextlib.suppress(FileExistsError):  # made by another process just now
                    os.mkdir(name, create, dir_fd=self.stack[-1])
                self.stack.append(os.open(name, _DIR, dir_fd=self.stack[-1]))
            except OSError as err:
                raise FileError(f"{self.shown}: cannot create the folder {name!r} ({err.strerror or err})",
                                err.errno or 0) from None
        return os.dup(self.stack[-1])


def _split(path: str) -> list[str]:
    return [c for c in path.split("/") if c not in ("", ".")]


def _root_text(root: StrPath | int) -> str:
    if isinstance(root, int):
        return os.readlink(f"/proc/self/fd/{root}") if os.path.exists("/proc/self/fd") else f"<fd {root}>"
    return os.path.abspath(os.fspath(root))


def open_dir(path: StrPath, *, root: StrPath | int | None = None, create: int | None = None) -> int:
    """A descriptor (the caller closes it) of the folder ``path``, made (``create``) if missing."""
    with _Walk(path, root) as walk:
        return walk.folder(create)


def ensure_dir(path: StrPath, mode: int = 0o700) -> Path:
    """Create the folder ``path`` and any missing parent; refuse anything else where one is due."""
    os.close(open_dir(path, create=mode))
    return Path(path)


def _open_in(path: StrPath, flags: int, mode: int, root: StrPath | int | None) -> int:
    with _Walk(path, root) as walk:
        dir_fd, name = walk.parent()
        try:
            return os.open(name, flags | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, mode, dir_fd=dir_fd)
        except OSError as err:
            raise _refusal(walk.shown, err, "the file" if err.errno != errno.ENOENT else repr(name)) from None


def _check_regular(fd: int, shown: str, *, single_link: bool = False) -> os.stat_result:
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        kind = ("a folder" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode)
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
        os.close(fd)
        raise FileError(f"{shown}: is {kind}, not a regular file; ambit reads and writes regular files only")
    if single_link and st.st_nlink != 1:
        os.close(fd)
        raise FileError(f"{shown}: has {st.st_nlink} hard links; ambit writes only a file with one")
    return st


def open_nofollow(path: StrPath, *, root: StrPath | int | None = None) -> int:
    """A read-only, non-blocking descriptor of whatever ``path`` names, for a caller that makes its
    own ``fstat`` checks (tptp_include.py). Prefer `open_regular`."""
    return _open_in(path, os.O_RDONLY, 0, root)


def open_regular(path: StrPath, *, root: StrPath | int | None = None) -> int:
    """A read-only descriptor of the regular file ``path`` (under ``root``, never out of it)."""
    fd = _open_in(path, os.O_RDONLY, 0, root)
    _check_regular(fd, os.fspath(path))
    os.set_blocking(fd, True)
    return fd


def exists(path: StrPath, *, root: StrPath | int | None = None) -> bool:
    """Whether ``path`` names an existing entry (a link counts, unfollowed; none on the way)."""
    try:
        walk = _Walk(path, root)
    except OSError:
        return False
    with walk:
        try:
            dir_fd, name = walk.parent()
            os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
            return True
        except (OSError, ValueError):
            return False


@contextlib.contextmanager
def regular_fd(path: StrPath, *, root: StrPath | int | None = None) -> Iterator[int]:
    """`open_regular`'s descriptor, closed when the block ends."""
    fd = open_regular(path, root=root)
    try:
        yield fd
    finally:
        os.close(fd)


def read_bytes(path: StrPath, limit: int = DEFAULT_LIMIT, *, root: StrPath | int | None = None) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (more is a FileError)."""
    chunks, size = [], 0
    with regular_fd(path, root=root) as fd:
        while chunk := os.read(fd, min(_CHUNK, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise FileError(f"{os.fspath(path)}: larger than {limit:,} bytes; "
                                "ambit reads no more from one file")
    return b"".join(chunks)


def read_head(path: StrPath, size: int, *, root: StrPath | int | None = None) -> bytes:
    """The first ``size`` bytes (or fewer) of the regular file ``path`` (to tell its format)."""
    with regular_fd(path, root=root) as fd:
        return os.read(fd, size)


def _decode(data: bytes, shown: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise LineError(shown, line, f"not UTF-8 (byte {err.start + 1} of the file: {err.reason})") from None


def read_text(path: StrPath, limit: int = DEFAULT_LIMIT, *, root: StrPath | int | None = None) -> str:
    """The UTF-8 text of the regular file ``path``, at most ``limit`` bytes (else a LineError)."""
    return _decode(read_bytes(path, limit, root=root), os.fspath(path))


def _depth(value: Any) -> int:
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            todo.extend((v, level + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def parse_json(text: str | bytes, *, where: str = "<json>", line: int = 1, max_depth: int = MAX_DEPTH,
               max_int_digits: int = MAX_INT_DIGITS, unicode_text: bool = False) -> Any:
    """``json.loads`` with bounds (depth, integer digits, no NaN): a LineError naming ``where`` and
    the line (``line``: the text's first); ``unicode_text`` refuses lone surrogates too."""
    def parse_int(digits: str) -> int:
        if len(digits.lstrip("-")) > max_int_digits:
            raise _Refused(f"an integer of {len(digits.lstrip('-')):,} digits (at most {max_int_digits})")
        return int(digits)

    def parse_constant(name: str) -> Any:
        raise _Refused(f"{name} is not JSON")

    try:
        value = json.loads(text, parse_int=parse_int, parse_constant=parse_constant)
    except _Refused as err:
        raise LineError(where, line, str(err)) from None
    except RecursionError:
        raise LineError(where, line, f"JSON nested deeper than {max_depth} levels") from None
    except json.JSONDecodeError as err:
        raise LineError(where, line + err.lineno - 1, f"not JSON ({err.msg} at column {err.colno})") from None
    except UnicodeDecodeError as err:
        raise LineError(where, line, f"not UTF-8 (byte {err.start + 1}: {err.reason})") from None
    except ValueError as err:  # e.g. int's own digit limit
        raise LineError(where, line, f"not JSON ({err})") from None
    if _depth(value) > max_depth:
        raise LineError(where, line, f"JSON nested deeper than {max_depth} levels")
    if unicode_text and (bad := _surrogate(value)) is not None:
        raise LineError(where, line, f"a lone surrogate ({bad!r}) in a string: not Unicode text")
    return value


def _surrogate(value: Any) -> str | None:
    """The first lone surrogate in a string (or key) of a parsed JSON value, or None."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as err:
                return item[err.start:err.end]
        elif isinstance(item, dict):
            todo.extend((*item.keys(), *item.values()))
        elif isinstance(item, list):
            todo.extend(item)
    return None


class _Refused(ValueError):
    pass


def read_json(path: StrPath, limit: int = DEFAULT_LIMIT, *, root: StrPath | int | None = None,
              max_depth: int = MAX_DEPTH, unicode_text: bool = False) -> Any:
    """The JSON value in the regular file ``path``; every problem is one line naming the file."""
    return parse_json(read_text(path, limit, root=root), where=os.fspath(path), max_depth=max_depth,
                      unicode_text=unicode_text)


@dataclass(frozen=True)
class JsonlLine:
    """One line of a JSONL file: its number (from 1), its bytes (an over-long line's first only),
    whether it ended with a newline, and its problem (None: within the cap and UTF-8)."""

    number: int
    raw: bytes
    ended: bool
    problem: str | None = None

    @property
    def text(self) -> str:
        """The line as text (call only when ``problem`` is None)."""
        return self.raw.decode("utf-8")


def iter_jsonl_lines(path: StrPath, max_line: int = MAX_LINE, *,
                     root: StrPath | int | None = None) -> Iterator[JsonlLine]:
    """The lines of the regular file ``path``, of any size, none holding over ``max_line`` bytes (an
    over-long or non-UTF-8 line comes back with its problem, and reading goes on)."""
    with regular_fd(path, root=root) as fd:
        yield from _lines(fd, max_line)


def iter_json_rows(path: StrPath, max_line: int = MAX_LINE, *,
                   set_aside: Callable[[int, str], bool] | None = None) -> Iterator[tuple[str, Any]]:
    """(``path:line``, value) of every non-blank line of a JSONL file others wrote, as bounded JSON:
    a bad line is a ValueError ``path:line: why`` unless ``set_aside(line, why)`` is true."""
    for line in iter_jsonl_lines(path, max_line):
        where, why = f"{os.fspath(path)}:{line.number}", line.problem
        if why is None and not line.raw.strip():
            continue
        if why is None:
            try:
                value = parse_json(line.raw, where=os.fspath(path), line=line.number, unicode_text=True)
            except LineError as err:
                why = err.why
        if why is None:
            yield where, value
        elif set_aside is None or not set_aside(line.number, why):
            raise ValueError(f"{where}: {why}")


def _line(number: int, buf: bytes, ended: bool, over: int) -> JsonlLine:
    if over:
        return JsonlLine(number, buf[:_PREVIEW], ended, f"longer than {over:,} bytes (the line cap)")
    try:
        buf.decode("utf-8")
    except UnicodeDecodeError as err:
        return JsonlLine(number, buf, ended, f"not UTF-8 (byte {err.start + 1}: {err.reason})")
    return JsonlLine(number, buf, ended)


def _lines(fd: int, max_line: int) -> Iterator[JsonlLine]:
    buf, number, over = b"", 0, False
    while chunk := os.read(fd, _CHUNK):
        buf += chunk
        start = 0
        while (nl := buf.find(b"\n", start)) >= 0:
            number += 1
            line = buf[start:nl]
            yield _line(number, line, True, max_line if over or len(line) > max_line else 0)
            over, start = False, nl + 1
        buf = buf[start:]
        if len(buf) > max_line:
            buf, over = buf[:_PREVIEW], True  # keep reading to the end of this line, holding nothing
    if buf or over:
        yield _line(number + 1, buf, False, max_line if over or len(buf) > max_line else 0)


def write_atomic(path: StrPath, data: bytes | str, *, mode: int = 0o600) -> None:
    """Replace ``path`` with ``data`` (str as UTF-8) at once; a link there is replaced."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with _Walk(path, None) as walk:
        dir_fd, name = walk.parent(resolve_last=False)
        tmp = f".{name}.{secrets.token_hex(6)}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            fd = os.open(tmp, flags, mode, dir_fd=dir_fd)
        except OSError as err:
            raise _refusal(walk.shown, err, "its folder") from None
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            os.unlink(tmp, dir_fd=dir_fd)
            raise
        os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            if stat.S_ISDIR(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode):
                os.unlink(tmp, dir_fd=dir_fd)
                raise FileError(f"{walk.shown}: is a folder; ambit does not replace a folder with a file")
        os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        with contextlib.suppress(OSError):  # some file systems cannot sync a folder
            os.fsync(dir_fd)


def open_append(path: StrPath, *, mode: int = 0o600) -> BinaryIO:
    """A binary file appending to the regular file ``path`` (one link; made with ``mode``)."""
    return os.fdopen(_open_single(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, mode), "ab")


def open_lock(path: StrPath, *, mode: int = 0o600) -> int:
    """A read-write descriptor of the lock file ``path`` (regular, one link, not truncated)."""
    return _open_single(path, os.O_RDWR | os.O_CREAT, mode)


def _open_single(path: StrPath, flags: int, mode: int) -> int:
    fd = _open_in(path, flags, mode, None)
    _check_regular(fd, os.fspath(path), single_link=True)
    os.set_blocking(fd, True)
    return fd


def file_mode(path: StrPath) -> int | None:
    """The permission bits of the regular file ``path`` (None when it does not exist)."""
    try:
        with regular_fd(path) as fd:
            return stat.S_IMODE(os.fstat(fd).st_mode)
    except FileMissing:
        return None


def read_secret(path: StrPath, *, what: str = "secret") -> str:
    """The first line of a token or key file that is neither blank nor a ``#`` comment, stripped;
    errors name the file as ``what`` and never show the secret."""
    shown = os.fspath(path)
    data = read_bytes(path, SECRET_LIMIT)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise FileError(f"{shown}: the {what} file is not UTF-8 text (byte {err.start + 1})") from None
    for line in text.splitlines():
        if line.strip() and not line.strip().startswith("#"):
            return line.strip()
    raise FileError(f"{shown}: the {what} file is empty (no line but blanks and # comments)")
