"""The ``csolve`` program's entry point, kept apart from :mod:`csolve.cli` so that a Ctrl-C
while the command line's modules load (typer, the plugins' registrations) is one line,
``csolve: interrupted``, and exit code 130, not a traceback."""

from __future__ import annotations

import sys


def run() -> None:
    """Load the command line and run it (:func:`csolve.cli.run`)."""
    try:
        from csolve.cli import run as run_cli
    except KeyboardInterrupt:
        sys.stderr.write("csolve: interrupted\n")
        raise SystemExit(130) from None
    run_cli()
