"""Tests of ambit.generators.implicature."""
