"""ambit.server.guard."""
