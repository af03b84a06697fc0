"""The runs viewer's reads: the `--out` folders given with `--runs`, and nothing else.

A run is a folder (at most `MAX_DEPTH` down, no link followed) holding `results.jsonl` or
`summary.json`, named by its listing's id, never by a path; every file is read through
`ambit._files` under its root. Records are never all in memory: `RunIndex` indexes
`results.jsonl` incrementally (`INDEX_SLICE_S` a request), and a page is read at its offsets
(docs/web.md#the-runs-viewer-at-any-size).
"""

from __future__ import annotations

import bisect
import contextlib
import json
import os
import re
import shutil
import sqlite3
import stat
import tempfile
import threading
import time
import weakref
from array import array
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ambit import _files

RESULTS = "results.jsonl"  # client.eval.store's names
SUMMARY = "summary.json"
SUMMARY_MD = "summary.md"
MAX_DEPTH = 3
MAX_RUNS = 500
MAX_FILE_BYTES = 32 * 1024 * 1024  # a figure or a summary
MAX_RESULTS_BYTES = 64 * 1024 ** 3  # the largest results.jsonl the viewer indexes (the index: ~70 bytes a record)
MAX_LINE = _files.MAX_LINE  # a record's line (as the results store caps it)
MAX_PAGE = 500  # items in one page
MAX_PAGE_BYTES = 8 * 1024 * 1024  # bytes of records read for one page (a page stops short past them)
MAX_SHOWN_LINE = 1024 * 1024  # a record longer than this is listed by id only (its whole record one click away)
MAX_OPEN = 8  # run indexes open at once (least recently used closed first)
CACHE_KIB = 4096  # SQLite page cache of one index
INDEX_CACHE_KIB = 65536  # the page cache of an index while it is being written (RUNS_SLOTS at most at once)
INDEX_SLICE_S = 2.0  # seconds of indexing one request does before it answers with what it has
SETTLED_S = 2.0  # a last line without its newline, unchanged this long, is a whole record
RUNS_SLOTS = 2  # runs-viewer requests reading at once (RunsApi's admission)
MAX_VALUES = 1000  # distinct types and ratios a run's filters offer
_CHUNK = 1024 * 1024
SHOWN = {".png": "image/png", ".md": "text/plain; charset=utf-8", ".json": "application/json"}
OUTCOMES = {"right": 1, "wrong": 0}


class RunsError(Exception):
    """A run or file the viewer does not serve (404), too large (413), or a bad query (400)."""

    CODES = {400: "INVALID_FIELD", 404: "NOT_FOUND", 413: "TOO_LARGE"}

    def __init__(self, message: str, status: int = 404, field: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = self.CODES.get(status, "NOT_FOUND")
        self.field = field


@dataclass(frozen=True)
class Run:
    id: str  # "ROOT/REL": the root's index and the folder's path under it ("." for the root)
    root: int
    rel: tuple[str, ...]


class Runs:
    """The roots given on the command line (each an existing folder, not a link)."""

    def __init__(self, roots: list[str | Path]) -> None:
        self.roots: list[Path] = []
        for r in roots:
            p = Path(r).absolute()
            if p.is_symlink() or not p.is_dir():
                raise ValueError(f"--runs {r}: not a folder (a symbolic link is not followed)")
            self.roots.append(p)
        self._indexes: OrderedDict[str, RunIndex] = OrderedDict()
        self._lock = threading.Lock()
        self._tmp: str | None = None

    def close(self) -> None:
        """Close every index and remove their folder."""
        with self._lock:
            indexes, self._indexes = list(self._indexes.values()), OrderedDict()
        for ix in indexes:
            ix.close()
        if self._tmp is not None:
            self._finalizer()
            self._tmp = None

    # -- listing ---------------------------------------------------------------------------
    def runs(self) -> list[Run]:
        found: list[Run] = []
        for i, root in enumerate(self.roots):
            self._walk(i, root, (), found)
        return found[:MAX_RUNS]

    def _walk(self, index: int, folder: Path, rel: tuple[str, ...], found: list[Run]) -> None:
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return
        names = {e.name for e in entries if e.is_file(follow_symlinks=False)}
        if RESULTS in names or SUMMARY in names:
            found.append(Run(f"{index}/{'/'.join(rel) or '.'}", index, rel))
        if len(rel) < MAX_DEPTH:
            for e in entries:
                if e.is_dir(follow_symlinks=False) and not e.name.startswith("."):
                    self._walk(index, Path(e.path), (*rel, e.name), found)

    def find(self, run_id: str) -> Run:
        for run in self.runs():
            if run.id == run_id:
                return run
        raise RunsError(f"no run {run_id!r} under the folders this server was given")

    def listing(self) -> list[dict]:
        """Every run: its id, root, folder, files, record count and whether it is still being written."""
        return [self.describe(r) for r in self.runs()]

    def describe(self, run: Run) -> dict:
        files = self.files(run)
        results, summary = files.get(RESULTS), files.get(SUMMARY)
        in_progress = results is not None and (summary is None or results["mtime"] > summary["mtime"])
        return {"id": run.id, "root": str(self.roots[run.root]), "folder": "/".join(run.rel) or ".",
                "files": sorted(n for n in files if Path(n).suffix in SHOWN),
                "figures": sorted(n for n in files if n.endswith(".png")),
                "records_bytes": results["size"] if results else 0,
                "updated": max((f["mtime"] for f in files.values()), default=0),
                "in_progress": in_progress}

    def files(self, run: Run) -> dict[str, dict]:
        """name -> {size, mtime} of the run folder's regular files (links left out)."""
        try:
            fd = _files.open_dir("/".join(run.rel) or ".", root=self.roots[run.root])
        except _files.FileError:
            raise RunsError(f"run {run.id} is gone") from None
        try:
            out = {}
            for name in os.listdir(fd):
                try:
                    st = os.stat(name, dir_fd=fd, follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode):
                    out[name] = {"size": st.st_size, "mtime": st.st_mtime}
            return out
        finally:
            os.close(fd)

    # -- reading ---------------------------------------------------------------------------
    def read(self, run: Run, name: str, limit: int = MAX_FILE_BYTES) -> bytes:
        """The bytes of the plain file name `name` in the run's folder, at most `limit` of them."""
        try:
            return _files.read_bytes(self._path(run, name), limit, root=self.roots[run.root])
        except _files.FileError as e:
            raise RunsError(f"{name!r} in run {run.id}: {_reason(e)}", 413 if "larger than" in str(e) else 404) \
                from None

    def _path(self, run: Run, name: str) -> str:
        if name in ("", ".", "..") or "/" in name or "\\" in name or "\0" in name:
            raise RunsError(f"{name!r}: not a file name")
        return "/".join((*run.rel, name))

    def file(self, run_id: str, name: str) -> tuple[bytes, str]:
        """A file the viewer shows (figures, summaries) and its media type."""
        kind = SHOWN.get(Path(name).suffix)
        if kind is None:
            raise RunsError(f"{name!r}: the viewer shows {', '.join(SHOWN)} files only")
        return self.read(self.find(run_id), name), kind

    def summary(self, run_id: str) -> dict:
        run = self.find(run_id)
        files = self.files(run)
        out: dict[str, Any] = {"run": self.describe(run), "summary": None, "markdown": None}
        if SUMMARY in files:
            with contextlib.suppress(ValueError):
                out["summary"] = _files.parse_json(self.read(run, SUMMARY), where=SUMMARY)
        if SUMMARY_MD in files:
            out["markdown"] = self.read(run, SUMMARY_MD).decode("utf-8", "replace")
        return out

    # -- the index --------------------------------------------------------------------------
    def index(self, run: Run) -> "RunIndex | None":
        """The run's index, brought up to date for at most `INDEX_SLICE_S` (None: no records)."""
        meta = self.files(run).get(RESULTS)
        if meta is None:
            return None
        if meta["size"] > MAX_RESULTS_BYTES:
            raise RunsError(f"{RESULTS} in run {run.id}: {meta['size']:,} bytes, over the viewer's limit of "
                            f"{MAX_RESULTS_BYTES:,}", 413)
        with self._lock:
            ix = self._indexes.get(run.id)
            if ix is None:
                if self._tmp is None:
                    self._tmp = tempfile.mkdtemp(prefix="ambit-runs-")  # mode 0700
                    # removed with this object, or at exit at the latest
                    self._finalizer = weakref.finalize(self, shutil.rmtree, self._tmp, True)
                ix = self._indexes[run.id] = RunIndex(self._tmp, self._path(run, RESULTS), self.roots[run.root])
            self._indexes.move_to_end(run.id)
            closing = [self._indexes.popitem(last=False)[1]
                       for _ in range(len(self._indexes) - MAX_OPEN)]
        for old in closing:
            old.close()
        try:
            ix.update(INDEX_SLICE_S)
        except _files.FileError as e:
            raise RunsError(f"{RESULTS} in run {run.id}: {_reason(e)}") from None
        return ix

    def items(self, run_id: str, filters: dict[str, str], offset: int = 0, limit: int = 100) -> dict:
        """One page of the run's items (`item_view`s) after the filters: type, ratio, outcome, q."""
        run = self.find(run_id)
        limit = max(1, min(limit, MAX_PAGE))
        ix = self.index(run)
        if ix is None:
            return {"run": run_id, "total": 0, "matched": 0, "types": [], "ratios": [], "offset": offset,
                    "items": [], "complete": True, "indexed_bytes": 0, "bytes": 0}
        try:
            return {"run": run_id, **ix.page(filters, offset, limit)}
        except _files.FileError as e:
            raise RunsError(f"{RESULTS} in run {run.id}: {_reason(e)}") from None

    def record(self, run_id: str, item_id: str) -> dict:
        ix = self.index(self.find(run_id))
        rec = None if ix is None else ix.record(item_id)
        if rec is None:
            raise RunsError(f"no item {item_id!r} in run {run_id}")
        return rec


class RunIndex:
    """One run's `results.jsonl` indexed in SQLite: per id (its last line, in first-seen order) the
    line's offset and length, its type, ratio and outcome (1 right, 0 wrong, NULL unjudged)."""

    def __init__(self, folder: str, path: str, root: Path) -> None:
        self.path, self.root = path, root
        fd, self.db_path = tempfile.mkstemp(suffix=".sqlite", dir=folder)
        os.close(fd)
        self.db = sqlite3.connect(self.db_path, check_same_thread=False, isolation_level=None)
        for pragma in ("journal_mode=OFF", "synchronous=OFF", f"cache_size=-{CACHE_KIB}", "temp_store=FILE"):
            self.db.execute(f"PRAGMA {pragma}")
        # the id index is built once the file is read to its end (a sort: cheaper than appending)
        self.db.execute("CREATE TABLE items (seq INTEGER PRIMARY KEY, idh INTEGER NOT NULL, "
                        "off INTEGER NOT NULL, len INTEGER NOT NULL, type INTEGER, ratio REAL, outcome INTEGER)")
        self.keyed = False  # the index of ids exists
        self.deduped = 0  # rows up to this seq have no later duplicate
        self.lock = threading.Lock()
        self.identity: tuple[int, int] | None = None
        self.indexed = 0  # bytes of the file indexed (up to the end of a line)
        self.size = 0
        self.types: dict[str, int] = {}  # type name -> code
        self.ratios: set[float] = set()
        self._search: tuple[tuple[str, int], array] | None = None  # the last text search and its hits

    def close(self) -> None:
        with self.lock:
            self.db.close()
            with contextlib.suppress(OSError):
                os.unlink(self.db_path)

    def _reset(self) -> None:
        self.db.execute("DROP INDEX IF EXISTS items_idh")
        self.db.execute("DELETE FROM items")
        self.indexed, self.types, self.ratios, self._search = 0, {}, set(), None
        self.keyed, self.deduped = False, 0

    # -- indexing ----------------------------------------------------------------------------
    def update(self, budget_s: float) -> None:
        """Index what was added to the file since the last call, for at most `budget_s` seconds."""
        with self.lock, _files.regular_fd(self.path, root=self.root) as fd:
            st = os.fstat(fd)
            identity = (st.st_dev, st.st_ino)
            if identity != self.identity or st.st_size < self.indexed or not self._continues(fd, st.st_size):
                self._reset()  # another file, or this one rewritten: from the start
                self.identity = identity
            self.size = st.st_size
            settled = time.time() - st.st_mtime >= SETTLED_S
            end = time.monotonic() + budget_s
            if self.indexed < self.size:  # a larger page cache while indexing: the id index is written at random
                self.db.execute(f"PRAGMA cache_size=-{INDEX_CACHE_KIB}")
            try:
                while self.indexed < self.size:  # at least one chunk a call, then while time is left
                    if not self._index_chunk(fd, settled) or time.monotonic() >= end:
                        break
                if self.indexed >= self.size:
                    self._dedupe()
            finally:
                self.db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
                self.db.execute("PRAGMA shrink_memory")

    def _continues(self, fd: int, size: int) -> bool:
        """The indexed part is unchanged: it ends a line, or ends the file, which has not grown."""
        return (self.indexed == 0 or os.pread(fd, 1, self.indexed - 1) == b"\n"
                or size == self.indexed)

    def _index_chunk(self, fd: int, settled: bool) -> bool:
        """Index the whole lines of the next chunk; False when nothing more can be indexed now."""
        data = os.pread(fd, _CHUNK, self.indexed)
        if not data:
            return False
        cut = data.rfind(b"\n") + 1
        if cut == 0:
            if len(data) >= _CHUNK:  # one line longer than a chunk: read it whole (up to the line cap)
                return self._index_long_line(fd, settled)
            if not settled:
                return False  # the last line is being written
            cut = len(data)  # a last line without its newline, long unchanged: a whole record
        rows = []
        base, start = self.indexed, 0
        while start < cut:
            nl = data.find(b"\n", start, cut)
            stop = cut if nl < 0 else nl
            rows.append(self._row(data[start:stop], base + start))
            start = stop + 1
        self._store(rows)
        self.indexed = base + cut
        return True

    def _index_long_line(self, fd: int, settled: bool) -> bool:
        size, pos = self.size, self.indexed
        nl = -1
        while pos < size and (block := os.pread(fd, _CHUNK, pos)):
            i = block.find(b"\n")
            if i >= 0:
                nl = pos + i
                break
            pos += len(block)
        if nl < 0 and not settled:
            return False
        stop = nl if nl >= 0 else size
        length = stop - self.indexed
        line = os.pread(fd, length, self.indexed) if length <= MAX_LINE else b""  # over the cap: not a record
        self._store([self._row(line, self.indexed)])
        self.indexed = stop + 1 if nl >= 0 else size
        return True

    def _row(self, line: bytes, off: int) -> tuple | None:
        # never shown: Python's C-fast reader is bounded enough; pages use `_files.parse_json`
        try:
            rec = _loads(line)
        except (ValueError, RecursionError):
            return None  # a line being written, or not a record: the store sets those aside
        if not isinstance(rec, dict) or "id" not in rec:
            return None
        kind = rec.get("type", rec.get("pair"))
        code = None
        if kind is not None:
            code = self.types.get(str(kind))
            if code is None and len(self.types) < MAX_VALUES:
                code = self.types[str(kind)] = len(self.types)
        ratio = rec.get("ratio")
        if not isinstance(ratio, (int, float)) or isinstance(ratio, bool) or ratio != ratio:
            ratio = None
        elif len(self.ratios) < MAX_VALUES:
            self.ratios.add(ratio)
        judged = outcome(rec)
        judged = None if judged is None else int(judged)
        return (hash(str(rec["id"])), off, len(line), code, ratio, judged)

    def _store(self, rows: list) -> None:
        rows = [r for r in rows if r is not None]
        if rows:
            self.db.executemany("INSERT INTO items (idh, off, len, type, ratio, outcome) VALUES (?, ?, ?, ?, ?, ?)",
                                rows)
            self._search = None

    def _dedupe(self) -> None:
        """At the file's end: one row per id (the first row's place, the last line's fields)."""
        if not self.keyed:
            self.db.execute("CREATE INDEX items_idh ON items (idh, seq)")
            self.keyed = True
        last = self.db.execute("SELECT MAX(seq) FROM items").fetchone()[0] or 0
        if last <= self.deduped:
            return
        repeats = self.db.execute(
            "SELECT DISTINCT n.idh FROM items n WHERE n.seq > ? AND EXISTS "
            "(SELECT 1 FROM items o WHERE o.idh = n.idh AND o.seq < n.seq)", (self.deduped,)).fetchall()
        for (idh,) in repeats:
            rows = self.db.execute("SELECT seq, off, len, type, ratio, outcome FROM items WHERE idh = ? ORDER BY seq",
                                   (idh,)).fetchall()
            first, latest = rows[0][0], rows[-1]
            self.db.execute("UPDATE items SET off = ?, len = ?, type = ?, ratio = ?, outcome = ? WHERE seq = ?",
                            (*latest[1:], first))
            self.db.execute("DELETE FROM items WHERE idh = ? AND seq > ?", (idh, first))
        self.deduped = last
        self._search = None

    # -- answering ---------------------------------------------------------------------------
    def page(self, filters: dict[str, str], offset: int, limit: int) -> dict:
        with self.lock:
            where, args = self._where(filters)
            total = self.db.execute("SELECT COUNT(*) FROM items").fetchone()[0]
            q = (filters.get("q") or "").strip().lower()[:200]
            if q:  # the rows the other filters keep, in order, checked against the scan's offsets
                hits = self._hits(q)
                matched, rows = 0, []
                for off, length in self.db.execute(f"SELECT off, len FROM items {where} ORDER BY seq", args):
                    i = bisect.bisect_left(hits, off)
                    if i < len(hits) and hits[i] == off:
                        if offset <= matched < offset + limit:
                            rows.append((off, length))
                        matched += 1
            else:
                matched = self.db.execute(f"SELECT COUNT(*) FROM items {where}", args).fetchone()[0]
                rows = self.db.execute(f"SELECT off, len FROM items {where} ORDER BY seq LIMIT ? OFFSET ?",
                                       [*args, limit, offset]).fetchall()
            return {"total": total, "matched": matched, "types": sorted(self.types),
                    "ratios": sorted(self.ratios), "offset": offset, "items": self._views(rows),
                    "complete": self.indexed >= self.size, "indexed_bytes": self.indexed, "bytes": self.size}

    def _where(self, filters: dict[str, str]) -> tuple[str, list]:
        where: dict[str, Any] = {}  # clause -> its argument
        if filters.get("type"):
            where["type IS ?"] = self.types.get(filters["type"], -1)
        if ratio := filters.get("ratio"):
            try:
                where["ratio = ?"] = float(ratio)
            except ValueError:
                raise RunsError(f"ratio {ratio[:40]!r}: not a number", 400, "ratio") from None
        if filters.get("outcome") in OUTCOMES:
            where["outcome = ?"] = OUTCOMES[filters["outcome"]]
        return ("WHERE " + " AND ".join(where)) if where else "", list(where.values())

    def _hits(self, q: str) -> array:
        """Offsets (ascending) of indexed lines holding `q` or its JSON escape, any case."""
        if self._search is not None and self._search[0] == (q, self.indexed):
            return self._search[1]
        needles = {q.encode("utf-8"), json.dumps(q)[1:-1].lower().encode("ascii")}
        hits, pos = array("q"), 0
        with _files.regular_fd(self.path, root=self.root) as fd:
            while (pos < self.indexed
                   and (data := os.pread(fd, min(_CHUNK, self.indexed - pos), pos))):
                cut = data.rfind(b"\n") + 1 or len(data)
                low = data[:cut].lower()
                found = set()
                for needle in needles:
                    i = low.find(needle)
                    while i >= 0:
                        found.add(pos + low.rfind(b"\n", 0, i) + 1)
                        nl = low.find(b"\n", i)
                        if nl < 0:
                            break
                        i = low.find(needle, nl + 1)
                hits.extend(sorted(found))
                pos += cut
        self._search = ((q, self.indexed), hits)
        return hits

    def _views(self, rows: list[tuple[int, int]]) -> list[dict]:
        """The item views of the lines at `rows` ((offset, length)), at most `MAX_PAGE_BYTES`."""
        out, spent = [], 0
        with _files.regular_fd(self.path, root=self.root) as fd:
            for off, length in rows:
                if out and spent + length > MAX_PAGE_BYTES:
                    break
                if length > MAX_SHOWN_LINE:
                    out.append(_too_long(os.pread(fd, 4096, off), length))
                    continue
                spent += length
                rec = _record(os.pread(fd, length, off))
                if rec is not None:
                    out.append(item_view(rec))
        return out

    def record(self, item_id: str) -> dict | None:
        with self.lock:
            row = self.db.execute("SELECT off, len FROM items WHERE idh = ? ORDER BY seq DESC LIMIT 1",
                                  (hash(item_id),)).fetchone()
            if row is None:
                return None
            with _files.regular_fd(self.path, root=self.root) as fd:
                rec = _record(os.pread(fd, row[1], row[0]))
            return rec if rec is not None and str(rec.get("id")) == item_id else None


_decode = json.JSONDecoder().raw_decode  # no hooks: C-fast


def _loads(line: bytes) -> Any:
    text = line.decode("utf-8").strip()
    value, end = _decode(text)
    if end != len(text):
        raise ValueError("text after the JSON value")
    return value


def _record(line: bytes) -> dict | None:
    try:
        rec = _files.parse_json(line, where=RESULTS)
    except (ValueError, RecursionError):
        return None
    return rec if isinstance(rec, dict) else None


def _too_long(head: bytes, length: int) -> dict:
    """What the list shows of a record too long to show there: its id, if its head names it."""
    m = re.search(rb'"id"\s*:\s*"((?:[^"\\]|\\.){0,200})"', head)
    item_id = json.loads(b'"' + m.group(1) + b'"') if m else "?"
    return item_view({"id": str(item_id), "surface": f"(a record of {length:,} bytes: open it)"})


def _reason(e: OSError) -> str:
    """The file layer's one line without the path it names (the page never learns server paths)."""
    return str(e).split(": ", 1)[-1]


def outcome(rec: dict) -> bool | None:
    """Whether the run judged the item right, as its summary counts it (None: no judgement): RADD's
    `correct`, FOLIO's `voted_correct` where the voted accuracy counts it, AmP's top-1 rank 0."""
    if isinstance(rec.get("correct"), bool):
        return rec["correct"]
    if isinstance(rec.get("voted_correct"), bool):
        samples = rec.get("samples") if isinstance(rec.get("samples"), list) else []
        if rec.get("vote", "majority") != "drop-errors" and not any(
                isinstance(s, dict) and s.get("label_scored") for s in samples):
            return None
        return rec["voted_correct"]
    if "rank_lf0" in rec or "rank_lf1" in rec:
        return rec.get("rank_lf0") == 0 or rec.get("rank_lf1") == 0
    return None


def item_view(rec: dict, tokens: bool = True) -> dict:
    """What the item list shows of any suite's record (`tokens`: False leaves confidences out)."""
    preds = rec.get("predictions") if isinstance(rec.get("predictions"), list) else []
    top = preds[0] if preds and isinstance(preds[0], dict) else {}
    prediction = top.get("text", rec.get("pred", rec.get("prediction", rec.get("answer", rec.get(
        "predicted", rec.get("voted_label"))))))
    if "lf0" in rec:
        gold: Any = {"LF0": rec.get("lf0"), "LF1": rec.get("lf1")}
    else:
        gold = rec.get("label_name", rec.get("label", rec.get("gold")))
    verdict: Any = rec.get("verdict")
    if top and ("match_lf0" in top or "match_lf1" in top):
        verdict = {"LF0": top.get("match_lf0"), "LF1": top.get("match_lf1"), "top1": rec.get("top1")}
    toks = rec.get("tokens_pred") if tokens and isinstance(rec.get("tokens_pred"), list) else []
    return {"id": str(rec.get("id")), "type": rec.get("type", rec.get("pair")), "ratio": rec.get("ratio"),
            "text": rec.get("surface", rec.get("sentence", rec.get("conclusion", rec.get("utterance", "")))),
            "prediction": prediction, "gold": gold, "correct": outcome(rec), "verdict": verdict,
            "probability": top.get("probability"), "tokens": toks[:200]}
