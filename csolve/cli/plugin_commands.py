"""Commands that plugins add through the ``csolve_register_commands`` hook."""

from __future__ import annotations

import typer


def register_plugin_commands(app: typer.Typer) -> None:
    from csolve.plugins import get_plugin_manager

    get_plugin_manager().hook.csolve_register_commands(cli=app)
