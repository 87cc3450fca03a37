"""Str8ts: a straights puzzle as a csolve plugin (rows, columns and compartments)."""
