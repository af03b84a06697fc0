"""Regenerate the Python stubs from `src/ambit/proto/v1/*.proto`: `python -m ambit.proto.build`.

Compiled from a staging `ambit/v1/` (the descriptors' names), written back with relative imports."""

from __future__ import annotations

import argparse
import importlib.util
import re
import shutil
import sys
import tempfile
from importlib import resources
from pathlib import Path

PROTO_ROOT = Path(__file__).resolve().parent
PACKAGE_DIR = Path("v1")  # under PROTO_ROOT and out_dir
STAGED_DIR = Path("ambit") / "v1"  # the path protoc sees: descriptors are named ambit/v1/*.proto
_OWN_IMPORT = re.compile(r"^from ambit\.v1 import (\w+_pb2)", re.MULTILINE)


def sources() -> list[Path]:
    """The .proto files, relative to PROTO_ROOT, in a stable order."""
    return sorted(p.relative_to(PROTO_ROOT) for p in (PROTO_ROOT / PACKAGE_DIR).glob("*.proto"))


def _include_dirs() -> list[str]:
    well_known = str(resources.files("grpc_tools").joinpath("_proto"))  # google/protobuf/*.proto
    status = importlib.util.find_spec("google.rpc.status_pb2")  # googleapis-common-protos
    if status is None or status.origin is None:
        raise RuntimeError("googleapis-common-protos is not installed (needed for google/rpc/status.proto)")
    return [well_known, str(Path(status.origin).parents[2])]


def build(out_dir: Path = PROTO_ROOT) -> list[Path]:
    """Generate *_pb2.py, *_pb2.pyi and *_pb2_grpc.py under out_dir/v1; returns them."""
    from grpc_tools import protoc

    out_dir = Path(out_dir)
    (out_dir / PACKAGE_DIR).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ambit-proto-") as tmp:
        stage = Path(tmp)
        (stage / STAGED_DIR).mkdir(parents=True)
        for src in sources():
            shutil.copyfile(PROTO_ROOT / src, stage / STAGED_DIR / src.name)
        args = ["grpc_tools.protoc", f"-I{stage}", *(f"-I{d}" for d in _include_dirs()),
                f"--python_out={stage}", f"--grpc_python_out={stage}", f"--pyi_out={stage}"]
        args += [str(stage / STAGED_DIR / s.name) for s in sources()]
        if protoc.main(args) != 0:
            raise RuntimeError(f"protoc failed: {' '.join(args)}")
        generated = []
        for pattern in ("*_pb2.py", "*_pb2.pyi", "*_pb2_grpc.py"):
            for path in (stage / STAGED_DIR).glob(pattern):
                text = path.read_text(encoding="utf-8")
                target = out_dir / PACKAGE_DIR / path.name
                target.write_text(_OWN_IMPORT.sub(r"from . import \1", text), encoding="utf-8")
                generated.append(target)
    return sorted(generated)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=PROTO_ROOT, help="output root (default: src/ambit/proto/)")
    ns = ap.parse_args(argv)
    for path in build(ns.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
