"""Which backend serves a model spec, and which worker runs its jobs. Apart from `model` so that
`ambit.server.model` (the embedded engine's interface) never imports `ambit.server.remote`, which
imports it: the two stay one-way (remote -> model), with no cycle.
"""

from __future__ import annotations

from typing import Any

from ambit.server.model import ModelBackend


def load_backend(spec: str | None = None, device: str | None = None, dtype: str | None = None,
                 remote: Any = None) -> Any:
    """The backend of a model spec: `openai:<MODEL>@<BASE_URL>` is a model served elsewhere
    (`server.remote`, probed now: a bad key or unknown model fails here; `remote` is its
    `RemoteOptions`); anything else loads into the embedded engine."""
    from ambit.server.remote import RemoteOptions, is_remote

    if is_remote(spec):
        from ambit.server.remote.backend import RemoteBackend

        if device or dtype:
            raise ValueError("--device and --dtype do not apply to a remote model (the endpoint chooses)")
        return RemoteBackend.load(spec, remote if remote is not None else RemoteOptions())
    return ModelBackend.load(spec, device=device, dtype=dtype)


def worker_for(backend: Any, max_batch: int, max_wait_s: float, max_queue: int) -> Any:
    """The model worker: concurrent requests for a remote backend (up to its --max-concurrency),
    the one batching model thread (`server.batcher.ModelWorker`) for the embedded engine."""
    from ambit.server.batcher import ModelWorker

    concurrency = getattr(backend, "max_concurrency", None)
    if concurrency:
        from ambit.server.remote.worker import ConcurrentWorker

        return ConcurrentWorker(backend, concurrency, max_queue)
    return ModelWorker(backend, max_batch, max_wait_s, max_queue)
