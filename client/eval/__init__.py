"""``client eval``: resumable evaluation runners (AmP zero/few-shot, RADD, implicature),
metrics as pure functions, and reports (Markdown tables, JSON summaries, PNG plots)."""
