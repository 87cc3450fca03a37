"""Hook specifications: everything csolve can be extended with, one hook each.

A plugin is a module (or object) with functions marked ``@csolve.hookimpl`` and listed under
the ``csolve`` entry-point group of its distribution. The built-in puzzles, rules and backends
register through these same hooks. Each hook receives a ``register`` callback, so a plugin
can contribute several things at once.
"""

import pluggy

hookspec = pluggy.HookspecMarker("csolve")
hookimpl = pluggy.HookimplMarker("csolve")


@hookspec
def csolve_register_puzzles(register):
    """Register puzzle types: ``register(puzzle_type)``.

    ``puzzle_type`` is a :class:`csolve.puzzle.PuzzleType`: it parses input, builds a model,
    decodes, validates and renders solutions. Its ``name`` is what users type
    (``csolve solve NAME FILE``). A :class:`csolve.puzzle.DeferredPuzzleType` (the name and
    ``"module:Class"``) registers one that is imported only when first used.
    """


@hookspec
def csolve_register_rules(register):
    """Register propagation rules: ``register(rule)``.

    ``rule`` is a :class:`csolve.rules.Rule`: a name, the ``module:function`` path of a numba
    kernel ``f(cand, m, ws) -> int`` and a one-line description. Models list rules by name;
    the core composes them into one compiled propagation loop.
    """


@hookspec
def csolve_register_engines(register):
    """Register search engines: ``register(engine)``.

    ``engine`` is a :class:`csolve.engines.Engine`: a name, the ``module:function`` path of a
    numba kernel with the search template's signature and contract, and a one-line
    description. A model that names an engine is searched by it instead of the generic DFS:
    a puzzle type can bring a search specialised to its structure (say, bitboards for 9x9
    Sudoku) while backends, batches and the generator keep working unchanged.
    """


@hookspec
def csolve_register_backends(register):
    """Register search backends: ``register(backend)``.

    ``backend`` is a :class:`csolve.backends.Backend`: a work-sharing policy that runs the
    search kernels on one or more workers (docs/plugin-api.md, "Backends and commands").
    """


@hookspec
def csolve_register_commands(cli):
    """Add commands to the ``csolve`` command line: ``cli`` is the typer application
    (``@cli.command()``); a :class:`csolve.errors.CsolveError` a command raises is one
    error line with its exit code."""
