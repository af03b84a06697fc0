#!/usr/bin/env bash
# Engine check on the accelerator when there is one (CUDA), and the same figures on the CPU:
#  (a) exactness: scorer vs naive forward (tiny GPT-2 fp32 1e-4; a random model of the default's
#      size, fp32 1e-4 and bf16 0.1), beam >= |language| equals brute force, every output parses;
#  (b) speed on a model of the default's size with random weights (`random:.gpu/smollm2`):
#      grammar time per step, constrained / unconstrained beam-5, cross-prompt batched scoring /
#      sequential at batch 16, tokens/s for beam, sampling and scoring;
#  (c) (b) again on the CPU for comparison;
#  (d) the server's cross-request batching: benchmarks/load_test.py, scoring only, 32 clients, a
#      server with --max-batch 16 against one with --max-batch 1 side by side (requests/s of each,
#      `batching_gain`, p50/p99 per RPC), on the random model of (b) on the device (the tiny GPT-2
#      in the short CPU configuration). The server starts without Prolog (logic RPCs only need it).
# Needs the folders of benchmarks/gpu_pack.sh (.whl, .gpu); installs the wheels that fit this Python
# into a temporary target on PYTHONPATH (the others are already installed where the check is
# prepared). Writes gpu_check.json and pytest.txt into $OUT (or the first argument).
#   bash benchmarks/gpu_check.sh [out_dir]        (AMBIT_CPU_SHORT=1: a short CPU configuration)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
[ -x "$PY" ] || PY=python3
OUT=${1:-${OUT:-/tmp/ambit-gpu-check}}
mkdir -p "$OUT"
[ -d .gpu/smollm2 ] && ls .whl/*.whl > /dev/null || { echo "run benchmarks/gpu_pack.sh first" >&2; exit 2; }
SITE=$(mktemp -d /tmp/ambit-site.XXXXXX)
trap 'rm -rf "$SITE"' EXIT
for w in .whl/*.whl; do  # one at a time: a wheel built for another Python is skipped, not fatal
  "$PY" -m pip install -q --no-index --no-deps --target "$SITE" "$w" 2> /dev/null || echo "skipped $(basename "$w")"
done
# the checkout's own package (src/ambit: the host has no install of it) after the wheels
export PYTHONPATH="$SITE:$PWD/src${PYTHONPATH:+:$PYTHONPATH}"
export AMBIT_RANDOM_MODEL=.gpu/smollm2
DEVICE=$("$PY" -c 'import torch; print("cuda" if torch.cuda.is_available() else "cpu")')
echo "device: $DEVICE"
[ "$DEVICE" = cuda ] && { nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true; }
# the engine must import without Prolog or gRPC
"$PY" -c 'import sys, ambit.server.lm, ambit.logic; bad = [m for m in sys.modules if m.split(".")[0] in ("pyswip", "grpc") or m.startswith("ambit.proto")]; assert not bad, bad'
# one process per test file: a CUDA device-side assert ends its process's CUDA context, and
# would otherwise fail every later test; the benchmarks run even when a test failed
TESTS_OK=1
: > "$OUT/pytest.txt"
for t in tests/server/lm/test_engine_decoder.py tests/server/lm/test_engine_beam_dump.py \
         tests/server/lm/test_engine_scorer.py; do
  # -o addopts: one process, without pyproject's xdist workers (the host may lack pytest-xdist)
  AMBIT_DEVICE="$DEVICE" "$PY" -m pytest -q -p no:cacheprovider -o addopts=-ra -m "not slow" "$t" 2>&1 | tee -a "$OUT/pytest.txt" \
    || TESTS_OK=0
done
BENCH=(benchmarks/decode_bench.py --json --model "random:$AMBIT_RANDOM_MODEL")
if [ "$DEVICE" = cuda ]; then
  "$PY" "${BENCH[@]}" --device cuda --prompts 3 --max-tokens 24 --repeat 2 > "$OUT/bench_cuda.json"
  "$PY" "${BENCH[@]}" --device cuda --dtype float32 --prompts 2 --max-tokens 16 --repeat 1 > "$OUT/bench_cuda_fp32.json"
fi
if [ "${AMBIT_CPU_SHORT:-0}" = 1 ]; then
  CPU_ARGS=(--prompts 1 --max-tokens 6 --repeat 1 --batch-items 4 --no-e-tiny)
else
  CPU_ARGS=(--prompts 2 --max-tokens 16 --repeat 2 --batch-items 16)
fi
"$PY" "${BENCH[@]}" --device cpu "${CPU_ARGS[@]}" > "$OUT/bench_cpu.json"
# (d): a failed load test is reported in the JSON, and fails the check at the end
LOAD_OK=1
if [ "$DEVICE" = cuda ]; then
  LOAD_ARGS=(--model "random:$AMBIT_RANDOM_MODEL" --duration 10 --scoring-duration 60 --slice 10 --items 100)
elif [ "${AMBIT_CPU_SHORT:-0}" = 1 ]; then
  LOAD_ARGS=(--model tiny --duration 2 --scoring-duration 8 --slice 4 --items 20)
else
  LOAD_ARGS=(--model tiny --duration 5 --scoring-duration 20 --slice 5 --items 50)
fi
"$PY" benchmarks/load_test.py --json --clients 32 --max-batch 16 --score-share 1.0 "${LOAD_ARGS[@]}" \
  > "$OUT/load_test.json" 2> "$OUT/load_test.log" || LOAD_OK=0
"$PY" - "$OUT" "$DEVICE" <<'PYEOF'
"""One JSON file: every benchmark run of this check, keyed by device, with the test summary and the
load test's scoring figures."""
import json, sys
from pathlib import Path

out = Path(sys.argv[1])
runs = {p.stem.removeprefix("bench_"): json.loads(p.read_text()) for p in sorted(out.glob("bench_*.json"))}
tests = "; ".join(line.strip("= ") for line in (out / "pytest.txt").read_text().splitlines()
                  if " passed" in line or " failed" in line or " error" in line)
load_path = out / "load_test.json"
try:
    load = json.loads(load_path.read_text())
    phases = load["phases"]
    load_summary = {
        "device": sys.argv[2], "model": load["model"], "clients": load["clients"],
        "batching_gain": load["batching_gain"], "errors": load["errors"],
        "mean_batch": load["server_stats"].get("batched", {}).get("mean_batch"),
        **{f"max_batch_{b}": {"rps": phases[name]["rps"], "per_rpc": phases[name]["per_rpc"]}
           for b, name in ((load["max_batch"], "scoring"), (1, "scoring_batch1"))},
        "target_batching_gain": 3.0,
    }
except (OSError, ValueError, KeyError) as e:
    log = (out / "load_test.log").read_text() if (out / "load_test.log").exists() else ""
    load, load_summary = None, {"error": f"load test gave no result ({e})", "log_tail": log[-2000:]}
(out / "gpu_check.json").write_text(json.dumps({"tests": tests, "runs": runs, "load_test": load_summary,
                                                "load_test_full": load}, indent=1))
for p in [*out.glob("bench_*.json"), load_path]:
    p.unlink(missing_ok=True)
print(json.dumps({"tests": tests, **{k: {m: v for m, v in r.items() if m[:2] in ("a_", "b_", "d_", "e_")}
                                     for k, r in runs.items()}, "load_test": load_summary}, indent=1))
PYEOF
[ "$TESTS_OK" = 1 ] || { echo "engine tests failed on $DEVICE (see $OUT/pytest.txt)" >&2; exit 1; }
[ "$LOAD_OK" = 1 ] || { echo "load test failed on $DEVICE (see $OUT/load_test.log)" >&2; exit 1; }
