"""ambit.client.eval.amp.suite."""
