"""ambit.logic.provers."""
