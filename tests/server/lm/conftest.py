"""Model fixtures for the engine tests: the tiny random GPT-2 (`helpers.tiny_gpt2`) and the
default model (skipped when it cannot be loaded), one of each per session."""

from __future__ import annotations

import os

import pytest

from ambit.server.lm.loading import LoadedModel
from tests.helpers.engine import tiny_gpt2


@pytest.fixture(scope="session")
def tiny_lm(tmp_path_factory) -> LoadedModel:
    return tiny_gpt2(tmp_path_factory.mktemp("gpt2vocab"))


@pytest.fixture(scope="session")
def smol_lm() -> LoadedModel:
    from ambit.server.lm import load_model

    try:  # float32 on any device: the exactness tests compare to 1e-4
        return load_model(device=os.environ.get("AMBIT_DEVICE") or None, dtype="float32")
    except Exception as e:  # noqa: BLE001
        pytest.skip(f"default model unavailable: {e}")
