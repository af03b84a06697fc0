"""Tests of ambit.generators.amp."""
