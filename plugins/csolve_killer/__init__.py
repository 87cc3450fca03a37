"""Killer Sudoku: cages of distinct digits adding up to their sums, over Sudoku rules."""
