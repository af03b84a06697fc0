"""Tests of ambit.client.eval.folio."""
