"""Models served elsewhere: an OpenAI-compatible HTTP backend (vLLM, SGLang, hosted APIs) behind
the `ModelBackend` interface, selected by `--model openai:<MODEL>@<BASE_URL>`; no torch or grpc."""

from ambit.server.remote.spec import RemoteOptions, RemoteSpec, is_remote, parse_spec

__all__ = ["RemoteOptions", "RemoteSpec", "is_remote", "parse_spec"]
