"""The web API (ambit.web) in process, through Starlette's test client: the answers come from the
service core (the same values the RPCs return), and the guard refuses what it must: another
origin, another Host, a missing token, bodies over the limit, non-JSON posts. Hostile strings come
back as JSON data, never as markup."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from ambit.server.backends import worker_for  # noqa: E402
from ambit.server.guard.limits import Limits  # noqa: E402
from ambit.server.service import AmbitCore  # noqa: E402
from ambit.web.app import make_app  # noqa: E402
from ambit.web.guard import loopback_hosts  # noqa: E402
from ambit.web.runs import Runs  # noqa: E402
from tests.helpers.server import FakeBackend  # noqa: E402

HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)> javascript:alert(3)'
SCOPE_A = "forall x . exists y . boy(x) AND dog(y) AND saw(x, y)"
SCOPE_B = "exists y . forall x . boy(x) AND dog(y) AND saw(x, y)"


class Tokens:
    def check(self, authorization: str | None) -> bool:
        return authorization == "Bearer s3cret"


def _run_folder(root: Path) -> Path:
    """A small run as `ambit eval` writes it: records (one hostile), a summary, a figure."""
    run = root / "amp-fewshot"
    run.mkdir(parents=True)
    records = [
        {"id": "pp/1", "type": "pp", "ratio": 0.0, "surface": "the boy saw the girl with the telescope",
         "lf0": "exists x . a(x)", "lf1": "exists x . b(x)",
         "predictions": [{"text": "exists x . a(x)", "probability": 0.7, "match_lf0": "EQUIVALENT",
                          "match_lf1": "NOT_EQUIVALENT"}],
         "tokens_pred": [{"text": "exists", "prob": 0.9}, {"text": "x", "prob": 0.4}]},
        {"id": "scope/2", "type": "scope", "ratio": 1.0, "surface": HOSTILE, "lf0": HOSTILE, "lf1": "x",
         "predictions": [{"text": HOSTILE, "probability": 0.2}], "tokens_pred": []},
        {"id": "radd/3", "pair": "P6_P19", "label_name": "de_dicto", "pred": "de_re", "correct": False},
    ]
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records) + '{"id": "cut')
    (run / "summary.json").write_text(json.dumps({"n": 3}))
    (run / "summary.md").write_text("# Summary\n\n| type | n |\n|---|---|\n| pp | 1 |\n")
    (run / "fig.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    return run


@pytest.fixture(scope="module")
def core() -> AmbitCore:
    core = AmbitCore(Limits(max_message_bytes=64 * 1024))
    core.attach_model(worker_for(FakeBackend(), 4, 0.001, 16), FakeBackend().info())
    yield core
    core.worker.close()


@pytest.fixture(scope="module")
def runs_root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("runs")
    _run_folder(root)
    return root


@pytest.fixture(scope="module")
def client(core, runs_root) -> TestClient:
    return TestClient(make_app(core, Runs([runs_root])))


def test_the_page_is_served_with_a_strict_policy_and_no_cors(client):
    r = client.get("/")
    assert r.status_code == 200 and "<noscript>" in r.text
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "default-src 'none'" in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert not any(h.lower().startswith("access-control-") for h in r.headers)
    for name in ("app.js", "app.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../web/api.py").status_code == 404
    js = client.get("/static/app.js").text
    assert "innerHTML" not in js and "outerHTML" not in js and "eval(" not in js and "document.write" not in js
    assert set(re.findall(r"https?://[^\"'\s)]+", js)) == {"http://www.w3.org/2000/svg"}  # a namespace, no fetch


def test_info_names_the_formats_and_the_model(client):
    info = client.get("/api/info").json()
    assert info["model_loaded"] and info["model"]["model_id"] == "fake-model"
    assert {"fol", "lisp"} <= set(info["amp_formats"]) and "folio" in info["story_formats"]


def test_equivalence_comes_from_the_core_with_a_checked_countermodel(client, core):
    r = client.post("/api/equivalence", json={"a": SCOPE_A, "b": SCOPE_B, "format": "fol"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["verdict"] == "NOT_EQUIVALENT" and body["a_entails_b"] is False and body["b_entails_a"] is True
    model = body["witness"]["model"]
    assert model["domain"] and any(a.startswith("saw(") for a in model["true_atoms"])
    from ambit.server.service import Deadline, EquivalenceQuery

    direct = core.check_equivalence(EquivalenceQuery(SCOPE_A, SCOPE_B), Deadline.after(30))
    assert body["verdict"] == direct.verdict.verdict and body["canonical_a"] == direct.canonical_a


def test_entailment_names_the_premises_used(client):
    r = client.post("/api/entailment", json={"premises": "∀x (Dog(x) → Animal(x))\nDog(rex)\nCat(tom)",
                                             "conclusion": "Animal(rex)", "format": "folio"})
    body = r.json()
    assert r.status_code == 200 and body["verdict"] == "TRUE" and body["premises_used"] == [0, 1]
    assert body["proof"] and body["premises"][2] == "Cat(tom)"
    r = client.post("/api/entailment", json={"premises": ["![X]: (man(X) => mortal(X))", "man(socrates)"],
                                             "conclusion": "mortal(tom)", "format": "tptp"})
    assert r.json()["verdict"] == "UNCERTAIN" and r.json()["countermodel"]["domain"]


def test_radd_example_verifies_with_its_derivation(client):
    examples = client.get("/api/examples").json()
    assert examples["amp"] and examples["stories"] and examples["radd"]
    r = client.post("/api/radd", json={"text": examples["radd"][0]["text"]})
    body = r.json()
    assert r.status_code == 200, r.text
    verdicts = {v["verdict"] for v in body["result"]["interpretations"].values()}
    assert body["result"]["status"] == "one" and verdicts == {"consistent", "inconsistent"}
    assert body["result"]["derivation"] and body["instance"]["regularity"]


def test_explain_and_parse_with_a_model(client):
    amp = client.get("/api/examples").json()["amp"]
    scope = next(x for x in amp if x["type"] == "scope")
    x = client.post("/api/explain", json={"utterance": scope["surface"], "lfs": [scope["lf0"], scope["lf1"]]}).json()
    assert len(x["readings"]) == 2 and x["situations"] and x["question"]["text"]
    d = client.post("/api/parse", json={"utterance": "a man saw everyone", "k": 4, "explain": True}).json()
    assert [c["parse_status"] for c in d["candidates"]].count("ok") == 3
    assert d["classes"] and d["classes"][0]["notations"]["lisp"].startswith("(")
    assert len(d["classes"][0]["member_indices"]) == 2  # the alpha-variants, grouped
    assert d["explanation"]["question"]


def test_parse_without_a_model_is_a_clear_409(runs_root):
    client = TestClient(make_app(AmbitCore(), None))
    r = client.post("/api/parse", json={"utterance": "every bird saw a boy"})
    assert r.status_code == 409 and "no model" in r.json()["error"]["message"]
    assert client.get("/api/runs").status_code == 404


@pytest.mark.parametrize("payload, field", [
    ({"a": HOSTILE, "b": "exists x . a(x)"}, "a"),
    ({"a": "exists x . a(x)", "b": "exists x . a(x)", "format": HOSTILE}, "format"),
    ({"a": "exists x . a(x)"}, "b"),
    ({"a": ["not", "a", "string"], "b": "x"}, "a"),
    ({"a": "exists x . a(x)", "b": "exists x . a(x)", "timeout_s": -1}, "timeout_s"),
])
def test_bad_and_hostile_input_is_a_json_error(client, payload, field):
    r = client.post("/api/equivalence", json=payload)
    assert r.status_code == 400 and r.headers["content-type"] == "application/json", r.text
    body = r.json()
    assert set(body) == {"error"} and body["error"]["code"] and body["error"]["message"]
    if field is not None:
        assert body["error"]["field"] == field
    assert r.headers["x-content-type-options"] == "nosniff"


def test_huge_inputs_are_refused_by_the_same_limits(client, core):
    huge_lf = "exists x . " + " AND ".join(["a(x)"] * 2000)
    r = client.post("/api/equivalence", json={"a": huge_lf, "b": "exists x . a(x)"})
    assert r.status_code == 400 and r.json()["error"]["field"] == "a" and "4096" in r.json()["error"]["message"]
    too_big = json.dumps({"a": "x" * (core.limits.max_message_bytes + 1), "b": "y"})
    r = client.post("/api/equivalence", content=too_big, headers={"content-type": "application/json"})
    assert r.status_code == 413
    deep = "[" * 5000 + "]" * 5000
    r = client.post("/api/equivalence", content=deep, headers={"content-type": "application/json"})
    assert r.status_code == 400


def test_the_api_is_same_origin_only(client):
    ok = client.post("/api/equivalence", json={"a": "exists x . a(x)", "b": "exists y . a(y)"},
                     headers={"origin": "http://testserver"})
    assert ok.status_code == 200 and "access-control-allow-origin" not in ok.headers
    for headers in ({"origin": "http://evil.example"}, {"origin": "null"}, {"sec-fetch-site": "cross-site"}):
        r = client.post("/api/equivalence", json={"a": "exists x . a(x)", "b": "exists y . a(y)"}, headers=headers)
        assert r.status_code == 403, headers
    form = client.post("/api/equivalence", content="a=1", headers={"content-type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415
    assert client.options("/api/equivalence", headers={"origin": "http://evil.example"}).status_code == 403


def test_a_loopback_server_answers_its_own_host_names_only(core):
    client = TestClient(make_app(core, None, hosts=loopback_hosts(8080)), base_url="http://127.0.0.1:8080")
    assert client.get("/api/info").status_code == 200
    assert client.get("/api/info", headers={"host": "localhost:8080"}).status_code == 200
    assert client.get("/", headers={"host": "attacker.example:8080"}).status_code == 421


def test_a_token_is_needed_when_the_server_has_one(core):
    client = TestClient(make_app(core, None, tokens=Tokens()))
    assert client.get("/").status_code == 200  # the page itself holds no data
    r = client.get("/api/info")
    assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer")
    assert client.get("/api/info", headers={"authorization": "Bearer wrong"}).status_code == 401
    info = client.get("/api/info", headers={"authorization": "Bearer s3cret"}).json()
    assert info["auth"] is True


def test_runs_viewer_lists_filters_and_serves_figures(client):
    runs = client.get("/api/runs").json()["runs"]
    assert [r["id"] for r in runs] == ["0/amp-fewshot"]
    run = runs[0]
    assert run["figures"] == ["fig.png"] and run["in_progress"] is False
    summary = client.get("/api/runs/summary", params={"run": run["id"]}).json()
    assert summary["summary"] == {"n": 3} and "| pp | 1 |" in summary["markdown"]
    items = client.get("/api/runs/items", params={"run": run["id"]}).json()
    assert items["total"] == 3 and items["types"] == ["P6_P19", "pp", "scope"]  # the cut-short line is left out
    first = next(i for i in items["items"] if i["id"] == "pp/1")
    assert first["prediction"] == "exists x . a(x)" and first["verdict"]["LF0"] == "EQUIVALENT"
    assert first["gold"] == {"LF0": "exists x . a(x)", "LF1": "exists x . b(x)"} and first["tokens"][0]["prob"] == 0.9
    assert client.get("/api/runs/items", params={"run": run["id"], "type": "scope"}).json()["matched"] == 1
    assert client.get("/api/runs/items", params={"run": run["id"], "outcome": "wrong"}).json()["matched"] == 1
    assert client.get("/api/runs/items", params={"run": run["id"], "q": "telescope"}).json()["matched"] == 1
    hostile = client.get("/api/runs/record", params={"run": run["id"], "id": "scope/2"})
    assert hostile.json()["surface"] == HOSTILE and hostile.headers["content-type"] == "application/json"
    fig = client.get("/api/runs/file", params={"run": run["id"], "name": "fig.png"})
    assert fig.status_code == 200 and fig.headers["content-type"] == "image/png"


@pytest.mark.parametrize("run, name", [
    ("0/amp-fewshot", "../amp-fewshot/fig.png"), ("0/amp-fewshot", "/etc/passwd"), ("0/..", "fig.png"),
    ("0/amp-fewshot", "results.jsonl"), ("0/amp-fewshot", "link.png"), ("0/amp-fewshot", "outside.md"),
    ("1/.", "fig.png"), ("0/amp-fewshot/../..", "passwd.md"),
])
def test_no_request_reads_outside_the_runs_folders(client, runs_root, tmp_path_factory, run, name):
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.png").write_bytes(b"secret")
    run_dir = runs_root / "amp-fewshot"
    for link, target in (("link.png", outside / "secret.png"), ("outside.md", Path("/etc/passwd"))):
        if not (run_dir / link).is_symlink():
            os.symlink(target, run_dir / link)
    r = client.get("/api/runs/file", params={"run": run, "name": name})
    assert r.status_code == 404 and b"secret" not in r.content and b"root:" not in r.content


def test_a_linked_folder_is_not_a_run(runs_root, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    _run_folder(tmp_path / "elsewhere")
    link = runs_root / "linked"
    if not link.is_symlink():
        os.symlink(tmp_path / "elsewhere", link)
    try:
        assert [r["folder"] for r in Runs([runs_root]).listing()] == ["amp-fewshot"]
    finally:
        link.unlink()
    with pytest.raises(ValueError, match="not a folder"):
        Runs([tmp_path / "missing"])


def test_a_run_in_progress_is_marked_and_its_new_items_show(runs_root, client):
    run_dir = runs_root / "amp-fewshot"
    import time

    time.sleep(0.01)
    with open(run_dir / "results.jsonl", "a") as fh:
        fh.write('"}\n{"id": "pp/9", "type": "pp", "surface": "new"}\n')
    runs = client.get("/api/runs").json()["runs"]
    assert runs[0]["in_progress"] is True
    ids = [i["id"] for i in client.get("/api/runs/items", params={"run": runs[0]["id"]}).json()["items"]]
    assert "pp/9" in ids and "cut" in ids and len(ids) == 5  # the line cut short is whole now


def test_a_results_file_over_the_viewers_limit_is_a_413(runs_root, client, monkeypatch):
    from ambit.web import runs as runs_module

    monkeypatch.setattr(runs_module, "MAX_RESULTS_BYTES", 100)
    r = client.get("/api/runs/items", params={"run": "0/amp-fewshot"})
    assert r.status_code == 413 and "over the viewer's limit" in r.json()["error"]["message"]
    assert str(runs_root) not in r.json()["error"]["message"]  # the page is not told the server's paths


def test_a_page_that_goes_away_stops_its_work():
    """A parse whose client disconnects is stopped (the deadline's liveness check), as a cancelled
    RPC is: the stand-in model would decode for 300 s; the wait below is a hang guard."""
    import socket
    import threading
    import types

    from ambit.server.model import DecodeStopped
    from ambit.web.serve import WebConfig, start

    stopped, started = threading.Event(), threading.Event()

    class Slow(FakeBackend):
        def decode(self, *args, **kwargs):
            started.set()
            try:
                return super().decode(*args, **kwargs)
            except DecodeStopped:
                stopped.set()
                raise

    core = AmbitCore()
    core.attach_model(worker_for(Slow(delay=300), 1, 0.001, 4), Slow().info())
    web = start(types.SimpleNamespace(core=core, tokens=None), WebConfig())
    try:
        port = int(web.url.rstrip("/").rsplit(":", 1)[1])
        body = json.dumps({"utterance": "every bird saw a boy", "timeout_s": 120}).encode()
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"POST /api/parse HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                      b"Content-Length: %d\r\n\r\n%s" % (port, len(body), body))
            assert started.wait(60), "the parse never reached the model"
        assert stopped.wait(60), "the parse went on after its page disconnected"
    finally:
        web.stop()
        core.worker.close()


def _one_shape(r, status: int, code: str) -> dict:
    body = r.json()
    assert r.status_code == status, r.text
    assert set(body) == {"error"}, body
    err = body["error"]
    assert {"code", "message", "field"} <= set(err) <= {"code", "message", "field", "position", "hint"}, err
    assert err["code"] == code and isinstance(err["message"], str) and err["message"], err
    assert re.fullmatch(r"[A-Z][A-Z_]*", err["code"])
    return err


def test_every_error_of_the_api_has_the_one_shape(client, core):
    """Each kind of error the JSON API answers, through the request that causes it:
    `{"error": {code, message, field[, position][, hint]}}` and its status."""
    import asyncio

    from ambit.server.service.deadline import Admission

    eq = "/api/equivalence"
    err = _one_shape(client.post(eq, json={"a": "exists x . a(x)"}), 400, "EMPTY")
    assert err["field"] == "b"
    err = _one_shape(client.post(eq, json={"a": "exists x . (", "b": "p"}), 400, "LF_PARSE_ERROR")
    assert err["field"] == "a" and isinstance(err["position"], int)
    err = _one_shape(client.post(eq, content=b'{"a": "p", "b": ', headers={"content-type": "application/json"}),
                     400, "BAD_JSON")
    assert err["field"] == "body" and err["position"] == 16  # where the value should begin
    _one_shape(client.post(eq, json={"a": "p", "b": "p", "timeout_s": "soon"}), 400, "OUT_OF_RANGE")
    _one_shape(client.post(eq, json={"a": "p", "b": "p", "format": "klingon"}), 400, "UNKNOWN_FORMAT")
    _one_shape(client.get("/api/runs/items", params={"run": "0/amp-fewshot", "offset": "-1"}), 400, "INVALID_FIELD")
    _one_shape(TestClient(make_app(core, None, tokens=Tokens())).get("/api/info"), 401, "UNAUTHENTICATED")
    _one_shape(client.post(eq, json={"a": "p", "b": "p"}, headers={"origin": "http://evil.example"}), 403,
               "CROSS_ORIGIN")
    _one_shape(client.get("/api/runs/record", params={"run": "0/amp-fewshot", "id": "nope"}), 404, "NOT_FOUND")
    _one_shape(client.get("/api/nothing-here"), 404, "NOT_FOUND")
    _one_shape(TestClient(make_app(core, None)).get("/api/runs"), 404, "NOT_FOUND")
    _one_shape(client.get(eq), 405, "METHOD_NOT_ALLOWED")
    _one_shape(TestClient(make_app(AmbitCore(), None)).post("/api/parse", json={"utterance": "a b"}), 409,
               "MODEL_UNAVAILABLE")
    _one_shape(client.post(eq, content=b"x" * (core.limits.max_message_bytes + 1),
                           headers={"content-type": "application/json"}), 413, "TOO_LARGE")
    _one_shape(client.post(eq, content="a=1", headers={"content-type": "application/x-www-form-urlencoded"}), 415,
               "NOT_JSON")
    local = TestClient(make_app(core, None, hosts=loopback_hosts(8080)), base_url="http://127.0.0.1:8080")
    _one_shape(local.get("/api/info", headers={"host": "attacker.example"}), 421, "WRONG_HOST")
    full = AmbitCore(admission=Admission(slots=0, max_queue=0))
    r = TestClient(make_app(full, None)).post(eq, json={"a": "p", "b": "p"})
    _one_shape(r, 503, "OVERLOADED")
    assert int(r.headers["retry-after"]) >= 1
    mine = AmbitCore(admission=Admission(slots=4, max_queue=4, per_client=1))
    held = asyncio.run(mine.admission.enter("web:testclient", 1.0))  # this client's one request in flight
    r = TestClient(make_app(mine, None)).post(eq, json={"a": "p", "b": "p"})
    _one_shape(r, 429, "TOO_MANY_REQUESTS")
    assert int(r.headers["retry-after"]) >= 1
    held.release()
    _one_shape(client.post(eq, json={"a": "exists x . a(x)", "b": "exists y . a(y)", "timeout_s": 1e-9}), 504,
               "DEADLINE_EXCEEDED")
