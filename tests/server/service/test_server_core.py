"""The service core called directly, without gRPC: plain values in and out, `ServiceError`s
naming the field for bad input, the model through a real `ModelWorker` over the stand-in
backend, and Prolog for equivalence and RADD."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from ambit.generators import amp
from ambit.server.batcher import ModelWorker
from ambit.server.service import (
    AmbitCore, CanonicalQuery, Deadline, DeadlineExceeded, DecodingOptions, EquivalenceQuery, InvalidField,
    MalformedLF, ModelUnavailable, ParseQuery, PromptSpec, RaddQuery, ScoreQuery, Vocabulary,
)
from tests.paths import REPO
from tests.helpers.server import FakeBackend
from tests.helpers.radd import RADD_INSTANCE

LF = "exists x . forall y . man(x) AND saw(x, y)"


@pytest.fixture(scope="module")
def core():
    c = AmbitCore()
    worker = ModelWorker(FakeBackend(), max_batch=4, max_wait_s=0.005)
    c.attach_model(worker, FakeBackend().info())
    yield c
    worker.close()


def test_the_core_imports_no_grpc():
    code = "import sys, ambit.server.service; print(sorted(m for m in sys.modules if m.split('.')[0] == 'grpc' or m.startswith('ambit.proto')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_canonicalize_and_its_errors(core):
    assert core.canonicalize(CanonicalQuery("exists y . man(y)", to="lisp", vars="v")) == "( exists v0 ( man v0 ) )"
    with pytest.raises(MalformedLF) as exc:
        core.canonicalize(CanonicalQuery("exists x . man(x) AND"))
    assert exc.value.field == "lf" and exc.value.reason == "LF_PARSE_ERROR" and exc.value.error.pos > 0
    with pytest.raises(InvalidField) as exc:
        core.canonicalize(CanonicalQuery("man(x)" * 1000))
    assert (exc.value.field, exc.value.reason) == ("lf", "TOO_LONG")


def test_equivalence_one_and_batch(core):
    answer = core.check_equivalence(EquivalenceQuery("exists x . man(x)", "exists y . man(y)"), Deadline())
    assert answer.verdict.verdict == "EQUIVALENT" and answer.canonical_a == answer.canonical_b
    unreadable = InvalidField("items[2].format", "unknown LFFormat value 7", "UNKNOWN_ENUM")
    items = [
        EquivalenceQuery("exists x . forall y . saw(x, y)", "forall y . exists x . saw(x, y)"),
        EquivalenceQuery("exists x . man(x) AND", "exists y . man(y)"),
        unreadable,
        EquivalenceQuery("( exists x ( man x ) )", "( exists y ( man y ) )", fmt="lisp"),
    ]
    outcomes = list(core.check_equivalence_batch(items, Deadline()))
    assert [i for i, _ in outcomes] == [0, 1, 2, 3]
    assert outcomes[0][1].verdict.verdict == "NOT_EQUIVALENT" and outcomes[0][1].verdict.a_entails_b
    assert isinstance(outcomes[1][1], MalformedLF) and outcomes[1][1].field == "items[1].a"
    assert outcomes[2][1] is unreadable
    assert outcomes[3][1].verdict.verdict == "EQUIVALENT"
    with pytest.raises(InvalidField) as exc:
        list(core.check_equivalence_batch([], Deadline()))
    assert (exc.value.field, exc.value.reason) == ("items", "EMPTY")


def test_a_passed_deadline_stops_the_work(core):
    past = Deadline(time.monotonic() - 1.0)
    with pytest.raises(DeadlineExceeded):
        core.check_equivalence(EquivalenceQuery(LF, LF), past)
    with pytest.raises(DeadlineExceeded):
        list(core.check_equivalence_batch([EquivalenceQuery(LF, LF)], past))
    assert Deadline(time.monotonic() + 2.0).budget(10.0, 5.0) < 2.0
    assert Deadline().budget(0, 5.0) == 5.0 and Deadline().budget(500.0, 5.0) == 60.0


def test_scoring_through_the_worker(core):
    reply = core.score(ScoreQuery("P:", ("exists x", "forall x"), end_marker=True), Deadline())
    scores = reply.value
    assert reply.model_id == core.model_id and [s.text for s in scores] == ["exists x", "forall x"] and scores[0].end_logprob == -0.5
    queries = [ScoreQuery(f"P{i}:", ("a b",)) for i in range(5)]
    queries[1] = ScoreQuery("P:", ("a", ""))
    queries[3] = ScoreQuery("<<crash>>", ("a",))
    outcomes = dict(core.score_batch(queries, Deadline()))
    assert sorted(outcomes) == [0, 1, 2, 3, 4]
    assert isinstance(outcomes[1], InvalidField) and outcomes[1].field == "items[1].candidates[1]"
    assert isinstance(outcomes[3], RuntimeError)
    assert [s.text for s in outcomes[4].value] == ["a b"]
    with pytest.raises(ModelUnavailable):
        AmbitCore().score(ScoreQuery("P:", ("a",)), Deadline())


def test_parse_distribution_groups_meanings(core):
    dist = core.parse_distribution(
        ParseQuery("a man saw everyone", prompt="S: {utterance}", decoding=DecodingOptions(beam_size=4)), Deadline()
    )
    assert dist.prompt == "S: a man saw everyone" and dist.model_id == "fake-model"
    assert [c.parse_status for c in dist.candidates] == ["ok", "ok", "ok", "invalid"]
    assert dist.candidates[3].parse_error is not None and dist.candidates[3].meaning_class == -1
    assert [sorted(k.member_indices) for k in dist.classes] == [[0, 1], [2]] and dist.classes_exact
    assert sum(k.probability_mass for k in dist.classes) + dist.unparsed_mass == pytest.approx(1.0)


@pytest.mark.parametrize(
    "spec",
    [PromptSpec("zeroshot", "scope", seed=3), PromptSpec("fewshot", "pp", ratio=0.3, seed=1, shots=4),
     PromptSpec("fewshot", "conj", ratio=1.0)],
)
def test_prompt_specs_use_the_generated_amp_prompt(core, spec):
    query = ParseQuery("every dog chased a cat", spec=spec, decoding=DecodingOptions(beam_size=1))
    prompt = core.parse_distribution(query, Deadline()).prompt
    assert prompt == amp.prompt_for_utterance(
        "every dog chased a cat", setting=spec.setting, type=spec.type, ratio=spec.ratio, seed=spec.seed,
        shots=spec.shots or None,
    )
    # with the test item's own sentence, it is exactly the prompt the generator writes
    if spec.setting == "zeroshot":
        rec = amp.zeroshot_prompts(type=spec.type, seed=spec.seed, limit=1)[0]
    else:
        rec = amp.fewshot_prompts(type=spec.type, ratios=[spec.ratio], seed=spec.seed, limit=1,
                                  shots=spec.shots or None)[0]
    own = amp.prompt_for_utterance(rec["surface"], setting=spec.setting, type=spec.type, ratio=spec.ratio,
                                   seed=spec.seed, shots=spec.shots or None)
    assert own == rec["prompt"]


@pytest.mark.parametrize(
    "query,field,reason",
    [
        (ParseQuery(""), "utterance", "EMPTY"),
        (ParseQuery("", spec=PromptSpec("zeroshot", "scope")), "utterance", "EMPTY"),
        (ParseQuery("u", spec=PromptSpec("zeroshot", "")), "prompt_spec.type", "EMPTY"),
        (ParseQuery("u", spec=PromptSpec("fewshot", "scope", ratio=1.5)), "prompt_spec.ratio", "OUT_OF_RANGE"),
        (ParseQuery("u", spec=PromptSpec("zeroshot", "no-such-type")), "prompt_spec.type", "BAD_PROMPT_SPEC"),
        (ParseQuery(prompt="p", decoding=DecodingOptions(strategy="sample", num_samples=65)),
         "decoding.num_samples", "TOO_LARGE"),
        (ParseQuery(prompt="p", decoding=DecodingOptions(temperature=200.0)), "decoding.temperature", "OUT_OF_RANGE"),
        (ParseQuery(prompt="p", decoding=DecodingOptions(max_tokens=10_000)), "decoding.max_tokens", "TOO_LARGE"),
        (ParseQuery(prompt="p", decoding=DecodingOptions(vocabulary=Vocabulary(unary=("man",)))),
         "decoding.vocabulary", "BAD_VOCABULARY"),
    ],
)
def test_parse_request_errors_name_the_field(core, query, field, reason):
    with pytest.raises(InvalidField) as exc:
        core.parse_distribution(query, Deadline())
    assert (exc.value.field, exc.value.reason) == (field, reason)


def test_verify_radd_from_json_and_text(core):
    from ambit.generators.radd import RaddInstance, render_prompt

    answer = core.verify_radd(RaddQuery("instance_json", json.dumps(RADD_INSTANCE)), Deadline())
    assert answer.result.answer_option == 2 and answer.instance.entity == "Mediapro"
    text = render_prompt(RaddInstance.from_dict(RADD_INSTANCE))
    assert core.verify_radd(RaddQuery("text", text), Deadline()).result.derivation == answer.result.derivation
    for query, field in ((RaddQuery(None), "text"), (RaddQuery("instance_json", "{not json"), "instance_json")):
        with pytest.raises(InvalidField) as exc:
            core.verify_radd(query, Deadline())
        assert exc.value.field == field


def test_info_and_counters(core):
    info = core.info()
    assert info.model["model_id"] == "fake-model" and info.model_loaded and info.max_batch == 4
    assert set(info.formats) == {"fol", "lisp", "folio", "nltk", "tptp", "prover9"} and info.server_id == core.server_id
    assert core.model_counters().jobs > 0 and AmbitCore().model_counters() is None


def test_info_reports_the_installed_version():
    """One source of the version: the installed distribution's metadata (`ambit info`, `ambit
    --version` and `ambit.__version__` say the same), never a number written in the code."""
    from importlib.metadata import version

    import ambit
    assert AmbitCore().info().version == version("ambit-semantics") == ambit.__version__
