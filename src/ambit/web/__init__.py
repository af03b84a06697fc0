"""The playground and the results viewer in the browser (`ambit serve --http PORT`, the `web` extra).

Where it sits: above `ambit.server.service` (the gRPC-free core: every answer the pages show comes
from the same `AmbitCore` methods the RPCs call, in the same process as the gRPC server), the
logic layer and the evaluation's result files. It imports no gRPC, no protobuf and no model code,
and nothing in ambit imports it: `ambit serve` loads `ambit.web.serve` by name when `--http` is given.

- `serve`: binding (loopback by default; elsewhere only with TLS and a token), uvicorn in a thread;
- `app`: the Starlette application, its routes and the static pages;
- `guard`: same-origin, Host, token and size checks, and the security headers of every response;
- `api`: the JSON API on the service core; `views`: domain values as JSON;
- `runs`: the runs viewer's reads, confined to the folders given with `--runs`.
"""
