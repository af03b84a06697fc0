"""ambit.logic.syntax."""
