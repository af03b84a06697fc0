"""The one table of RPCs (`ambit.proto.rpcs`) against the `.proto` and every place an RPC is
written: the servicer is built from the rows, the core has each row's method and the convert
layer its conversions, all of the shape the servicer calls, the client calls each RPC from the methods its row
names, and the fake server answers every RPC. A new RPC in the `.proto` that is missing from the
table, or from any of them, fails here. Whether an RPC needs the model is checked on a real
server started without one."""

from __future__ import annotations

import ast
import inspect
import json
import shutil
import textwrap
from typing import Any, Callable

import pytest

from ambit import server
from ambit.client import AmbitError, Client
from ambit.client.api import Client as ApiClient
from ambit.client.testing import FakeAmbitServicer, FakeServer
from ambit.proto import rpcs
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.proto.v1 import ambit_pb2_grpc as pb_grpc
from ambit.server.convert import core as convert
from ambit.server.service import AmbitCore
from ambit.server.servicer import AmbitServicer
from tests.helpers.radd import RADD_INSTANCE
from tests.paths import REPO

needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog not installed")

STORY = (["∀x (Dog(x) → Animal(x))", "Dog(rex)"], "Animal(rex)")
READINGS = ["forall x . exists y . man(x) AND dog(y) AND saw(x, y)",
            "exists y . forall x . man(x) AND dog(y) AND saw(x, y)"]

# One call of every RPC through the client, valid for the real server and the fake alike.
EXAMPLES: dict[str, Callable[[Client], Any]] = {
    "ParseDistribution": lambda c: c.parse_distribution("every man saw a bird", prompt="{utterance}", k=2),
    "ScoreCandidates": lambda c: c.score("a man", [" walked", " ran"]),
    "ScoreCandidatesBatch": lambda c: c.score_batch([("p", ["a"]), ("q", ["b", "c"])]),
    "CheckEquivalence": lambda c: c.equivalent("exists x . man(x)", "exists y . man(y)"),
    "CheckEquivalenceBatch": lambda c: c.equivalent_batch([("exists x . man(x)", "exists y . man(y)"),
                                                           ("exists x . man(x)", "forall x . man(x)")]),
    "Canonicalize": lambda c: c.canonicalize("exists y . man(y)"),
    "VerifyRADD": lambda c: c.verify_radd(instance_json=json.dumps(RADD_INSTANCE)),
    "GetModelInfo": lambda c: c.info(),
    "GetStats": lambda c: c.stats(),
    "ExplainReadings": lambda c: c.explain_readings("every man saw a dog", READINGS),
    "Generate": lambda c: c.generate([("user", "hello there")], max_new_tokens=4),
    "CheckEntailment": lambda c: c.check_entailment(*STORY),
    "CheckEntailmentBatch": lambda c: c.check_entailment_batch([STORY, (["Dog(rex)"], "Cat(rex)")]),
}


# --------------------------------------------------------------------------- the table and the .proto

def test_the_table_is_the_proto_service():
    service = pb.DESCRIPTOR.services_by_name[rpcs.SERVICE]
    proto = {m.name: (m.input_type.name, m.output_type.name, m.server_streaming) for m in service.methods}
    table = {r.name: (r.request, r.response, r.streaming) for r in rpcs.RPCS}
    assert sorted(set(proto) - set(table)) == [], "RPCs in ambit.proto missing from ambit/proto/rpcs.py"
    assert sorted(set(table) - set(proto)) == [], "rows of ambit/proto/rpcs.py that ambit.proto does not define"
    assert table == proto
    assert [r.name for r in rpcs.RPCS] == [m.name for m in service.methods], "the table keeps the .proto's order"
    assert not any(m.client_streaming for m in service.methods), "a client-streaming RPC needs a column for it"
    assert len(rpcs.BY_NAME) == len(rpcs.RPCS)
    assert rpcs.MODEL_RPCS == {"ParseDistribution", "ScoreCandidates", "ScoreCandidatesBatch", "Generate"}


def test_the_table_describes_what_it_says():
    """Every row names one of the two convert modules and at least one client method."""
    for rpc in rpcs.RPCS:
        assert rpc.convert in ("logic", "model"), rpc
        assert rpc.client, f"{rpc.name}: no Client method calls it"


# --------------------------------------------------------------------------- the server side

def _class_methods(cls: type) -> dict[str, ast.FunctionDef]:
    """The functions defined in `cls`'s own body, by name (from its source)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    (body,) = tree.body
    return {n.name: n for n in body.body if isinstance(n, ast.FunctionDef)}


def test_the_servicer_is_built_from_the_table():
    handlers = {name: fn for name, fn in vars(AmbitServicer).items() if name[:1].isupper()}
    assert set(handlers) == set(rpcs.BY_NAME), "AmbitServicer's RPC handlers differ from the table"
    assert all(fn.rpc is rpcs.BY_NAME[name] for name, fn in handlers.items()), "a handler not made from its row"
    assert not _class_methods(AmbitServicer).keys() & set(rpcs.BY_NAME), "an RPC written by hand in the servicer"


def _takes(fn: Callable, n: int) -> bool:
    """Whether `fn` can be called with `n` positional arguments."""
    try:
        inspect.signature(fn).bind(*range(n))
        return True
    except TypeError:
        return False


def test_every_row_has_the_shape_the_servicer_calls():
    """The shapes of `ambit.proto.rpcs`: a core method takes (query, deadline), a batch's (its
    items' queries, deadline), or nothing without a to_core; a to_core takes the request, a
    batch's each item and its field prefix; a to_wire (request or item, answer). A batch has its
    unary RPC's conversions."""
    for rpc in rpcs.RPCS:
        core = getattr(AmbitCore, rpc.service)
        assert _takes(core, 3 if rpc.to_core else 1), f"{rpc.name}: AmbitCore.{rpc.service}'s arguments"
        assert rpc.to_core or not rpc.streaming, f"{rpc.name}: a batch reads its items with a to_core"
        if rpc.to_core:
            assert _takes(getattr(convert, rpc.to_core), 2 if rpc.streaming else 1), f"{rpc.name}: convert.{rpc.to_core}"
        assert _takes(getattr(convert, rpc.to_wire), 2), f"{rpc.name}: convert.{rpc.to_wire}'s arguments"
        if rpc.streaming:
            unary = rpcs.BY_NAME[rpc.name.removesuffix("Batch")]
            assert (rpc.to_core, rpc.to_wire) == (unary.to_core, unary.to_wire), rpc.name


def test_the_core_has_every_service_method():
    missing = [f"{r.name}: AmbitCore.{r.service}" for r in rpcs.RPCS
               if not callable(getattr(AmbitCore, r.service, None))]
    assert not missing, missing


def test_the_convert_layer_holds_every_conversion_in_its_module():
    for rpc in rpcs.RPCS:
        for fn in filter(None, (rpc.to_core, rpc.to_wire)):
            f = getattr(convert, fn, None)
            assert callable(f), f"{rpc.name}: server.convert has no {fn}"
            assert f.__module__ == f"ambit.server.convert.{rpc.convert}", (rpc.name, fn, f.__module__)


# --------------------------------------------------------------------------- the client and the fake server

def _client_calls() -> dict[str, set[str]]:
    """Client method -> the RPC names it passes to `self._call` / `self._stream`."""
    out: dict[str, set[str]] = {}
    for name, fn in _class_methods(ApiClient).items():
        for node in ast.walk(fn):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("_call", "_stream") and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                out.setdefault(name, set()).add(node.args[0].value)
    return out


def test_the_client_calls_every_rpc_from_the_methods_its_row_names():
    expected: dict[str, set[str]] = {}
    for rpc in rpcs.RPCS:
        for method in rpc.client:
            expected.setdefault(method, set()).add(rpc.name)
    assert _client_calls() == expected


def test_the_fake_server_implements_every_rpc_itself():
    own = set(vars(FakeAmbitServicer))
    missing = [name for name in rpcs.BY_NAME if name not in own]
    assert not missing, f"FakeAmbitServicer inherits UNIMPLEMENTED for {missing}"
    unknown = {name for name in own if name[:1].isupper()} - set(rpcs.BY_NAME)
    assert not unknown, unknown
    assert all(hasattr(pb_grpc.AmbitServiceServicer, name) for name in rpcs.BY_NAME)


def test_the_examples_cover_the_table():
    assert set(EXAMPLES) == set(rpcs.BY_NAME)


@pytest.fixture(scope="module")
def fake():
    srv = FakeServer(FakeAmbitServicer())
    yield srv
    srv.stop(0)


@needs_prolog
def test_every_rpc_answers_on_the_fake_server(fake):
    with Client(fake.address, timeout=60) as c:
        answers = {name: call(c) for name, call in EXAMPLES.items()}
    assert answers["CheckEquivalence"].verdict == "EQUIVALENT"
    assert [e.verdict for e in answers["CheckEquivalenceBatch"]] == ["EQUIVALENT", "NOT_EQUIVALENT"]
    assert answers["Canonicalize"] == "exists x . man(x)"
    assert answers["ParseDistribution"].candidates[0].text == "exists x . man(x)"
    assert [len(s.scores) for s in answers["ScoreCandidatesBatch"]] == [1, 2]
    assert answers["VerifyRADD"].answer == "2"  # the real verifier's answer
    assert len(answers["ExplainReadings"].readings) == 2
    assert answers["Generate"].text == "hello there" and answers["Generate"].finish_reason == "stop"
    assert answers["CheckEntailment"].verdict == "TRUE" and answers["CheckEntailment"].premises_used == [0, 1]
    assert [e.verdict for e in answers["CheckEntailmentBatch"]] == ["TRUE", "UNCERTAIN"]
    counted = fake.servicer.counts
    assert {name for name in rpcs.BY_NAME if counted[name] < 1} == {"GetStats"}  # GetStats reports, uncounted


def test_the_fake_answers_a_bad_item_alone_and_generate_within_its_budget(fake):
    with Client(fake.address, timeout=60) as c:
        ok, bad = c.equivalent_batch([("exists x . man(x)", "exists x . man(x)"), ("exists x . (", "man(x)")])
        assert ok.verdict == "EQUIVALENT" and isinstance(bad, AmbitError) and bad.code == "INVALID_ARGUMENT"
        cut = c.generate([("user", "one two three four five")], max_new_tokens=2)
        assert (cut.text, cut.new_tokens, cut.finish_reason) == ("one two", 2, "length")
        formula = c.generate([("user", "a dog")], fmt="folio")
        assert formula.formula == "" and formula.text == "exists x . man(x)"  # not FOLIO's syntax
        fol = c.generate([("user", "a dog")], fmt="fol")
        assert fol.formula == fol.text == "exists x . man(x)"


@needs_prolog
def test_the_fake_answers_logic_errors_as_the_real_server_does(fake):
    with Client(fake.address, timeout=60) as c, pytest.raises(AmbitError) as e:
        c.check_entailment(["Dog(rex"], "Animal(rex)")
    assert e.value.code == "INVALID_ARGUMENT" and [v["field"] for v in e.value.violations] == ["premises[0]"]


# --------------------------------------------------------------------------- needs_model, on a real server

@needs_prolog
def test_exactly_the_model_rpcs_fail_without_a_model():
    running = server.serve(no_model=True, port=0)
    codes = {}
    try:
        with Client(running.address, timeout=60) as c:
            for name, call in EXAMPLES.items():
                try:
                    call(c)
                    codes[name] = "OK"
                except AmbitError as e:
                    codes[name] = e.code
    finally:
        running.stop(1)
    assert {n for n, code in codes.items() if code == "FAILED_PRECONDITION"} == rpcs.MODEL_RPCS
    assert {n for n, code in codes.items() if code == "OK"} == set(rpcs.BY_NAME) - rpcs.MODEL_RPCS, codes


# --------------------------------------------------------------------------- the documentation

def test_the_server_page_lists_the_table():
    page = (REPO / "docs" / "server.md").read_text(encoding="utf-8")
    assert rpcs.markdown_table() in page, "regenerate the RPC table of docs/server.md (ambit.proto.rpcs.markdown_table)"
    assert f"The service's {len(rpcs.RPCS)} RPCs" in page


def test_the_development_page_says_how_to_add_an_rpc():
    page = (REPO / "docs" / "development.md").read_text(encoding="utf-8")
    section = page.split("## Adding an RPC", 1)[1].split("\n## ", 1)[0]
    for path in ("src/ambit/proto/v1/ambit.proto", "src/ambit/proto/rpcs.py", "src/ambit/server/servicer.py",
                 "src/ambit/server/convert/", "src/ambit/server/service/", "src/ambit/client/api.py",
                 "src/ambit/client/testing.py", "tests/proto/test_rpcs.py", "docs/server.md"):
        assert path in section, path
