"""AmP's test/train splits (generators/amp/splits.py): the released ones read from the
archives, matched to the generator's templates, and the generated held-out partition."""

from __future__ import annotations

import json

import pytest

from ambit.generators.amp import families, pairs, splits
from tests.paths import need_shared


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("AMBIT_CACHE", str(tmp_path / "cache"))
    # the releases read so far in this process are memoised: read them again from this cache
    splits._release_zeroshot.cache_clear()
    splits._release_fewshot.cache_clear()
    return tmp_path / "cache"


@pytest.mark.parametrize("name", ["pp", "bound", "conj"])
def test_heldout_split_partitions_utterances(name):
    split = splits.heldout_split(name, 0)
    test, train = {p["surface"] for p in split.test}, {p["surface"] for p in split.train}
    assert len(test) == splits.HELDOUT_TEST and not test & train
    assert len(split.test) + len(split.train) == len(pairs(name))
    assert [p["surface"] for p in splits.heldout_split(name, 1).test] != [p["surface"] for p in split.test]
    assert split.source == "generated"


@pytest.mark.parametrize("name", ["pp", "scope", "revscope", "bound", "conj"])
def test_released_zeroshot_items_all_match_a_template(name, cache):
    data = need_shared(f"amp/zeroshot/{name}_fol").parents[2]
    split = splits.zeroshot_split(name, data, 0)
    assert split.source == "amp-release" and len(split.test) == 200
    assert all(it["name"] == name and it["type"] == families()[name].type for it in split.test)
    assert sum(it["template"] is not None for it in split.test) == 200
    assert any(cache.iterdir())  # extracted into the cache folder, nowhere else


def test_released_fewshot_split(cache):
    data = need_shared("amp/fewshot").parents[1]
    split = splits.fewshot_split("revscope", data, 0)
    assert len(split.test) == splits.FEWSHOT_TEST and len(split.train) == 1000
    assert not {p["surface"] for p in split.test} & {p["surface"] for p in split.train}
    assert {p["type"] for p in split.test} == {"scope_reverse"}


def test_template_matching_rejects_other_readings():
    item = dict(pairs("scope")[0], template=None)
    matched = splits.attach_templates("scope", [item])[0]["template"]
    assert matched is not None and matched.surface == pairs("scope")[0]["template"].surface
    swapped = {**item, "lf0": item["lf1"], "lf1": item["lf0"]}
    assert splits.attach_templates("scope", [swapped])[0]["template"] is None


def test_bad_release_rows_are_named(tmp_path):
    path = tmp_path / "test_eval.jsonl"
    row = {"surface": "a b", "lf": "exists x . b(x)", "var_bindings": {}, "template_idx": 0, "type": "pp"}
    path.write_text(json.dumps(row) + "\n" + '{"surface": 1}\n')
    with pytest.raises(splits.ReleaseError, match=r"test_eval.jsonl:2: not an AmP row"):
        splits.read_pairs(path)
    path.write_text(json.dumps(row) + "\n")
    with pytest.raises(splits.ReleaseError, match="lacks LF1"):
        splits.read_pairs(path)
    path.write_text(json.dumps({**row, "type": "unambig"}) + "\n")
    with pytest.raises(splits.ReleaseError, match="not an ambiguous AmP type"):
        splits.read_pairs(path)
