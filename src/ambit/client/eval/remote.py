"""``ambit eval`` against a model served elsewhere (``--model openai:<MODEL>@<BASE_URL>``): the
endpoint options, the capabilities each suite needs (refused before any item is sent), and the
``"remote"`` block of ``run.json`` (this session's requests, cache hits, tokens; never the key)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ambit import _files
from ambit.client.eval.store import FILE_MODE, REMOTE, RUN_KEY, RUN_KEY_LIMIT
from ambit.client.eval.suite import option

OPTIONS = (
    option("--api-key-file", help="API key of an openai:<MODEL>@<BASE_URL> model (first line; default $OPENAI_API_KEY)"),
    option("--max-concurrency", type=int, default=None,
           help="most requests in flight to an openai: model's endpoint (default 16)"),
    option("--remote-cache", default=None,
           help="response cache folder of an openai: model (default $AMBIT_CACHE/remote-responses; none: off)"),
    option("--remote-cache-max-bytes", default=None,
           help="bound of the response cache on disk, oldest entries evicted first (default 512MiB)"),
    option("--max-response-bytes", default=None,
           help="most bytes an openai: model's answer may have; a longer one is an error (default 8MiB)"),
)

class Refused(ValueError):
    """The endpoint lacks a capability the suite needs (one line; nothing was sent)."""


COUNTERS = ("requests", "cache_hits", "retries", "prompt_tokens", "completion_tokens")


def forced_decode(remote: dict | None) -> bool:
    """Whether the server scores given continuations, as AmP's FDM/FIM and P(LF0) need."""
    return remote is None or "prompt_logprobs" in (remote.get("capabilities") or [])


def options(args: argparse.Namespace) -> Any:
    """`RemoteOptions` for an embedded server fronting an ``openai:`` model; None otherwise."""
    from ambit.server.remote import RemoteOptions, is_remote, parse_spec

    if args.server or not is_remote(args.model):
        return None
    parse_spec(args.model)
    return RemoteOptions.from_args(args.api_key_file, args.max_concurrency, args.remote_cache,
                                   args.max_response_bytes, args.remote_cache_max_bytes)


def protocol_needs(suite: str, protocol: str, what: str, caps: set[str]) -> list[tuple[str, str]]:
    """What a run needs: ``score`` (``auto`` where the endpoint does not chat) needs logprobs."""
    if protocol == "auto":
        protocol = "generate" if "chat" in caps else "score"
    return [("prompt_logprobs", f"{suite} --protocol score ({what})")] if protocol == "score" else []


def refuse_missing(suite: Any, s: Any, remote: dict | None) -> None:
    """`Refused` (one line) when the endpoint lacks a capability the suite needs (`Suite.needs`)."""
    from ambit.server.remote.capabilities import refusal

    if remote is None:
        return
    caps = set(remote.get("capabilities") or [])
    for cap, what in suite.needs(s, caps):
        if cap not in caps:
            raise Refused(refusal(what, cap))


def record(out: Path, before: dict | None, after: dict | None) -> None:
    """Write the ``"remote"`` block into ``out/run.json``: this session's counters (after − before)."""
    path = out / RUN_KEY
    if before is None or after is None or not _files.exists(path):
        return
    block = {k: after[k] for k in ("base_url", "model", "capabilities", "max_concurrency")}
    block.update({k: int(after[k]) - int(before[k]) for k in COUNTERS})
    data = _files.read_json(path, RUN_KEY_LIMIT)
    if not isinstance(data, dict):  # the store wrote an object; anything else was put there by hand
        raise ValueError(f"{path}: a JSON {type(data).__name__}, not an object")
    data[REMOTE] = block
    _files.write_atomic(path, json.dumps(data, indent=2, sort_keys=True) + "\n", mode=FILE_MODE)


def run_suite(suite: Any, ctx: Any) -> dict:
    """`client.eval.runner.run_suite`, refused if the endpoint lacks what the suite needs."""
    from ambit.client.eval.runner import run_suite as run

    if ctx.client is None:
        return run(suite, ctx)
    before = endpoint(ctx.client)
    refuse_missing(suite, ctx.settings, before)
    try:
        return run(suite, ctx)
    finally:
        if before is not None:
            record(ctx.out, before, ctx.client.info().remote)


def endpoint(client: Any) -> dict | None:
    """The server's ``remote`` block (None: own model); a local embedded server is not started."""
    from ambit.client.connect import known_facts

    return None if known_facts(client) is not None else client.info().remote
