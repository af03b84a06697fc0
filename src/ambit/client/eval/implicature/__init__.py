"""ambit.client.eval.implicature.suite."""
