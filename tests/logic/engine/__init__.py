"""Tests of ambit.logic.engine."""
