"""``csolve new-plugin``: write a working plugin package to start a new puzzle type from."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from csolve.cli.app import app


@app.command("new-plugin")
def new_plugin(
    name: Annotated[str, typer.Argument(help="The plugin's name: lower-case words joined by "
                                        "'-', e.g. futoshiki. Also the puzzle type's name.")],
    dir_: Annotated[Path | None, typer.Option("--dir", help="Folder to write the package to "
                                              "(default: ./NAME); must be new or empty.")]
    = None,
) -> None:
    """Write a plugin package (a Futoshiki puzzle type with its own rule, a light entry point,
    README, sample puzzles and contract-kit tests) that installs and passes its tests."""
    from csolve.scaffold import write_plugin

    dest = dir_ if dir_ is not None else Path(name)
    files = write_plugin(name, dest)
    for f in files:
        typer.echo(f"wrote {f}")
    typer.echo(f"next: pip install -e {dest} && pytest {dest}")
