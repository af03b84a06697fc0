"""ambit.client.eval.folio.suite."""
