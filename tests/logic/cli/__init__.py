"""Tests of ambit.logic.cli."""
