"""Tests of ambit.logic.syntax."""
