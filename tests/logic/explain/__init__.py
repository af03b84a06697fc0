"""Tests of ambit.logic.explain."""
