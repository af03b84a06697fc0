"""ambit.logic.runtime."""
