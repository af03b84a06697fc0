"""Tests of ambit.client.eval.implicature."""
