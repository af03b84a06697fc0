"""ambit.logic.engine."""
