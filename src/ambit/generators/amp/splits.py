"""Test and train items of AmP's evaluation: AmP's released archives (`amp-release`), extracted
once into `$AMBIT_CACHE/amp-release` (their licence forbids redistributing them as text), or
without them a seeded partition of the generated utterances (`generated`)."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import tarfile
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ambit import logic

from ambit.generators.amp.generate import pairs, realise
from ambit.generators.amp.spec import Template, families, lexicon

SOURCES = ("amp-release", "generated")
HELDOUT_TEST = 200           # generated test utterances per type, as many as AmP's zero-shot test
FEWSHOT_TEST = 100           # few-shot test utterances per type, as in AmP's few-shot test split
FEWSHOT_DIR = "50-50-5k-train-100-perc-ambig_fol"


class ReleaseError(ValueError):
    """A released AmP file that cannot be read as AmP's rows (names the file and line)."""


@dataclass(frozen=True)
class Split:
    """Test and train utterances of one type (pair records, as `generate.pairs` writes them)."""

    test: tuple[dict, ...]
    train: tuple[dict, ...]
    source: str  # amp-release | generated


def cache_root() -> Path:
    return Path(os.environ.get("AMBIT_CACHE") or Path.home() / ".cache" / "ambit") / "amp-release"


def zeroshot_archive(data: Path, name: str) -> Path:
    return Path(data) / "amp" / "zeroshot" / f"{name}_fol" / "data.tar.gz"


def fewshot_archive(data: Path) -> Path:
    return Path(data) / "amp" / "fewshot" / FEWSHOT_DIR / "data.tar.gz"


def release_available(data: Path, setting: str, names: list[str]) -> bool:
    """Whether the archives a setting needs for `names` are all under `data`."""
    if setting == "zeroshot":
        return all(zeroshot_archive(data, n).is_file() for n in names)
    if setting == "fewshot":
        return fewshot_archive(data).is_file()
    raise ValueError(f"unknown setting {setting!r} (zeroshot or fewshot)")


def extracted(archive: Path) -> Path:
    """The folder `archive` is extracted into (once; keyed by its path, size and mtime)."""
    st = archive.stat()
    key = hashlib.sha256(f"{archive.resolve()}:{st.st_size}:{st.st_mtime_ns}".encode()).hexdigest()[:16]
    dest = cache_root() / f"{archive.parent.name}-{key}"
    if dest.is_dir():
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=dest.parent, prefix=".extract-"))
    try:
        with tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
        os.replace(tmp, dest)
    except OSError:
        if not dest.is_dir():
            raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return dest


def _names_by_release_type() -> dict[str, str]:
    """AmP's row `type` -> ambit's type name (`scope_reverse` -> `revscope`)."""
    return {f.type: f.name for f in families().values() if f.ambiguous}


def read_pairs(path: Path) -> dict[str, list[dict]]:
    """An `*_eval.jsonl` file as pair records by ambit type name, in file order."""
    names = _names_by_release_type()
    rows: dict[tuple[str, str], dict[int, dict]] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            key, idx = (row["type"], row["surface"]), int(row["template_idx"])
            row["lf"], row["var_bindings"]
        except (ValueError, KeyError, TypeError) as err:
            raise ReleaseError(f"{path}:{n}: not an AmP row ({err})") from None
        if row["type"] not in names:
            raise ReleaseError(f"{path}:{n}: type {row['type']!r} is not an ambiguous AmP type")
        rows.setdefault(key, {})[idx] = row
    out: dict[str, list[dict]] = {}
    for (rtype, surface), by_idx in rows.items():
        if set(by_idx) != {0, 1}:
            raise ReleaseError(f"{path}: {surface!r} lacks LF{1 - next(iter(by_idx))}")
        r0, r1 = by_idx[0], by_idx[1]
        out.setdefault(names[rtype], []).append(
            {"surface": surface, "lf0": r0["lf"], "lf1": r1["lf"], "type": rtype, "name": names[rtype],
             "row0": r0, "row1": r1, "template": None})
    return out


def _template_for(name: str, item: dict) -> Template | None:
    """The template of type `name` that reproduces the item's surface and LFs, or None."""
    lex, bindings = lexicon(), item["row0"]["var_bindings"]
    want = (logic.canonical_form(item["lf0"]), logic.canonical_form(item["lf1"]))
    for t in families()[name].templates:
        if set(t.slots) != set(bindings) or len(t.lfs) != 2:
            continue
        by_lf = {s: {w.lf: w for w in lex.words(cls)} for s, cls in t.slots.items()}
        if not all(bindings[s] in by_lf[s] for s in t.slots):
            continue
        if realise(t, {s: by_lf[s][bindings[s]] for s in t.slots}, lex) != item["surface"]:
            continue
        if tuple(logic.canonical_form(lf.format(**bindings)) for lf in t.lfs) == want:
            return t
    return None


def attach_templates(name: str, items: list[dict]) -> list[dict]:
    """The items with `template` set to the generator's template they were made from (or None)."""
    return [{**it, "template": _template_for(name, it)} for it in items]


@cache
def _release_zeroshot(archive: Path) -> dict[str, tuple[dict, ...]]:
    by_name = read_pairs(extracted(archive) / "test_eval.jsonl")
    return {n: tuple(attach_templates(n, items)) for n, items in by_name.items()}


@cache
def _release_fewshot(archive: Path) -> tuple[dict[str, list[dict]], dict[str, list[dict]]]:
    folder = extracted(archive)
    return read_pairs(folder / "test_eval.jsonl"), read_pairs(folder / "train_eval.jsonl")


@cache
def heldout_split(name: str, seed: int) -> Split:
    """A seeded partition of the type's generated utterances: `HELDOUT_TEST` test, the rest train;
    an utterance with several fillings stays on one side."""
    all_pairs = pairs(name)
    surfaces = sorted({p["surface"] for p in all_pairs})
    random.Random(f"amp-heldout:{seed}:{name}").shuffle(surfaces)
    test_surfaces = set(surfaces[:HELDOUT_TEST])
    order = {s: i for i, s in enumerate(surfaces)}
    test = sorted((p for p in all_pairs if p["surface"] in test_surfaces), key=lambda p: order[p["surface"]])
    train = tuple(p for p in all_pairs if p["surface"] not in test_surfaces)
    return Split(tuple(test), train, "generated")


def zeroshot_split(name: str, data: Path | None, seed: int) -> Split:
    """Zero-shot test items of type `name`: AmP's released split, else the generated one."""
    if data is not None and zeroshot_archive(data, name).is_file():
        items = _release_zeroshot(zeroshot_archive(data, name).resolve()).get(name, ())
        return Split(tuple(items), (), "amp-release")
    return heldout_split(name, seed)


def fewshot_split(name: str, data: Path | None, seed: int) -> Split:
    """Few-shot test items and train pool of type `name`, released or generated."""
    if data is not None and fewshot_archive(data).is_file():
        test, train = _release_fewshot(fewshot_archive(data).resolve())
        return Split(tuple(test.get(name, ())[:FEWSHOT_TEST]), tuple(train.get(name, ())), "amp-release")
    split = heldout_split(name, seed)
    return Split(split.test[:FEWSHOT_TEST], split.train, split.source)
