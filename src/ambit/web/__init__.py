"""The playground and the results viewer in the browser (`ambit serve --http PORT`, the `web` extra).

Above `ambit.server.service` (every answer comes from the `AmbitCore` methods the RPCs call) and
the logic layer; nothing in ambit imports it: `ambit serve` loads `ambit.web.serve` by name for
`--http`. Modules: `serve` and `process` (where it runs), `app`, `guard`, `protocol`, `limits`,
`logs`, `api` (`body`, `upstream`, `views`, `errors`) and `runs` (the results viewer).
"""
