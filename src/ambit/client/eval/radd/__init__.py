"""ambit.client.eval.radd.suite."""
