"""Tests of ambit.logic.runtime."""
