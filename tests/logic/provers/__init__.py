"""Tests of ambit.logic.provers."""
