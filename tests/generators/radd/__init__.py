"""Tests of ambit.generators.radd."""
