"""Commands that plugins add through the ``csolve_register_commands`` hook."""

from __future__ import annotations

import typer


def register_plugin_commands(app: typer.Typer) -> None:
    from csolve.plugins import call_hook

    call_hook("csolve_register_commands", cli=app)
