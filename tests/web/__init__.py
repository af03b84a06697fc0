"""Tests of the web playground and runs viewer (ambit.web)."""
