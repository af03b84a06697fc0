"""Tests of ambit.server.service."""
