"""ambit.server.convert.core."""
