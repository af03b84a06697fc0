"""Regenerate the Python stubs from `proto/ambit/v1/*.proto`: `python -m proto.build`.

Runs grpc_tools.protoc with `-I proto`, so the modules are `ambit/v1/*_pb2*.py(i)`, written
next to their sources, then rewrites the generated absolute imports between our own modules
(`from ambit.v1 import x_pb2`) into relative ones so `proto.ambit.v1` works as a package.
`build(out_dir)` writes elsewhere; the stale-stub test regenerates into a tmp dir and compares.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from importlib import resources
from pathlib import Path

PROTO_ROOT = Path(__file__).resolve().parent
PACKAGE_DIR = Path("ambit") / "v1"
_OWN_IMPORT = re.compile(r"^from ambit\.v1 import (\w+_pb2)", re.MULTILINE)


def sources() -> list[Path]:
    """The .proto files, relative to PROTO_ROOT, in a stable order."""
    return sorted(p.relative_to(PROTO_ROOT) for p in (PROTO_ROOT / PACKAGE_DIR).glob("*.proto"))


def _include_dirs() -> list[str]:
    well_known = str(resources.files("grpc_tools").joinpath("_proto"))  # google/protobuf/*.proto
    status = importlib.util.find_spec("google.rpc.status_pb2")  # googleapis-common-protos
    if status is None or status.origin is None:
        raise RuntimeError("googleapis-common-protos is not installed (needed for google/rpc/status.proto)")
    common = str(Path(status.origin).parents[2])
    return [str(PROTO_ROOT), well_known, common]


def build(out_dir: Path = PROTO_ROOT) -> list[Path]:
    """Generate *_pb2.py, *_pb2.pyi and *_pb2_grpc.py under out_dir/ambit/v1; returns them."""
    from grpc_tools import protoc

    out_dir = Path(out_dir)
    (out_dir / PACKAGE_DIR).mkdir(parents=True, exist_ok=True)
    args = ["grpc_tools.protoc"]
    args += [f"-I{d}" for d in _include_dirs()]
    args += [f"--python_out={out_dir}", f"--grpc_python_out={out_dir}", f"--pyi_out={out_dir}"]
    args += [str(s) for s in sources()]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc failed: {' '.join(args)}")
    generated = sorted(
        p for pattern in ("*_pb2.py", "*_pb2.pyi", "*_pb2_grpc.py") for p in (out_dir / PACKAGE_DIR).glob(pattern)
    )
    for path in generated:
        text = path.read_text(encoding="utf-8")
        fixed = _OWN_IMPORT.sub(r"from . import \1", text)
        if fixed != text:
            path.write_text(fixed, encoding="utf-8")
    return generated


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=PROTO_ROOT, help="output root (default: proto/)")
    ns = ap.parse_args(argv)
    for path in build(ns.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
