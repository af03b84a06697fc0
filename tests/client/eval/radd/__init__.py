"""Tests of ambit.client.eval.radd."""
