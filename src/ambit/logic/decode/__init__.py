"""ambit.logic.decode."""
