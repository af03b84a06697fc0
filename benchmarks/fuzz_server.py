"""Fuzz every AmbitService RPC of a real gRPC server on loopback and report what it answered.

    python benchmarks/fuzz_server.py --json                 # 10,000 cases
    python benchmarks/fuzz_server.py --cases 500 --seed 1

The server runs in a child process (this script with `--serve`: `server.serve`, real gRPC on
127.0.0.1, real SWI-Prolog), so its resident memory is measured apart from the fuzzer's, with
the tests' FakeBackend (`tests/helpers/server.py`) as its model: scores and beams are a pure
function of the text, so the model RPCs run at full speed and the fuzzing reaches validation,
batching, Prolog and the status mapping rather than matrix products.

Cases, drawn by hypothesis, cover all 13 RPCs and every format (fol, lisp, folio, nltk, tptp):
six in ten are made to reach the logic (`benchmarks/fuzz_logic.py`: random closed formulas
rendered in each format, their variants and corruptions, stories, explanations, RADD instances
with fields dropped); the rest are a request message for a random RPC built field by field from
the message descriptor (random Unicode, lone surrogates excluded by protobuf itself; empty and
oversized repeated fields; unknown enum values; extreme and non-finite numbers; nested
messages), or raw wire bytes sent through a generic unary call (a valid request truncated,
with bytes flipped, or random bytes). Each call carries a deadline of --deadline seconds. After
the cases, the attack scenarios (fuzz_logic.scenarios: silent calls, abandoned hard work, a
killed Prolog worker of the server's two, deep nesting, oversized prompts) run against the same
server (--no-scenarios skips them).

Reported (`--json`): cases, per-status counts (calls and batch items), `crashes` (INTERNAL or
UNKNOWN), `internal`, `wire_rejected` (bad wire bytes answered INVALID_ARGUMENT "request message
does not decode"), `undocumented` (a status ambit.proto does not name), `late` (calls that
outlived their deadline by more than --slack seconds), `items` (calls, each batch item counted)
and `reached_prolog` / `reached_prolog_share` (items the logic decided or a Prolog budget
stopped), `scenarios`, `alive` (a valid request of every RPC answered OK afterwards) and resident
memory before and after (`rss_ratio`). Targets: 0 crashes, 0 INTERNAL, 0 late, alive, memory
within 1.2x, at least half the items reaching Prolog, every scenario ok.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import descriptor as D
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

sys.path.insert(0, str(REPO / "benchmarks"))

import fuzz_logic  # noqa: E402
from ambit.proto.v1 import ambit_pb2 as pb  # noqa: E402
from tests.server.test_server import RADD_INSTANCE  # noqa: E402

SERVICE = pb.DESCRIPTOR.services_by_name["AmbitService"]
# The status codes ambit.proto's conventions name, and OK.
DOCUMENTED = {"OK", "INVALID_ARGUMENT", "RESOURCE_EXHAUSTED", "DEADLINE_EXCEEDED", "FAILED_PRECONDITION",
              "UNAVAILABLE"}
DESERIALIZE = "request message does not decode"  # ambit's INVALID_ARGUMENT answer to undecodable bytes

VALID: dict[str, Any] = {
    "ParseDistribution": pb.ParseDistributionRequest(utterance="every man saw a bird", prompt="{utterance}",
                                                     decoding=pb.DecodingParams(beam_size=2)),
    "ScoreCandidates": pb.ScoreCandidatesRequest(prompt="a man", candidates=[" walked", " ran"]),
    "ScoreCandidatesBatch": pb.ScoreCandidatesBatchRequest(
        items=[pb.ScoreCandidatesRequest(prompt="p", candidates=["a"])]),
    "CheckEquivalence": pb.CheckEquivalenceRequest(a="exists x . man(x)", b="exists y . man(y)"),
    "CheckEquivalenceBatch": pb.CheckEquivalenceBatchRequest(
        items=[pb.CheckEquivalenceRequest(a="exists x . man(x)", b="forall x . man(x)")]),
    "Canonicalize": pb.CanonicalizeRequest(lf="exists y . man(y)"),
    "VerifyRADD": pb.VerifyRADDRequest(instance_json=json.dumps(RADD_INSTANCE)),
    "GetModelInfo": pb.GetModelInfoRequest(),
    "GetStats": pb.GetStatsRequest(),
    "ExplainReadings": pb.ExplainReadingsRequest(utterance="every man saw a dog", lfs=[
        "forall x . exists y . man(x) AND dog(y) AND saw(x, y)", "exists y . forall x . man(x) AND dog(y) AND saw(x, y)"]),
    "Generate": pb.GenerateRequest(messages=[pb.ChatMessage(role="user", content="hello")], max_new_tokens=4),
    "CheckEntailment": pb.CheckEntailmentRequest(premises=["∀x (Dog(x) → Animal(x))", "Dog(rex)"],
                                                 conclusion="Animal(rex)", format=pb.LF_FORMAT_FOLIO),
    "CheckEntailmentBatch": pb.CheckEntailmentBatchRequest(items=[pb.CheckEntailmentRequest(
        premises=["all x.(dog(x) -> animal(x))", "dog(rex)"], conclusion="animal(rex)", format=pb.LF_FORMAT_NLTK)]),
}
assert set(VALID) == {m.name for m in SERVICE.methods}, "every RPC has a valid request"

LF_WORDS = ["exists", "forall", "x", "y", "a", ".", "(", ")", "AND", "OR", "man(x)", "saw(a, x)", ",", "Mary"]
INTS = {D.FieldDescriptor.TYPE_INT32: (-2**31, 2**31 - 1), D.FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
        D.FieldDescriptor.TYPE_INT64: (-2**63, 2**63 - 1), D.FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
        D.FieldDescriptor.TYPE_SINT32: (-2**31, 2**31 - 1), D.FieldDescriptor.TYPE_SINT64: (-2**63, 2**63 - 1)}


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def texts() -> st.SearchStrategy[str]:
    """Random Unicode, LF-like token soup, and the occasional oversized string."""
    return st.one_of(
        st.text(max_size=60),
        st.lists(st.sampled_from(LF_WORDS), max_size=40).map(" ".join),
        st.integers(1, 3).map(lambda k: "x" * (70_000 * k)),
        st.just(""),
    )


def scalar(field: D.FieldDescriptor) -> st.SearchStrategy[Any]:
    t = field.type
    if t == D.FieldDescriptor.TYPE_STRING:
        return texts()
    if t == D.FieldDescriptor.TYPE_BYTES:
        return st.binary(max_size=64)
    if t == D.FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if t in (D.FieldDescriptor.TYPE_FLOAT, D.FieldDescriptor.TYPE_DOUBLE):
        width = 32 if t == D.FieldDescriptor.TYPE_FLOAT else 64
        return st.floats(width=width, allow_nan=True, allow_infinity=True)
    if t == D.FieldDescriptor.TYPE_ENUM:
        return st.integers(-3, 40)  # mostly values the enum does not have
    lo, hi = INTS[t]
    return st.one_of(st.integers(lo, hi), st.sampled_from([lo, hi, 0, 1, -1 if lo < 0 else 2]))


def message(desc: D.Descriptor, depth: int = 0) -> st.SearchStrategy[Any]:
    """A message of type `desc` with a random subset of its fields set to random values."""
    cls = getattr(pb, desc.name, None)
    if cls is None:  # a well-known type from another file (google.rpc.Status ...): leave empty
        return st.just(None)
    fields = []
    for f in desc.fields:
        if f.message_type is not None and f.message_type.GetOptions().map_entry:
            value = st.dictionaries(texts(), scalar(f.message_type.fields_by_name["value"])
                                    if f.message_type.fields_by_name["value"].message_type is None
                                    else st.just(None), max_size=3)
        elif f.message_type is not None:
            inner = message(f.message_type, depth + 1) if depth < 2 else st.just(None)
            value = st.lists(inner, max_size=4) if f.is_repeated else inner
        elif f.is_repeated:
            value = st.one_of(st.lists(scalar(f), max_size=6), st.integers(300, 2_000).map(lambda n: ["a b"] * n)
                              if f.type == f.TYPE_STRING else st.lists(scalar(f), max_size=6))
        else:
            value = scalar(f)
        fields.append(st.tuples(st.just(f), value))

    def build(chosen: list[tuple[D.FieldDescriptor, Any]]) -> Any:
        msg = cls()
        for f, v in chosen:
            if v is None:
                continue
            try:
                if f.message_type is not None and f.message_type.GetOptions().map_entry:
                    getattr(msg, f.name).update({k: x for k, x in v.items() if x is not None})
                elif f.message_type is not None and f.is_repeated:
                    getattr(msg, f.name).extend([x for x in v if x is not None])
                elif f.message_type is not None:
                    getattr(msg, f.name).CopyFrom(v)
                elif f.is_repeated:
                    getattr(msg, f.name).extend(v)
                else:
                    setattr(msg, f.name, v)
            except (TypeError, ValueError):  # protobuf refuses the value itself (e.g. a surrogate)
                continue
        return msg

    return st.lists(st.sampled_from(fields), max_size=len(fields), unique_by=lambda s: id(s)).flatmap(
        lambda chosen: st.tuples(*chosen) if chosen else st.just(())
    ).map(lambda pairs: build(list(pairs)))


def wire(method: str) -> st.SearchStrategy[bytes]:
    """Bad wire bytes: a valid request truncated or with bytes flipped, or random bytes."""
    good = VALID[method].SerializeToString()

    def flip(data: bytes, positions: list[int]) -> bytes:
        out = bytearray(data)
        for p in positions:
            if out:
                out[p % len(out)] ^= 0xFF
        return bytes(out)

    return st.one_of(
        st.integers(0, max(0, len(good) - 1)).map(lambda n: good[:n]),
        st.lists(st.integers(0, 10_000), min_size=1, max_size=4).map(lambda ps: flip(good, ps)),
        st.binary(max_size=200),
    )


class Fuzzer:
    """Sends cases to one server and tallies the answers."""

    def __init__(self, address: str, deadline: float, slack: float) -> None:
        self.address = address
        self.channel = grpc.insecure_channel(address, options=[("grpc.max_send_message_length", 64 << 20),
                                                                ("grpc.max_receive_message_length", 64 << 20)])
        self.deadline, self.slack = deadline, slack
        self.codes: Counter = Counter()
        self.item_codes: Counter = Counter()
        self.crashes: list[str] = []
        self.undocumented: list[str] = []
        self.late: list[str] = []
        self.wire_rejected = 0
        self.cases = 0
        self.items = 0  # calls, counting each batch item
        self.reached = 0  # items the logic decided, or a Prolog budget stopped (fuzz_logic.REACHED)

    def _callable(self, name: str, raw: bool) -> Any:
        method = SERVICE.methods_by_name[name]
        path = f"/{SERVICE.full_name}/{name}"
        out_cls = getattr(pb, method.output_type.name)
        ser = None if raw else (lambda m: m.SerializeToString())
        if method.server_streaming:
            return True, self.channel.unary_stream(path, request_serializer=ser,
                                                   response_deserializer=out_cls.FromString)
        return False, self.channel.unary_unary(path, request_serializer=ser, response_deserializer=out_cls.FromString)

    def call(self, name: str, request: Any, raw: bool = False) -> str:
        """Send one case; return its status name (recording anything off target)."""
        self.cases += 1
        streaming, fn = self._callable(name, raw)
        t0 = time.monotonic()
        code, details, items = "OK", "", 0
        logic_rpc = name in fuzz_logic.LOGIC_RPCS and not raw
        try:
            if streaming:
                for item in fn(request, timeout=self.deadline):
                    item_code = _code(item.status.code).name if item.status.code else "OK"
                    self.item_codes[item_code] += 1
                    items += 1
                    self.reached += logic_rpc and item_code in fuzz_logic.REACHED
            else:
                fn(request, timeout=self.deadline)
        except grpc.RpcError as e:
            code, details = e.code().name, e.details() or ""
        if not streaming:
            items = 1
            self.reached += logic_rpc and code in fuzz_logic.REACHED
        self.items += max(items, 1)
        elapsed = time.monotonic() - t0
        self.codes[code] += 1
        what = f"{name} raw={raw} -> {code}: {details[:120]}"
        if elapsed > self.deadline + self.slack:
            self.late.append(f"{what} after {elapsed:.2f} s")
        if raw and code == "INVALID_ARGUMENT" and details.startswith(DESERIALIZE):
            self.wire_rejected += 1
        elif code in ("INTERNAL", "UNKNOWN"):
            self.crashes.append(what)
        elif code not in DOCUMENTED:
            self.undocumented.append(what)
        return code

    def alive(self) -> dict[str, str]:
        """A valid request of every RPC, answered how."""
        return {name: self.call(name, VALID[name]) for name in VALID}


def _code(number: int) -> grpc.StatusCode:
    return next(c for c in grpc.StatusCode if c.value[0] == number)


LOGIC_SHARE_TENTHS = 6  # cases made to reach the logic (fuzz_logic), out of ten; the rest random or raw bytes


def run(cases: int, seed: int, deadline: float = 5.0, slack: float = 1.0, with_scenarios: bool = True) -> dict:
    """Start a server, fuzz it with `cases` cases, and report (see the module docstring)."""
    child = subprocess.Popen([sys.executable, __file__, "--serve"], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        port = int(child.stdout.readline().split()[-1])
        fuzzer = Fuzzer(f"127.0.0.1:{port}", deadline, slack)
        before_alive = fuzzer.alive()
        rss_before = rss_bytes(child.pid)
        names = sorted(VALID)
        random_case = st.sampled_from(names).flatmap(lambda n: st.one_of(
            st.tuples(st.just(n), message(SERVICE.methods_by_name[n].input_type), st.just(False)),
            st.tuples(st.just(n), wire(n), st.just(True)),
        ))
        logic_case = fuzz_logic.logic_case()
        case = st.integers(0, 9).flatmap(lambda k: logic_case if k < LOGIC_SHARE_TENTHS else random_case)

        @hypothesis_seed(seed)
        @settings(max_examples=cases, deadline=None, database=None, suppress_health_check=list(HealthCheck),
                  phases=[Phase.generate])
        @given(case)
        def one(c: tuple[str, Any, bool]) -> None:
            fuzzer.call(*c)

        t0 = time.monotonic()
        one()
        seconds = time.monotonic() - t0
        rss_after = rss_bytes(child.pid)
        fuzz_cases = fuzzer.cases - len(VALID)
        items, reached = fuzzer.items - len(VALID), fuzzer.reached
        found = fuzz_logic.scenarios(fuzzer.address, child.pid) if with_scenarios else None
        after_alive = fuzzer.alive()
    finally:
        child.terminate()
        child.wait(30)
    ok = {n for n, c in after_alive.items() if c == "OK"}
    return {
        "cases": fuzz_cases, "seconds": round(seconds, 1), "cases_per_s": round(fuzz_cases / seconds, 1),
        "statuses": dict(fuzzer.codes), "wire_rejected": fuzzer.wire_rejected, "batch_item_statuses": dict(fuzzer.item_codes),
        "crashes": len(fuzzer.crashes), "crash_examples": fuzzer.crashes[:5],
        "undocumented": len(fuzzer.undocumented), "undocumented_examples": fuzzer.undocumented[:5],
        "late": len(fuzzer.late), "late_examples": fuzzer.late[:5],
        "alive_before": before_alive, "alive_after": after_alive,
        "alive": ok == set(VALID),
        "items": items, "reached_prolog": reached,
        "reached_prolog_share": round(reached / items, 3) if items else 0.0,
        "internal": fuzzer.codes.get("INTERNAL", 0) + fuzzer.item_codes.get("INTERNAL", 0),
        "scenarios": found,
        "rss_before_mb": round(rss_before / 2**20, 1), "rss_after_mb": round(rss_after / 2**20, 1),
        "rss_ratio": round(rss_after / rss_before, 3),
        "model": "FakeBackend (tests/helpers/server.py)", "deadline_s": deadline, "seed": seed,
    }


def serve_fake() -> None:
    """The child: a server with the FakeBackend on a free loopback port, until terminated."""
    import signal

    from ambit.server import serve
    from tests.helpers.server import FakeBackend

    srv = serve(backend=FakeBackend(), port=0, prolog_workers=2, max_calls_per_peer=0)
    print(f"fuzz server on {srv.port}", flush=True)
    signal.sigwait({signal.SIGTERM})
    srv.stop(0)


def targets_met(report: dict) -> bool:
    return (report["crashes"] == 0 and report["internal"] == 0 and report["undocumented"] == 0
            and report["late"] == 0 and report["alive"] and report["rss_ratio"] <= 1.2
            and report["reached_prolog_share"] >= 0.5
            and (report["scenarios"] is None or report["scenarios"]["ok"]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=10_000, help="fuzz cases (default 10,000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--deadline", type=float, default=5.0, help="per-call deadline, seconds (default 5)")
    ap.add_argument("--slack", type=float, default=1.0, help="how far past its deadline a call counts as late")
    ap.add_argument("--no-scenarios", action="store_true", help="skip the attack scenarios after the cases")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # the child server
    args = ap.parse_args(argv)
    if args.serve:
        import signal

        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        serve_fake()
        return 0
    report = run(args.cases, args.seed, args.deadline, args.slack, not args.no_scenarios)
    report["targets_met"] = targets_met(report)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for k, v in report.items():
            print(f"{k}: {v}")
    return 0 if report["targets_met"] else 1


if __name__ == "__main__":
    sys.exit(main())
