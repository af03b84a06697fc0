"""Model loading: helpful errors, the verified GGUF conversion cache, safe concurrent conversion."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
import torch

from ambit.server.lm import ModelLoadError, load_model
from ambit.server.lm import loading


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("AMBIT_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_default_gguf_is_found_without_importing_the_package():
    path = loading.default_gguf()
    assert path.name == loading.DEFAULT_GGUF and path.stat().st_size > 10_000_000


def test_missing_files_say_what_was_looked_for(cache, tmp_path):
    with pytest.raises(ModelLoadError, match="does not exist"):
        load_model(str(tmp_path / "nope.gguf"))
    with pytest.raises(ModelLoadError, match="no GGUF file found.*pip install"):
        load_model("pkg:no-such-distribution-xyz")
    with pytest.raises(ModelLoadError, match="could not load model"):
        load_model(str(tmp_path))  # a folder without a model


def test_broken_gguf_is_reported(cache, tmp_path):
    bad = tmp_path / "broken.gguf"
    bad.write_bytes(b"GGUF" + b"\0" * 64)
    with pytest.raises(ModelLoadError, match="could not read GGUF"):
        load_model(str(bad))
    assert not any(p.name.startswith("broken") for p in cache.iterdir())  # nothing half-written published


def fake_convert(calls: list, delay: float = 0.2):
    def convert(gguf: Path, out: Path, sha: str) -> None:
        calls.append(threading.get_ident())
        time.sleep(delay)
        (out / "model.safetensors").write_bytes(b"weights-" + sha.encode())
        digest = loading.sha256_file(out / "model.safetensors")
        (out / loading.MANIFEST).write_text(json.dumps({"gguf_sha256": sha, "weights": {"model.safetensors": digest}}))

    return convert


def test_conversion_is_cached_and_verified(cache, tmp_path, monkeypatch):
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"fake gguf")
    calls: list = []
    monkeypatch.setattr(loading, "_convert", fake_convert(calls, 0))
    a = loading.converted_folder(gguf)
    b = loading.converted_folder(gguf)
    assert a == b and len(calls) == 1
    (a / "model.safetensors").write_bytes(b"tampered")  # checksum mismatch -> reconverted
    assert not loading.verify_folder(a, loading.sha256_file(gguf))
    c = loading.converted_folder(gguf)
    assert c == a and len(calls) == 2 and loading.verify_folder(c, loading.sha256_file(gguf))


def test_concurrent_first_conversions_do_not_corrupt_the_cache(cache, tmp_path, monkeypatch):
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"another fake gguf")
    calls: list = []
    monkeypatch.setattr(loading, "_convert", fake_convert(calls, 0.3))
    results, errors = [], []

    def run():
        try:
            results.append(loading.converted_folder(gguf))
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(set(results)) == 1
    assert loading.verify_folder(results[0], loading.sha256_file(gguf))
    leftovers = [p for p in cache.iterdir() if p.name.startswith(".") and p.name != ".sha"]
    assert leftovers == []


def test_dtype_and_device_choice():
    assert loading.pick_dtype(None, torch.device("cpu")) == torch.float32
    assert loading.pick_dtype("bf16", torch.device("cpu")) == torch.bfloat16
    with pytest.raises(ValueError):
        loading.pick_dtype("int3", torch.device("cpu"))
    assert loading.pick_device("cpu").type == "cpu"


@pytest.mark.slow
def test_default_model_loads_from_the_verified_cache():
    t0 = time.perf_counter()
    lm = load_model()
    assert lm.model_id == loading.DEFAULT_SPEC and lm.vocab_size == 49152
    assert lm.dtype == (torch.float32 if lm.device.type == "cpu" else lm.dtype)
    assert "convert_s" in lm.timings or time.perf_counter() - t0 < 60
