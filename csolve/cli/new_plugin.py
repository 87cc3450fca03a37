"""``csolve new-plugin``: write a working plugin package to start a new puzzle type from."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from csolve.cli.app import app, examples


@app.command("new-plugin", epilog=examples(
    "csolve new-plugin futoshiki && cd futoshiki && pip install -e '.[test]' && python -m pytest",
    "csolve new-plugin my-puzzle --dir plugins/my-puzzle"))
def new_plugin(
    name: Annotated[str, typer.Argument(help="The plugin's name: lower-case words joined by "
                                        "'-', e.g. futoshiki. Also the puzzle type's name.")],
    dir_: Annotated[Path | None, typer.Option("--dir", help="Folder to write the package to "
                                              "(default: ./NAME); must be new or empty.")]
    = None,
) -> None:
    """Write a plugin package that installs and passes its tests.

    Inside: a Futoshiki puzzle type with its own rule and a light entry point.

    Also a README, sample puzzles, and tests that run the contract kit."""
    from csolve.scaffold import write_plugin

    dest = dir_ if dir_ is not None else Path(name)
    files = write_plugin(name, dest)
    for f in files:
        typer.echo(f"wrote {f}")
    # from inside the package: run beside a folder named csolve (a checkout), Python would
    # import that folder as csolve instead of the installed package
    typer.echo(f"next: cd {shlex.quote(str(dest))} && pip install -e '.[test]' && "
               "python -m pytest")
