"""Kakuro: a sum puzzle as a csolve plugin (all-different runs with a sum rule)."""
