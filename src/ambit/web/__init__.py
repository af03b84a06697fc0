"""The playground and the results viewer in the browser (`ambit serve --http PORT`, the `web` extra).

Where it sits: above `ambit.server.service` (the core: every answer the pages show comes from the
same `AmbitCore` methods the RPCs call, through the same call scope), the logic layer and the
evaluation's result files. `ambit serve --http` runs it in a process of its own beside the gRPC
server, on a core of its own, reaching that server as a gRPC client for the model only; nothing in
ambit imports it: `ambit serve` loads `ambit.web.serve` by name when `--http` is given.

- `serve`: binding (loopback by default; elsewhere only with TLS and a token), the web process
  (`process`, `python -m ambit.web`) or uvicorn on a thread (`--http-in-process`, embeddings, tests);
- `app`: the Starlette application, its routes and the static pages;
- `guard`: same-origin, Host, token and size checks, and the security headers of every response;
- `protocol`, `limits`, `logs`: bounded connections and requests, the web port's bounds, repeated
  log lines counted;
- `api`: the JSON API on the service core (`body`: bodies under a budget, checked off the loop;
  `upstream`: the gRPC server, for the model); `views`: domain values as JSON; `errors`: the one
  error shape;
- `runs`: the runs viewer's reads, confined to the folders given with `--runs`, indexed, at the
  size of a page.
"""
