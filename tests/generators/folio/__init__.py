"""Tests of ambit.generators.folio."""
