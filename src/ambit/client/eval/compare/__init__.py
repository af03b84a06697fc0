"""ambit.client.eval.compare.suite."""
