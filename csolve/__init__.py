"""csolve: fast, parallel, pluggable constraint-puzzle solving.

The core knows cells, candidate bitmasks, groups and rules; puzzles, extra rules and
work-sharing backends arrive as plugins through the ``csolve`` entry-point group.
"""

__version__ = "0.1.0"
