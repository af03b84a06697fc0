"""Tests of ambit.logic.radd."""
