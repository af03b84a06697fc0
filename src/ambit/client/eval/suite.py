"""The one protocol every evaluation suite implements (options, items, one record per item,
summary, reports). Settings are one frozen dataclass made once per command (:meth:`Suite.configure`)
and completed once per run (:meth:`Suite.resolve`); one runner and one resumable store serve all.
"""

from __future__ import annotations

import argparse
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ambit._paths import default_data_root

# ``--data``'s default ($AMBIT_DATA, else ../shared/data), told apart from a given one by identity
DEFAULT_DATA = default_data_root()
HOW_TO_POINT = "point ambit at a data root with --data DIR or $AMBIT_DATA (default ../shared/data)"


@dataclass(frozen=True)
class MissingData:
    """Reference data a suite needs and cannot find; the suite is skipped before any model work."""

    suite: str
    files: tuple[Path, ...]
    dataset: str
    origin: str  # the public repository (and path in it) the data set comes from
    layout: str  # where the files go under the data root

    def line(self) -> str:
        return f"skipped {self.suite}: {self.reason()}"

    def reason(self) -> str:
        """What is missing, where it comes from and how to point ambit at it."""
        return (f"missing {', '.join(map(str, self.files))} — {self.dataset}, from {self.origin}; "
                f"put {'them' if len(self.files) > 1 else 'it'} under <data root>/{self.layout} and {HOW_TO_POINT}")

    def to_dict(self) -> dict[str, Any]:
        return {"reason": "missing data", "files": [str(f) for f in self.files],
                "dataset": self.dataset, "origin": self.origin, "layout": self.layout,
                "message": self.line()}


@dataclass(frozen=True)
class Common:
    """The options every suite of one ``ambit eval`` command shares (``client.eval.cli.common``);
    each suite's settings are a frozen subclass, so nothing writes into the argparse namespace."""

    command: str  # the sub-command: a suite's name, or "all"
    out: Path
    data: tuple[Path, ...]  # --data: the data root (radd takes several files or folders)
    data_given: bool  # named on the command line: then it must hold what the suites need
    limit: int | None
    seed: int
    workers: int | None
    timeout: float
    model: str | None
    dtype: str | None
    allow_partial: bool

    @property
    def root(self) -> Path:
        """The data root of a run: ``--data`` (the first path where a suite takes several)."""
        return self.data[0]


@dataclass(frozen=True)
class Option:
    """One command-line option: ``parser.add_argument(*flags, **kwargs)``."""

    flags: tuple[str, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(*self.flags, **self.kwargs)


def option(*flags: str, **kwargs: Any) -> Option:
    return Option(tuple(flags), kwargs)


class Named(argparse.Action):
    """``store``, remembering that the option was given: a data file named so is required."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        setattr(namespace, self.dest, values)
        namespace.named_options = {*named(namespace), self.dest}


def named(args: argparse.Namespace) -> frozenset[str]:
    """The options stored with ``Named`` that were given on the command line."""
    return frozenset(getattr(args, "named_options", ()))


def csv_of(cast: Callable[[str], Any]) -> Callable[[str], list]:
    """An argparse ``type`` for comma-separated values: ``"0,0.5,1"`` → ``[0.0, 0.5, 1.0]``."""
    def parse(text: str) -> list:
        try:
            return [cast(x) for x in text.split(",") if x.strip()]
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None
    return parse


@dataclass(frozen=True)
class RunContext:
    """What one suite run sees: its settings, output folder and server (None: runs in-process)."""

    settings: Any  # the suite's frozen settings, a subclass of Common
    out: Path
    client: Any = None
    model: str | None = None

    @property
    def workers(self) -> int:
        servers = len(self.client.servers) if self.client is not None else 1
        return self.settings.workers or max(1, servers)


class Suite(ABC):
    """A named evaluation: items → one record per item → summary → reports."""

    name: str  # the sub-command (``ambit eval <name>``)

    def desc(self, s: Any) -> str:
        """The label of progress lines and of ``errors.jsonl`` entries (``s``: the settings)."""
        return self.name

    def options(self) -> Sequence[Option]:
        """This suite's own options (besides the common ones of ``client.eval.cli``)."""
        return ()

    def configure(self, args: argparse.Namespace, common: Common) -> Any:
        """This suite's frozen settings from the parsed arguments, the one place they are read."""
        return common

    def resolve(self, ctx: RunContext) -> Any:
        """The settings completed once per run, before any item (``auto`` resolved, a file read)."""
        return ctx.settings

    def needs_server(self, s: Any) -> bool:
        return True

    def needs(self, s: Any, caps: set[str]) -> list[tuple[str, str]]:
        """(capability, what needs it) for a model served elsewhere (client.eval.remote)."""
        return []

    def missing_data(self, s: Any) -> MissingData | None:
        """What reference data this run needs and cannot find; None when it has all it needs."""
        return None

    def fallback(self, s: Any) -> str | None:
        """What this run would generate because the data root lacks it (None: nothing)."""
        return None

    def coverage(self, items: Sequence[dict[str, Any]], ctx: RunContext) -> dict[str, Any] | None:
        """A recorded run's coverage of ``items``, before any item runs (None: ambit's outputs)."""
        return None

    @abstractmethod
    def run_key(self, ctx: RunContext) -> dict[str, Any]:
        """The arguments that define the run: a rerun resumes only under an equal key."""

    @abstractmethod
    def items(self, ctx: RunContext) -> list[dict[str, Any]]:
        """Work items, each with a unique ``id``."""

    @abstractmethod
    def processor(self, ctx: RunContext) -> Callable[[dict[str, Any]], dict[str, Any]]:
        """``process(item) -> record``: the work for one item."""

    @abstractmethod
    def summarise(self, records: Sequence[dict], items: Sequence[dict], ctx: RunContext) -> dict:
        """``summary.json`` from the finished records (sorted by id; ``items`` in suite order)."""

    @abstractmethod
    def write_reports(self, records: Sequence[dict], summary: dict, ctx: RunContext) -> None:
        """``summary.json``, ``summary.md`` and plots into ``ctx.out``."""

    @abstractmethod
    def headline(self, summary: dict) -> str:
        """One line for the index of ``ambit eval all``."""
