"""The runs viewer at the size of its page, whatever the run's size (`web.runs.RunIndex`): a large
`results.jsonl` is indexed in slices (a first page at once, `complete` once read to its end), a
page reads only its own lines and at most `MAX_PAGE_BYTES` of them, filters and text search run
without parsing the records they leave out, a later line of an id replaces it in place, a file
rewritten is read again; what each suite's record says of its outcome; and (slow) a run of
400,000 records indexed in a bounded amount of memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ambit.web import runs as R
from ambit.web.runs import Runs, outcome
from tests.paths import REPO


def _write(path: Path, n: int, extra: list[dict] | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as fh:
        for i in range(n):
            kind = ("pp", "scope", "conj")[i % 3]
            fh.write(json.dumps({"id": f"{kind}/{i}", "type": kind, "ratio": (0.0, 1.0)[i % 2],
                                 "surface": f"sentence {i} café", "rank_lf0": 0 if i % 4 == 0 else None,
                                 "rank_lf1": None, "predictions": [{"text": "exists x . a(x)"}]}) + "\n")
        for rec in extra or []:
            fh.write(json.dumps(rec) + "\n")


def test_a_large_run_answers_its_first_page_before_it_is_read_to_the_end(tmp_path, monkeypatch):
    _write(tmp_path / "run" / "results.jsonl", 30_000)
    monkeypatch.setattr(R, "INDEX_SLICE_S", 0.0)  # one chunk a request
    monkeypatch.setattr(R, "_CHUNK", 64 * 1024)
    runs = Runs([tmp_path])
    first = runs.items("0/run", {}, 0, 50)
    assert first["complete"] is False and 0 < first["total"] < 30_000 and len(first["items"]) == 50
    assert 0 < first["indexed_bytes"] < first["bytes"]
    for _ in range(1000):
        page = runs.items("0/run", {}, 0, 50)
        if page["complete"]:
            break
    assert page["complete"] and page["total"] == 30_000 and page["indexed_bytes"] == page["bytes"]
    runs.close()


def test_a_page_reads_only_its_own_lines_and_at_most_its_byte_budget(tmp_path, monkeypatch):
    _write(tmp_path / "run" / "results.jsonl", 5_000)
    runs = Runs([tmp_path])
    runs.items("0/run", {}, 0, 1)  # indexed
    read: list[int] = []
    real = R._record
    monkeypatch.setattr(R, "_record", lambda line: read.append(len(line)) or real(line))
    page = runs.items("0/run", {"type": "scope", "outcome": "right"}, 100, 20)
    assert len(page["items"]) == 20 and len(read) == 20
    assert page["matched"] == len([i for i in range(5_000) if i % 3 == 1 and i % 4 == 0])
    assert all(it["type"] == "scope" and it["correct"] is True for it in page["items"])
    monkeypatch.setattr(R, "MAX_PAGE_BYTES", 3 * read[0])
    assert len(runs.items("0/run", {}, 0, 100)["items"]) == 3  # the page stops short at its bytes
    runs.close()


def test_text_search_scans_bytes_and_finds_json_escapes(tmp_path):
    _write(tmp_path / "run" / "results.jsonl", 3_000)
    runs = Runs([tmp_path])
    assert runs.items("0/run", {"q": "sentence 2999 café"}, 0, 10)["matched"] == 1
    assert runs.items("0/run", {"q": "CAFÉ"}, 0, 10)["matched"] == 3_000  # written as caf\u00e9
    hit = runs.items("0/run", {"q": "Sentence 12 café", "type": "pp"}, 0, 10)
    assert hit["matched"] == 1 and hit["items"][0]["id"] == "pp/12"
    assert runs.items("0/run", {"q": "sentence 13 café", "type": "pp"}, 0, 10)["matched"] == 0
    runs.close()


def test_a_later_line_of_an_id_replaces_it_in_place_and_a_rewritten_file_is_read_again(tmp_path):
    path = tmp_path / "run" / "results.jsonl"
    _write(path, 10, extra=[{"id": "pp/0", "type": "pp", "surface": "second try", "correct": False}])
    runs = Runs([tmp_path])
    page = runs.items("0/run", {}, 0, 100)
    assert page["total"] == 10 and page["items"][0]["id"] == "pp/0" and page["items"][0]["text"] == "second try"
    assert runs.record("0/run", "pp/0")["surface"] == "second try"
    with open(path, "a") as fh:  # appended: read from where the index stopped
        fh.write(json.dumps({"id": "new/1", "type": "new"}) + "\n")
    page = runs.items("0/run", {}, 0, 100)
    assert page["total"] == 11 and page["items"][-1]["id"] == "new/1" and "new" in page["types"]
    replacement = tmp_path / "tmp.jsonl"  # rewritten (a new file in its place): read again
    replacement.write_text(json.dumps({"id": "only", "type": "pp"}) + "\n")
    os.replace(replacement, path)
    page = runs.items("0/run", {}, 0, 100)
    assert page["total"] == 1 and page["items"][0]["id"] == "only"
    runs.close()


def test_a_last_line_without_its_newline_waits_until_it_has_settled(tmp_path, monkeypatch):
    path = tmp_path / "run" / "results.jsonl"
    path.parent.mkdir()
    path.write_text(json.dumps({"id": "a"}) + "\n" + json.dumps({"id": "b"}))
    runs = Runs([tmp_path])
    assert runs.items("0/run", {}, 0, 10)["total"] == 1  # "b" may still be being written
    monkeypatch.setattr(R, "SETTLED_S", 0.0)
    assert runs.items("0/run", {}, 0, 10)["total"] == 2  # unchanged since: a whole record
    runs.close()


def test_at_most_max_open_indexes_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(R, "MAX_OPEN", 2)
    for name in ("a", "b", "c"):
        _write(tmp_path / name / "results.jsonl", 10)
    runs = Runs([tmp_path])
    for name in ("a", "b", "c"):
        runs.items(f"0/{name}", {}, 0, 1)
    assert list(runs._indexes) == ["0/b", "0/c"] and len(os.listdir(runs._tmp)) == 2
    folder = runs._tmp
    runs.close()
    assert not os.path.exists(folder)


@pytest.mark.parametrize("rec, judged", [
    ({"rank_lf0": 0, "rank_lf1": None}, True),  # AmP: the top-1 prediction matches LF0
    ({"rank_lf0": None, "rank_lf1": 0}, True),  # ... or LF1
    ({"rank_lf0": 2, "rank_lf1": None, "top1": None}, False),  # a gold LF, but not at the top
    ({"rank_lf0": None, "rank_lf1": None, "predictions": []}, False),  # no prediction: wrong, as counted
    ({"correct": True}, True), ({"correct": False}, False),  # RADD, implicature
    ({"voted_correct": True, "vote": "majority", "samples": [{"label_scored": True}]}, True),  # FOLIO
    ({"voted_correct": False, "vote": "majority", "samples": [{"label_scored": False}]}, None),  # not counted
    ({"voted_correct": False, "vote": "drop-errors", "samples": []}, False),
    ({"surface": "no judgement"}, None),
])
def test_the_outcome_of_each_suites_record(rec, judged):
    assert outcome({"id": "x", **rec}) is judged


@pytest.mark.slow  # writes a 75 MB run and indexes it: 20-40 s on two loaded cores
def test_a_large_run_is_indexed_in_bounded_memory(tmp_path):
    """400,000 records (75 MB): indexing the whole run and answering pages and searches raises
    the process's peak memory by less than 200 MB (the records themselves, held as the viewer
    held them before, took about 1 KB each: 400 MB and more)."""
    _write(tmp_path / "run" / "results.jsonl", 400_000)
    script = f"""
import resource, sys
from ambit.web import runs as R
R.INDEX_SLICE_S = 1e9
runs = R.Runs([{str(tmp_path)!r}])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
page = runs.items("0/run", {{}}, 0, 100)
assert page["complete"] and page["total"] == 400_000, page["total"]
assert runs.items("0/run", {{"q": "sentence 39999"}}, 0, 100)["matched"] == 11
assert runs.items("0/run", {{"outcome": "right"}}, 300_000, 100)["matched"] == 100_000
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    assert out.returncode == 0, out.stderr[-2000:]
    grew_mb = int(out.stdout.split()[-1])
    assert grew_mb < 200, f"indexing 400,000 records raised peak memory by {grew_mb} MB"
