"""The runs viewer's reads: the `--out` folders given with `--runs`, and nothing else.

A run is any folder under a root (the root itself included, at most `MAX_DEPTH` folders down)
that holds `results.jsonl` or `summary.json`. Folders are found without following symbolic
links, a request names a run by the id this listing gave it (never by a path), and every file is
read through `ambit._files` relative to its root (one component at a time, no link followed out
of the root, regular files only, each with a byte limit; JSONL line by line under a line cap):
no request reads outside the folders on the command line.
"""

from __future__ import annotations

import json
import os
import stat
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
MAX_RESULTS_BYTES = 256 * 1024 * 1024  # the records a viewer holds in memory for one run
MAX_PAGE = 500
SHOWN = {".png": "image/png", ".md": "text/plain; charset=utf-8", ".json": "application/json"}


class RunsError(Exception):
    """A run or file a request named that is not one the viewer serves (404), or too large (413)."""

    def __init__(self, message: str, status: int = 404) -> None:
        super().__init__(message)
        self.status = status


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
        self._cache: dict[tuple[str, str], tuple[tuple[int, int], Any]] = {}

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
        fd = self._open_dir(run)
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
        """The bytes of `name` in the run's folder: a plain name of a regular file, at most `limit`
        bytes, read through `ambit._files` under the run's root (no link followed out of it)."""
        try:
            return _files.read_bytes(self._path(run, name), limit, root=self.roots[run.root])
        except _files.FileError as e:
            raise RunsError(f"{name!r} in run {run.id}: {_reason(e)}", 413 if "larger than" in str(e) else 404) \
                from None

    def _path(self, run: Run, name: str) -> str:
        if name in ("", ".", "..") or "/" in name or "\\" in name or "\0" in name:
            raise RunsError(f"{name!r}: not a file name")
        return "/".join((*run.rel, name))

    def _open_dir(self, run: Run) -> int:
        """A descriptor of the run's folder, reached from its root without following any link."""
        try:
            return _files.open_dir("/".join(run.rel) or ".", root=self.roots[run.root])
        except _files.FileError:
            raise RunsError(f"run {run.id} is gone") from None

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
            try:
                out["summary"] = _files.parse_json(self.read(run, SUMMARY), where=SUMMARY)
            except ValueError:
                out["summary"] = None
        if SUMMARY_MD in files:
            out["markdown"] = self.read(run, SUMMARY_MD).decode("utf-8", "replace")
        return out

    def records(self, run: Run) -> list[dict]:
        """The run's records, in file order (a later line of the same id wins), cached until the file changes."""
        files = self.files(run)
        meta = files.get(RESULTS)
        if meta is None:
            return []
        if meta["size"] > MAX_RESULTS_BYTES:
            raise RunsError(f"{RESULTS} in run {run.id}: {meta['size']:,} bytes, over the viewer's limit of "
                            f"{MAX_RESULTS_BYTES:,}", 413)
        key, stamp = (run.id, RESULTS), (meta["size"], int(meta["mtime"] * 1e6))
        cached = self._cache.get(key)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        by_id: dict[str, dict] = {}
        try:
            for line in _files.iter_jsonl_lines(self._path(run, RESULTS), root=self.roots[run.root]):
                try:
                    rec = None if line.problem else _files.parse_json(line.raw, where=RESULTS, line=line.number)
                except ValueError:
                    rec = None  # a line being written, or not a record: the store sets those aside
                if isinstance(rec, dict) and "id" in rec:
                    by_id[str(rec["id"])] = rec
        except _files.FileError as e:
            raise RunsError(f"{RESULTS} in run {run.id}: {_reason(e)}") from None
        records = list(by_id.values())
        self._cache[key] = (stamp, records)
        return records

    def items(self, run_id: str, filters: dict[str, str], offset: int = 0, limit: int = 100) -> dict:
        """One page of the run's items, as `item_view`s, after the filters (type, ratio, outcome, q)."""
        run = self.find(run_id)
        views = [item_view(r) for r in self.records(run)]
        kept = [v for v in views if _keep(v, filters)]
        limit = max(1, min(limit, MAX_PAGE))
        return {"run": run_id, "total": len(views), "matched": len(kept),
                "types": sorted({str(v["type"]) for v in views if v["type"] is not None}),
                "ratios": sorted({v["ratio"] for v in views if isinstance(v["ratio"], (int, float))}),
                "offset": offset, "items": kept[offset: offset + limit]}

    def record(self, run_id: str, item_id: str) -> dict:
        for rec in self.records(self.find(run_id)):
            if str(rec["id"]) == item_id:
                return rec
        raise RunsError(f"no item {item_id!r} in run {run_id}")


def _reason(e: OSError) -> str:
    """The file layer's one line without the path it names (the page never learns server paths)."""
    return str(e).split(": ", 1)[-1]


def _keep(view: dict, filters: dict[str, str]) -> bool:
    if filters.get("type") and str(view["type"]) != filters["type"]:
        return False
    if filters.get("ratio") and str(view["ratio"]) != filters["ratio"]:
        return False
    outcome = filters.get("outcome")
    if outcome in ("right", "wrong") and view["correct"] is not (outcome == "right"):
        return False
    q = (filters.get("q") or "").lower()
    return not q or q in json.dumps([view["id"], view["text"], view["prediction"], view["gold"]]).lower()


def item_view(rec: dict) -> dict:
    """What the item list shows of any suite's record: id, type, ratio, the input text, the
    prediction against the gold, whether it was right, the verdict with its witness, and the
    token confidences of the prediction."""
    preds = rec.get("predictions") if isinstance(rec.get("predictions"), list) else []
    top = preds[0] if preds and isinstance(preds[0], dict) else {}
    prediction = top.get("text", rec.get("pred", rec.get("prediction", rec.get("answer"))))
    if "lf0" in rec:
        gold: Any = {"LF0": rec.get("lf0"), "LF1": rec.get("lf1")}
    else:
        gold = rec.get("label_name", rec.get("label", rec.get("gold")))
    correct = rec.get("correct") if isinstance(rec.get("correct"), bool) else None
    verdict: Any = rec.get("verdict")
    if top and ("match_lf0" in top or "match_lf1" in top):
        verdict = {"LF0": top.get("match_lf0"), "LF1": top.get("match_lf1"), "top1": rec.get("top1")}
    tokens = rec.get("tokens_pred") if isinstance(rec.get("tokens_pred"), list) else []
    return {"id": str(rec.get("id")), "type": rec.get("type", rec.get("pair")), "ratio": rec.get("ratio"),
            "text": rec.get("surface", rec.get("sentence", rec.get("conclusion", rec.get("utterance", "")))),
            "prediction": prediction, "gold": gold, "correct": correct, "verdict": verdict,
            "probability": top.get("probability"), "tokens": tokens[:200]}
