"""Readings explained: paraphrases, distinguishing situations, clarification questions."""
