"""Implicature pairs: loader counts, template parsing, prompt structure, determinism, CLI."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from ambit.generators.__main__ import main as generators_main
from ambit.generators.implicature import (
    KS,
    ImplicatureDataError,
    build_records,
    draw_demos,
    label_of,
    load_examples,
    load_templates,
)
from ambit.generators.implicature.cli import main as cli_main
from ambit.generators.implicature.templates import KEYS
from tests.paths import REPO, need_shared



@pytest.fixture(scope="module")
def data() -> Path:
    return need_shared("implicature/prompt_templates.txt").parent


@pytest.fixture(scope="module")
def test_examples(data):
    return load_examples(data / "test_conversational_implicatures.csv")


@pytest.fixture(scope="module")
def dev_examples(data):
    return load_examples(data / "dev_conversational_implicatures.csv")


@pytest.fixture(scope="module")
def templates(data):
    return load_templates(data / "prompt_templates.txt")


# ---------------------------------------------------------------- loader


def test_label_rule():
    assert label_of("Yes. But it does not arrive on time.") == "yes"
    assert label_of("No.") == "no"
    assert label_of(" yes") == "yes"  # within the first five characters
    assert label_of("nope") == "no"
    assert label_of("Maybe.") is None
    assert label_of("Well, yes") is None


def test_counts_and_labels(test_examples, dev_examples):
    assert len(test_examples) == 600 and len(dev_examples) == 118
    assert Counter(e.label for e in test_examples) == {"yes": 320, "no": 280}
    assert Counter(e.label for e in dev_examples) == {"yes": 52, "no": 66}
    assert [e.row for e in test_examples] == list(range(600))


def test_turns_lose_only_end_newlines(test_examples, dev_examples):
    turns = [t for e in test_examples + dev_examples for t in (e.utterance, e.response)]
    assert all(t and t == t.strip("\r\n") and "\r" not in t for t in turns)
    assert any(t != t.strip(" ") for t in turns)  # spaces are kept, as in the original
    assert any("\n" in t for t in turns)  # embedded line breaks stay
    by_row = {e.row: e for e in test_examples}
    assert any(e.utterance == "Did he pass the exam?" for e in by_row.values())  # was "...?\r\n"


def test_bad_label_names_file_and_row(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text(
        'Context utterance,Response utterance,Implicature\nA?,B.,Yes.\n"C\nD?",E.,Maybe.\n',
        encoding="utf-8",
    )
    with pytest.raises(ImplicatureDataError, match=r"bad\.csv: row 1 .*Maybe"):
        load_examples(path)


def test_short_row_and_bad_header_are_errors(tmp_path):
    short = tmp_path / "short.csv"
    short.write_text("Context utterance,Response utterance,Implicature\nA?,No.\n", encoding="utf-8")
    with pytest.raises(ImplicatureDataError, match=r"short\.csv: row 0"):
        load_examples(short)
    header = tmp_path / "header.csv"
    header.write_text("utterance,response,implicature\nA?,B.,No.\n", encoding="utf-8")
    with pytest.raises(ImplicatureDataError, match=r"header\.csv: header"):
        load_examples(header)


# ---------------------------------------------------------------- templates


def test_templates_match_the_originals_reader(data, templates):
    """Same values as do-pigs-fly's read_prompt_file (greedy first-to-last-quote regex)."""
    lines = (data / "prompt_templates.txt").read_text(encoding="utf-8").splitlines()
    keys = lines[0].split(";")
    assert len(templates) == 6
    for template, line in zip(templates, lines[1:]):
        values = [re.search('"(.*)"', v).group(1).replace(r"\n", "\n") for v in line.split(";")]
        assert {k: getattr(template, k) for k in keys} == dict(zip(keys, values))
    esther = 'Esther asked "%s" and Juan responded "%s", which means %s'
    assert templates[1].example_template_text == esther
    assert templates[0].example_template_text == "question: %s\nresponse: %s\nimplicature: %s"
    assert [t.index for t in templates] == [1, 2, 3, 4, 5, 6]
    for t in templates:
        assert t.fill("U", "R", "yes") == t.example_template_text % ("U", "R", "yes")


def test_bad_template_files(tmp_path):
    header = ";".join(KEYS)
    cases = {
        "unquoted": f'{header}\n"a %s b %s c %s";"b ";"c %s";"d";e\n',
        "fields": f'{header}\n"a %s b %s c %s";"b ";"c %s";"d"\n',
        "slots": f'{header}\n"a %s b %s c";"b ";"c";"d";"e"\n',
        "header": 'a;b;c;d;e\n"a %s b %s c %s";"b ";"c %s";"d";"e"\n',
    }
    for name, text in cases.items():
        path = tmp_path / f"{name}.txt"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ImplicatureDataError, match=rf"{name}\.txt: line"):
            load_templates(path)


# ---------------------------------------------------------------- prompts


def expected_text(template, example, label, demos):
    """The original's _prepare_prompt, written out from the raw template strings."""
    fill = template.example_template_text
    text = fill % (example.utterance, example.response, label)
    if not demos:
        return template.example_instruction_text + "\n\n" + text
    shots = "\n\n".join(fill % (d.utterance, d.response, d.label) for d in demos)
    return (
        template.prompt_instruction_text + "\n\n" + shots + "\n\n"
        + template.example_instruction_text + "\n\n" + text
    )


@pytest.fixture(scope="module")
def records(data):
    return build_records(data, "test", ks=KS, templates=None, seed=0, limit=4)


def test_prompt_structure_every_template_and_k(records, test_examples, dev_examples, templates):
    assert len(records) == len(KS) * 4 * 6
    assert len({r["id"] for r in records}) == len(records)
    for r in records:
        example, template = test_examples[r["row"]], templates[r["template"] - 1]
        demos = [dev_examples[j] for j in r["demo_rows"]]
        assert len(demos) == r["k"] == len(set(r["demo_rows"]))
        other = "no" if r["label"] == "yes" else "yes"
        assert r["label"] == example.label
        assert r["coherent"] == expected_text(template, example, example.label, demos)
        assert r["incoherent"] == expected_text(template, example, other, demos)
        assert (r["coherent_word"], r["incoherent_word"]) == (f" {example.label}", f" {other}")
        assert r["coherent"] == r["prefix"] + r["coherent_word"]
        assert r["incoherent"] == r["prefix"] + r["incoherent_word"]
        first = template.prompt_instruction_text if r["k"] else template.example_instruction_text
        assert r["coherent"].startswith(first + "\n\n")
        # k demo texts, each ending in its true label, then the instruction, then the test text
        blocks = r["prefix"].split("\n\n")
        if r["k"]:
            assert template.example_instruction_text in blocks[1:]
            assert sum(b.endswith((" yes", " no")) for b in blocks) == r["k"]


def test_demos_shared_across_templates_and_redrawn_per_example(records):
    by_pair = {}
    for r in records:
        by_pair.setdefault((r["row"], r["k"]), set()).add(tuple(r["demo_rows"]))
    assert all(len(rows) == 1 for rows in by_pair.values())  # one draw for all six templates
    rows_k5 = [next(iter(by_pair[(row, 5)])) for row in range(4)]
    assert len(set(rows_k5)) > 1  # redrawn for each test example, as the original does


def test_draws_equal_the_originals_rng():
    """As ImplicatureSuperDataset: default_rng(seed), then per test example in order
    rng.choice(range(len(dev)), k, replace=False)."""
    for k, seed in [(1, 0), (5, 0), (30, 3)]:
        rng = np.random.default_rng(seed)
        original = [[int(j) for j in rng.choice(range(118), k, replace=False)] for _ in range(7)]
        assert draw_demos(7, 118, k, seed) == original


def test_dev_split_keeps_an_example_out_of_its_own_demos(data):
    recs = build_records(data, "dev", ks=(30,), templates=(1,), seed=0, limit=20)
    assert all(r["row"] not in r["demo_rows"] and len(set(r["demo_rows"])) == 30 for r in recs)
    with pytest.raises(ValueError, match="k=118"):
        build_records(data, "dev", ks=(118,), templates=(1,), limit=1)


def test_same_seed_same_records_and_limit_is_a_prefix(data):
    a = build_records(data, ks=(0, 5), templates=(2, 5), seed=7, limit=6)
    b = build_records(data, ks=(0, 5), templates=(2, 5), seed=7, limit=6)
    assert json.dumps(a) == json.dumps(b)
    longer = build_records(data, ks=(5,), templates=(2, 5), seed=7, limit=10)
    assert [r for r in a if r["k"] == 5] == longer[:12]
    other = build_records(data, ks=(5,), templates=(2, 5), seed=8, limit=6)
    assert [r["demo_rows"] for r in other] != [r["demo_rows"] for r in a if r["k"] == 5]


def test_bad_arguments(data):
    with pytest.raises(ValueError, match="template 7"):
        build_records(data, templates=(7,), limit=1)
    with pytest.raises(ValueError, match="split"):
        build_records(data, split="train", limit=1)
    with pytest.raises(ValueError, match="k=119"):
        build_records(data, ks=(119,), limit=1)


# ---------------------------------------------------------------- CLI


def test_cli_writes_jsonl_byte_for_byte(data, tmp_path):
    args = ["implicature", "--data", str(data), "--k", "5", "--template", "2", "--limit", "4"]
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert generators_main([*args, "--out", str(one)]) == 0
    assert cli_main([*args, "--out", str(two)]) == 0
    assert one.read_bytes() == two.read_bytes()
    recs = [json.loads(line) for line in one.read_text(encoding="utf-8").splitlines()]
    assert [(r["template"], r["k"], len(r["demo_rows"])) for r in recs] == [(2, 5, 5)] * 4
    assert recs == build_records(data, ks=(5,), templates=(2,), limit=4)


def test_cli_lists_and_errors(data, tmp_path, capsys):
    out = tmp_path / "all.jsonl"
    args = ["--k", "0,1", "15", "--template", "all", "--limit", "2"]
    args += ["--split", "dev", "--seed", "3"]
    assert cli_main(["implicature", "--data", str(data), *args, "--out", str(out)]) == 0
    recs = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    expected = {(k, t): 2 for k in (0, 1, 15) for t in range(1, 7)}
    assert Counter((r["k"], r["template"]) for r in recs) == expected
    assert cli_main(["implicature", "--data", str(data), "--template", "9"]) == 2
    assert "template 9" in capsys.readouterr().err
    assert cli_main(["implicature", "--data", str(tmp_path)]) == 2


def test_cli_as_module_to_stdout(data):
    run = subprocess.run(
        [sys.executable, "-m", "ambit", "generate", "implicature", "--data", str(data), "--k", "1",
         "--template", "1", "--limit", "3"],
        cwd=REPO, capture_output=True, text=True, timeout=180, check=True,
    )
    recs = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["id"] for r in recs] == ["test-000/t1/k1", "test-001/t1/k1", "test-002/t1/k1"]
