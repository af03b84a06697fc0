"""Reading finished runs for ``ambit eval compare`` (``ambit.client.eval.compare.suite``): a run
directory's suite runs, their labels and sizes (``--label RUN=NAME[:SIZE]``), and the protocol
fields whose values differ among the runs of a suite."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ambit.client.eval.store import RUN_KEY, read_records

SUITES = ("amp-zeroshot", "amp-fewshot", "radd", "implicature")
# protocol fields compared across runs of a suite (run.json, else summary.json), with the value
# a run that does not record one ran under
PROTOCOL_FIELDS: dict[str, Any] = {
    "beam": None, "grammar": None, "match": None, "items_source": None, "ingredients": None,
    "format": None, "answer_parser": "paper", "protocol": None, "solver": None, "source": None,
    "dtype": "server default", "cot": False, "template_file": None, "max_new_tokens": None,
    "prompt_format": None, "styles": None, "limit": None, "limit_per_pair": None, "seed": None,
    "ks": None, "templates": None, "types": None, "ratios": None, "outputs": "model",
}
_SIZE = re.compile(r"^(\d+(?:\.\d+)?)\s*([kKmMbBtT]?)$")
_SCALE = {"": 1.0, "k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12}


@dataclass
class Run:
    """One finished suite run: where it is, what to call it, what it recorded."""

    dir: Path
    suite: str
    key: dict[str, Any]
    summary: dict[str, Any]
    label: str = ""
    size: float | None = None
    size_text: str | None = None
    _records: list[dict] | None = field(default=None, repr=False)

    @property
    def model(self) -> str:
        """The model (or solver) the run used."""
        return str(self.summary.get("model") or self.key.get("model") or self.summary.get("solver") or "?")

    @property
    def outputs(self) -> str:
        """Where the scored outputs came from: `model` (ambit ran one) or `recorded` (a file)."""
        return str(self.key.get("outputs", self.summary.get("outputs", "model")))

    def records(self) -> list[dict]:
        """The run's records, read once."""
        if self._records is None:
            self._records = read_records(self.dir)
        return self._records

    def protocol(self) -> dict[str, Any]:
        """The protocol fields this suite's runs record, with defaults for the unrecorded."""
        return {name: value for name, default in PROTOCOL_FIELDS.items()
                if (value := self.key.get(name, self.summary.get(name, default))) is not None}


def parse_size(text: str) -> float:
    """``135M`` → 1.35e8, ``1.7B`` → 1.7e9, ``350000`` → 3.5e5."""
    if not (m := _SIZE.match(text.strip())):
        raise ValueError(f"size {text!r}: expected a number with an optional k/M/B/T suffix (e.g. 135M, 1.7B)")
    return float(m.group(1)) * _SCALE[m.group(2).lower()]


def parse_label(text: str) -> tuple[str, str, str | None]:
    """``RUN=NAME[:SIZE]`` → (RUN, NAME, SIZE or None); a last ``:part`` that is no size stays in NAME."""
    run, sep, rest = text.partition("=")
    if not sep or not run or not rest:
        raise ValueError(f"--label {text!r}: expected RUN=NAME[:SIZE]")
    name, colon, size = rest.rpartition(":")
    if colon and name and _SIZE.match(size.strip()):
        return run, name, size.strip()
    return run, rest, None


def _read_json(path: Path, what: str) -> dict:
    if not path.is_file():
        raise FileNotFoundError(f"{path.parent}: no {path.name} ({what})")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not JSON ({e})") from None


def load_run_dir(directory: Path) -> list[Run]:
    """The suite runs of a directory: itself, or each suite of a ``ambit eval all`` index."""
    summary = _read_json(directory / "summary.json", "not a finished ambit eval run")
    if summary.get("suite") == "all":
        return [r for entry in summary.get("suites", {}).values()
                for r in load_run_dir(directory / entry["dir"])]
    suite = summary.get("suite")
    if suite not in SUITES:
        raise ValueError(f"{directory}: summary.json names suite {suite!r}, not one of {', '.join(SUITES)}")
    return [Run(directory, suite, _read_json(directory / RUN_KEY, "the run key"), summary)]


def load_runs(dirs: list[Path], labels: list[str]) -> list[Run]:
    """Every run of ``dirs``, labelled by ``--label`` (naming its directory), else by model."""
    given: dict[str, tuple[str, str | None]] = {}
    for text in labels:
        run, name, size = parse_label(text)
        if size is not None:
            parse_size(size)
        given[run.rstrip("/")] = (name, size)
    runs, used = [], set()
    for d in dirs:
        for run in load_run_dir(Path(d)):
            keys = [str(d).rstrip("/"), Path(d).name, str(run.dir).rstrip("/"), run.dir.name]
            if (hit := next((k for k in keys if k in given), None)) is not None:
                used.add(hit)
                run.label, run.size_text = given[hit]
                run.size = parse_size(run.size_text) if run.size_text else None
            runs.append(run)
    if unused := set(given) - used:
        raise ValueError(f"--label: no run directory {', '.join(sorted(unused))} among {', '.join(map(str, dirs))}")
    groups: dict[tuple[str, str], list[Run]] = {}
    for run in runs:  # every unlabelled run of a suite and model, before any gets its label
        if not run.label:
            groups.setdefault((run.suite, run.model), []).append(run)
    taken = {(r.suite, r.label) for r in runs if r.label}
    for (suite, model), twins in groups.items():
        names = [model] if len(twins) == 1 else _twin_names(model, twins)
        mixed = len({r.outputs for r in runs if r.suite == suite}) > 1
        for run, name in zip(twins, names):
            if mixed and run.outputs == "model":  # beside recorded outputs, say which ran a model
                name = f"{name} [model run]"
            run.label = name if (suite, name) not in taken else f"{name} ({run.dir.name})"
            taken.add((suite, run.label))
    return runs


def _twin_names(model: str, twins: list[Run]) -> list[str]:
    """Distinct labels for runs of one model and suite: the options that differ, else the folder."""
    fields = differences_of([r.protocol() for r in twins])
    if fields:
        names = [f"{model} ({', '.join(f'{k}={_short(r.protocol().get(k))}' for k in fields)})" for r in twins]
        if len(set(names)) == len(names):
            return names
    names = [f"{model} ({r.dir.name})" for r in twins]
    if len(set(names)) == len(names):
        return names
    return [f"{model} ({r.dir})" for r in twins]


def _short(value: Any) -> str:
    """A protocol value as a label shows it: lists joined by commas, at most 24 characters."""
    text = ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
    return text if len(text) <= 24 else text[:23] + "…"


def differences_of(protocols: list[dict[str, Any]]) -> list[str]:
    """The protocol fields whose values differ among `protocols`, in PROTOCOL_FIELDS' order."""
    return [name for name in PROTOCOL_FIELDS
            if len({json.dumps(p.get(name), sort_keys=True) for p in protocols}) > 1]


def differences(runs: list[Run]) -> dict[str, dict[str, Any]]:
    """{field: {label: value}} for each protocol field whose value differs among ``runs``."""
    protocols = {r.label: r.protocol() for r in runs}
    out = {}
    for name in sorted({k for p in protocols.values() for k in p}):
        values = {label: p.get(name) for label, p in protocols.items()}
        if len({json.dumps(v, sort_keys=True) for v in values.values()}) > 1:
            out[name] = values
    return out
