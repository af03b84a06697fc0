"""Tests of ambit.client.eval.amp."""
