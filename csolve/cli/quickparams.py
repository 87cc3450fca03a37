"""Converting option values without building a pydantic model per option.

typer (from 0.29) converts every option's value, defaults included, through a pydantic
``TypeAdapter`` it builds on first use. For one ``csolve solve`` that is pydantic's import and
some twenty adapters: about 0.15 s, a quarter of a short run. The options csolve declares are
plain (text, whole numbers with bounds, decimals with bounds, enums, lists of text), so
:class:`QuickGroup` gives each such option a converter that does the same conversion directly.

A converter only takes what is plainly valid - digits for a whole number, a listed name for an
enum, a number within bounds - and hands anything else to typer's own conversion, so that
every error message is typer's. An option of any other kind (a path, a custom parser, a
case-insensitive choice) keeps typer's conversion, as does every option when typer's internals
are not the ones this module knows (another typer version): the program then works as before,
only slower.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import Enum
from typing import Any, get_args, get_origin

import typer.core

#: a converter's answer for "not plainly valid: ask typer"
_ASK_TYPER = object()
_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")

Converter = Callable[[Any, Any], Any]  # (value, ctx) -> converted value or _ASK_TYPER


class QuickParam:
    """A parameter's conversion: the direct one, or typer's own for what it does not take.

    Stands in for typer's runtime parameter (the object whose ``coerce`` typer calls)."""

    def __init__(self, convert: Converter, descriptor: Any) -> None:
        self.convert = convert
        self.descriptor = descriptor
        self._typer: Any = None

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        multi = param.multiple or param.nargs == -1
        if value is None:  # what typer's conversion does with no value
            return () if multi else None
        out = _ASK_TYPER if multi and isinstance(value, str) else self.convert(value, ctx)
        if out is _ASK_TYPER:
            return self.typers().coerce(value, param=param, ctx=ctx)
        return out

    def typers(self) -> Any:
        """typer's own conversion for this parameter, built on first need."""
        if self._typer is None:
            from typer._coercion import build_runtime_param

            self._typer = build_runtime_param(self.descriptor)
        return self._typer


def _bounded(number: Any, info: Any) -> Any:
    low, high = info.min, info.max
    if (low is not None and number < low) or (high is not None and number > high):
        return _ASK_TYPER
    return number


def _whole(info: Any) -> Converter:
    def convert(value: Any, ctx: Any) -> Any:
        if type(value) is int:
            return _bounded(value, info)
        if isinstance(value, str) and _WHOLE.fullmatch(value):
            try:
                return _bounded(int(value), info)
            except ValueError:  # thousands of digits: Python will not convert it
                return _ASK_TYPER
        return _ASK_TYPER

    return convert


def _decimal(info: Any) -> Converter:
    def convert(value: Any, ctx: Any) -> Any:
        if type(value) in (int, float):
            return _bounded(float(value), info)
        if isinstance(value, str) and _DECIMAL.fullmatch(value):
            return _bounded(float(value), info)
        return _ASK_TYPER

    return convert


def _text(value: Any, ctx: Any) -> Any:
    return value if isinstance(value, str) else _ASK_TYPER


def _flag(value: Any, ctx: Any) -> Any:
    return value if isinstance(value, bool) else _ASK_TYPER


def _texts(value: Any, ctx: Any) -> Any:
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return list(value)
    return _ASK_TYPER


def _choice(enum: type[Enum]) -> Converter:
    by_value = {str(member.value): member for member in enum}

    def convert(value: Any, ctx: Any) -> Any:
        if isinstance(value, enum):
            return value
        if (isinstance(value, str) and value in by_value
                and getattr(ctx, "token_normalize_func", None) is None):
            return by_value[value]
        return _ASK_TYPER

    return convert


def converter(descriptor: Any) -> Converter | None:
    """The direct converter for a parameter's type, or None to keep typer's conversion."""
    info = descriptor.parameter_info
    if (descriptor.file_annotation is not None or getattr(info, "parser", None) is not None
            or getattr(info, "clamp", False)):
        return None
    kind = descriptor.annotation
    if kind is bool:
        return _flag
    if kind is str:
        return _text
    if kind is int:
        return _whole(info)
    if kind is float:
        return _decimal(info)
    if isinstance(kind, type) and issubclass(kind, Enum) and getattr(info, "case_sensitive",
                                                                      False):
        return _choice(kind)
    if get_origin(kind) is list and get_args(kind) == (str,):
        return _texts
    return None


def quicken(command: Any, ctx: Any, own: bool) -> None:
    """Give each plain parameter of ``command`` its direct converter (once), its help option
    included. ``ctx`` is the command's own context (``own``) or its parent's, which names
    the same help options unless the command's settings name others."""
    params = list(getattr(command, "params", ()))
    if own or "help_option_names" not in (getattr(command, "context_settings", None) or {}):
        params.append(command.get_help_option(ctx))  # typer keeps this one object
    for param in params:
        if (not isinstance(param, typer.core._TyperParameter)
                or getattr(param, "_runtime_param", 0) is not None
                or not hasattr(param, "type_descriptor")):
            continue
        convert = converter(param.type_descriptor)
        if convert is not None:
            param._runtime_param = QuickParam(convert, param.type_descriptor)


_KNOWN = (hasattr(typer.core, "_TyperParameter")
          and hasattr(typer.core._TyperParameter, "get_runtime_param")
          and hasattr(typer.core.TyperCommand, "get_help_option"))


class QuickGroup(typer.core.TyperGroup):
    """csolve's command group: its commands' plain options skip pydantic."""

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if _KNOWN and command is not None:
            quicken(command, ctx, own=False)
        return command

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if _KNOWN:
            quicken(self, ctx, own=True)
        return super().parse_args(ctx, args)
