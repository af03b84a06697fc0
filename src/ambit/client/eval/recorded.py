"""The one reading core of recorded outputs (another system's, scored with no model): AmP's
``--predictions``, implicature's ``--responses`` and FOLIO's ``--translations``. Shared here: the
bounded read with one ValueError naming option and file, lines keyed by every way they name their
item, and the coverage; each suite's ``recorded`` module keeps only what differs."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ambit import _files
from ambit.client.eval import metrics as M


def rows(path: Path, option: str, max_line: int = _files.MAX_LINE,
         set_aside: Callable[[int, str], bool] | None = None) -> Iterator[tuple[str, Any]]:
    """(``path:line``, value) per non-blank line; an unreadable file is one ValueError naming it."""
    try:
        yield from _files.iter_json_rows(path, max_line, set_aside=set_aside)
    except FileNotFoundError:
        raise ValueError(f"{option}: no such file {path}") from None
    except OSError as e:
        raise ValueError(f"{option} {e}") from None


def shown(x: Any) -> str:
    """A JSON value as an error names it, cut short."""
    text = json.dumps(x, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def check_name(row: dict, field: str, where: str) -> None:
    """A field naming an item (``id``, ``example_id``), when present: a string or a whole number."""
    if field in row and (isinstance(row[field], bool) or not isinstance(row[field], (str, int))):
        raise ValueError(f"{where}: field '{field}' must be a string (or a whole number), not {shown(row[field])}")


@dataclass(frozen=True)
class Keyed:
    """A recorded file with one line per item, read: its lines by every key naming their item."""

    path: Path
    lines: dict[str, dict]

    PARTS: ClassVar[tuple[str, ...]]  # the fields that name an item without its id
    HOW: ClassVar[str]  # how else a line may name its item, as an error says it
    OTHER_NAMES: ClassVar[str]  # the same, as the coverage says it (summary.json: other_names)
    WHAT: ClassVar[str]  # "recorded predictions"
    OPTION: ClassVar[str]  # "--predictions"

    keys: ClassVar[Callable[[dict], tuple[str, ...]]]  # an item's (or a line's) keys: its id, its own fields
    name: ClassVar[Callable[[dict], str]]  # how a line names its item, as the coverage lists it

    @classmethod
    def read_lines(cls, path: Path, check: Callable[[dict, str], dict]) -> dict[str, dict]:
        """The file's lines by key, each checked by ``check(row, where)``; no item named twice."""
        lines: dict[str, dict] = {}
        for where, row in rows(path, cls.OPTION):
            if not isinstance(row, dict):
                raise ValueError(f"{where}: a line must be a JSON object")
            if "id" not in row and not all(f in row for f in cls.PARTS):
                raise ValueError(f"{where}: name the item by 'id', or by {cls.HOW}")
            check_name(row, "id", where)
            row = check(row, where)
            row["_where"] = where
            for k in cls.keys(row):
                if k in lines:
                    raise ValueError(f"{where}: item {k!r} again (first at {lines[k]['_where']})")
                lines[k] = row
        return lines

    def find(self, item: dict) -> dict | None:
        """The line for ``item`` (by id, else by its own fields), or None."""
        return next((self.lines[k] for k in self.keys(item) if k in self.lines), None)

    def unmatched(self, items: Sequence[dict]) -> list[dict]:
        """The lines that name no item of this run, in file order."""
        used = {id(self.find(it)) for it in items}
        rest = {id(row): row for row in self.lines.values() if id(row) not in used}
        return sorted(rest.values(), key=lambda row: int(row["_where"].rpartition(":")[2]))

    def coverage(self, items: Sequence[dict]) -> dict:
        """How much of the run the file covers (``metrics.coverage``)."""
        matched = sum(self.find(it) is not None for it in items)
        cov = M.coverage([it["id"] for it in items], matched, [self.name(r) for r in self.unmatched(items)],
                         self.OTHER_NAMES)
        return {**cov, "what": self.WHAT, "option": self.OPTION, "file": str(self.path)}


class FromFile:
    """The coverage and model name of a suite whose settings may hold a recorded file."""

    def coverage(self, items: Sequence[dict], ctx: Any) -> dict | None:
        """The recorded file's coverage of ``items``."""
        rec = ctx.settings.recorded
        return None if rec is None else rec.coverage(items)

    @staticmethod
    def model(ctx: Any) -> str | None:
        """The model the summary names: the recorded file, else the server's."""
        rec = ctx.settings.recorded
        return f"recorded: {rec.path.name}" if rec is not None else ctx.model
