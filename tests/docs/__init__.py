"""Tests of the documentation: README.md and docs/ (MkDocs build, runnable examples)."""
