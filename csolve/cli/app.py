"""The typer application and its small commands; ``solve`` and friends live beside it."""

from __future__ import annotations

from typing import Annotated

import typer

from csolve import __version__
from csolve.cli.quickparams import QuickGroup

EXIT_CODES_HELP = (
    "Exit codes: 0 done (solved, counted, valid, made), 1 no solution / invalid grid, 2 bad "
    "input or usage, 3 time-out, 4 internal error (a bug: say, a solution failed validation; "
    "or a worker process that died), "
    "5 output not written (a full disk), 130 interrupted, 141 output pipe closed, 143 "
    "terminated."
)



def examples(*commands: str, exit_codes: bool = False) -> str:
    """A command's help epilog: example command lines (one paragraph each, so rich keeps
    them apart), then the exit codes. A ``[`` in a command is text, not rich markup."""
    text = "Examples:\n\n" + "\n\n".join(c.replace("[", "\\[") for c in commands)
    return text + ("\n\n" + EXIT_CODES_HELP if exit_codes else "")


app = typer.Typer(
    name="csolve",
    cls=QuickGroup,  # plain options are converted without pydantic (cli/quickparams.py)
    help="Fast, parallel, pluggable constraint-puzzle solver.\n\n" + EXIT_CODES_HELP,
    epilog=examples("csolve solve sudoku puzzles/sudoku/9x9-hard.txt",
                    "csolve explain sudoku puzzles/sudoku/9x9-hard.txt --output html > steps.html",
                    "csolve SUBCOMMAND --help"),
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"csolve {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", "-V", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    pass


@app.command("list-plugins", epilog=examples("csolve list-plugins"))
def list_plugins_cmd() -> None:
    """Installed plugins: what they provide, their version and where they come from."""
    from rich.console import Console
    from rich.table import Table

    from csolve.backends import all_backends
    from csolve.engines import all_engines
    from csolve.plugins import list_plugins
    from csolve.puzzle import puzzle_types_by_plugin
    from csolve.rules import all_rules

    puzzles_by_plugin = puzzle_types_by_plugin()
    for registry in (all_rules, all_engines, all_backends):  # their warnings, here too
        registry()
    table = Table(title="csolve plugins")
    for col in ("plugin", "puzzles", "hooks", "version", "distribution"):
        table.add_column(col)
    for info in list_plugins():
        table.add_row(info.name, ", ".join(puzzles_by_plugin.get(info.name, [])) or "-",
                      ", ".join(h.removeprefix("csolve_") for h in info.hooks),
                      info.version, info.dist)
    Console().print(table)


@app.command("list-types", epilog=examples(
    "csolve list-types", "csolve solve kakuro puzzles/kakuro/small.txt --format json"))
def list_types_cmd() -> None:
    """Puzzle types: what each is, the formats it reads (--format) and what else it can do."""
    from rich.console import Console
    from rich.table import Table

    from csolve.puzzle import PuzzleType, all_puzzle_types, puzzle_types_by_plugin

    plugin_of = {name: plugin for plugin, names in puzzle_types_by_plugin().items()
                 for name in names}
    extras = (("generate", "generate"), ("to_svg", "pictures"), ("format_grid", "grid output"))
    table = Table(title="csolve puzzle types")
    for col in ("type", "plugin", "formats read", "beyond solving", "what it is"):
        table.add_column(col)
    for name, ptype in sorted(all_puzzle_types().items()):
        also = [word for method, word in extras
                if getattr(type(ptype), method) is not getattr(PuzzleType, method)]
        table.add_row(name, plugin_of.get(name, "?"), ", ".join(ptype.formats) or "-",
                      ", ".join(also) or "-", ptype.description)
    Console().print(table)


@app.command("list-backends", epilog=examples(
    "csolve list-backends",
    "csolve solve sudoku puzzles/sudoku/16x16.txt --backend work-stealing --workers 4"))
def list_backends_cmd() -> None:
    """Search backends (work-sharing policies) for --backend."""
    from rich.console import Console
    from rich.table import Table

    from csolve.backends import all_backends

    table = Table(title="csolve backends")
    for col in ("name", "parallel", "from", "how it shares work"):
        table.add_column(col)
    for b in sorted(all_backends().values(), key=lambda b: (b.name != "serial", b.name)):
        table.add_row(b.name, "yes" if b.parallel else "no", b.origin, b.description)
    Console().print(table)


@app.command("list-rules", epilog=examples(
    "csolve list-rules",
    "csolve solve sudoku puzzles/sudoku/9x9-hard.txt --rules elimination,hidden-single,naked-pair"))
def list_rules_cmd() -> None:
    """Propagation rules models can use (--rules)."""
    from rich.console import Console
    from rich.table import Table

    from csolve.rules import all_rules

    table = Table(title="csolve rules")
    for col in ("name", "plugin", "what it does"):
        table.add_column(col)
    for r in sorted(all_rules().values(), key=lambda r: r.name):
        table.add_row(r.name, r.origin, r.description)
    Console().print(table)


@app.command("list-engines", epilog=examples(
    "csolve list-engines", "csolve solve sudoku puzzles/sudoku/25x25.txt --engine learning"))
def list_engines_cmd() -> None:
    """Search engines models can be searched with (--engine)."""
    from rich.console import Console
    from rich.table import Table

    from csolve.engines import GENERIC, all_engines

    table = Table(title="csolve search engines")
    for col in ("name", "plugin", "searches", "how"):
        table.add_column(col)
    table.add_row(GENERIC, "core", "any model",
                  "the model's rules to a fixpoint, then branch on the fewest candidates")
    for e in sorted(all_engines().values(), key=lambda e: e.name):
        table.add_row(e.name, e.origin, e.models, e.description)
    Console().print(table)


# commands with more to them live in their own modules
from csolve.cli import bench as _bench  # noqa: E402,F401
from csolve.cli import generate as _generate  # noqa: E402,F401
from csolve.cli import new_plugin as _new_plugin  # noqa: E402,F401
from csolve.cli import render as _render  # noqa: E402,F401
from csolve.cli import solve as _solve  # noqa: E402,F401
from csolve.cli import tactics as _tactics  # noqa: E402,F401
from csolve.cli import validate as _validate  # noqa: E402,F401
from csolve.cli.plugin_commands import register_plugin_commands  # noqa: E402

register_plugin_commands(app)
