"""Reading puzzle input: files, standard input, or text given on the command line."""

from __future__ import annotations

import sys

from csolve.errors import PuzzleInputError

BOM = "\ufeff"


def read_file(path: str) -> tuple[str, str]:
    """(text, display name) of a file, or of standard input for ``-``; one-line errors
    otherwise. A UTF-8 byte-order mark is dropped."""
    if path == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
    else:
        name = path
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            raise PuzzleInputError(name, None, None, "no such file") from None
        except IsADirectoryError:
            raise PuzzleInputError(name, None, None, "is a directory, not a file") from None
        except OSError as e:
            raise PuzzleInputError(name, None, None, f"cannot read: {e.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise PuzzleInputError(name, line, None, "not UTF-8 text") from None
    return text.removeprefix(BOM), name

