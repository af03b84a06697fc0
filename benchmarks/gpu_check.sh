#!/usr/bin/env bash
# Engine check on the accelerator when there is one (CUDA), else on the CPU:
# the exactness tests (scorer vs naive forward, beam vs brute force, outputs parse, default model
# included) and the decode benchmark, in under 5 minutes on a GPU.
#   benchmarks/gpu_check.sh [out_dir]      (writes bench.json and pytest.txt there)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
[ -x "$PY" ] || PY=python3
OUT=${1:-${OUT:-/tmp/ambit-gpu-check}}
mkdir -p "$OUT"
DEVICE=$("$PY" -c 'import torch; print("cuda" if torch.cuda.is_available() else "cpu")')
echo "device: $DEVICE"
if [ "$DEVICE" = cuda ]; then
  nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
  ARGS=(--device cuda --prompts 5 --max-tokens 32 --repeat 5)
  TESTS=(tests/server/engine/test_engine_scorer.py tests/server/engine/test_engine_decoder.py)
  MARK=()                      # slow tests included: they use the default model
else
  ARGS=(--prompts 2 --max-tokens 16 --repeat 2)
  TESTS=(tests/server/engine)
  MARK=(-m "not slow")         # the CPU run keeps to the fast set
fi
export AMBIT_DEVICE="$DEVICE"
"$PY" -m pytest -q -p no:cacheprovider "${MARK[@]}" "${TESTS[@]}" 2>&1 | tee "$OUT/pytest.txt"
"$PY" benchmarks/decode_bench.py --json "${ARGS[@]}" | tee "$OUT/bench.json"
