"""Sudoku n×n for csolve (n = k², 4 to 64): formats, model, validator, rendering."""
