"""``ambit eval``: evaluation suites under one protocol (``suite.py``, registered in
``suites.py``), one resumable runner and store, metrics as pure functions, and reports
(Markdown tables, JSON summaries, PNG plots)."""
