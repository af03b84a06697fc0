"""Models served elsewhere: an OpenAI-compatible HTTP backend (vLLM, SGLang, TGI, llama.cpp's
server, hosted APIs) behind the server's `ModelBackend` interface.

`--model openai:<MODEL>@<BASE_URL>` selects it (`spec.parse_spec`). Capabilities are probed
once at start-up (`capabilities.probe`); requests go through one `http.Endpoint` (bounded
concurrency, retries with backoff, an on-disk response cache, request and token counters).
No torch and no grpc here.
"""

from ambit.server.remote.spec import RemoteOptions, RemoteSpec, is_remote, parse_spec

__all__ = ["RemoteOptions", "RemoteSpec", "is_remote", "parse_spec"]
