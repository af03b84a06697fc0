"""Tests of ambit.server.guard."""
