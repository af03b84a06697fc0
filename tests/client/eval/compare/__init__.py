"""Tests of ambit.client.eval.compare."""
