"""Reading puzzle input: files, standard input, or text given on the command line."""

from __future__ import annotations

import codecs
import re
import sys
from typing import BinaryIO

from csolve.errors import PuzzleInputError

BOM = "\ufeff"
CHUNK = 1 << 20
#: control characters no puzzle text holds (tabs, line and page breaks are white space)
CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
#: what ``str.splitlines`` ends a line at (besides the control characters refused)
_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
#: every byte but those: deleting them leaves a chunk empty when it holds none (a scan
#: ~6x faster than the pattern's, which then only finds where the first one is)
_TEXT_BYTES = bytes([*range(0x09, 0x0E), *range(0x20, 0x7F), *range(0x80, 0x100)])


def read_file(path: str) -> tuple[str, str]:
    """(text, display name) of a file, or of standard input for ``-``; one-line errors
    otherwise. A UTF-8 byte-order mark is dropped. Read a chunk at a time and refused at the
    first byte that is not UTF-8 or is a control character, so ``/dev/zero`` or
    ``/dev/urandom`` ends at once instead of filling the memory."""
    if path == "-":
        return _read_text(sys.stdin.buffer, "<stdin>"), "<stdin>"
    try:
        with open(path, "rb") as f:
            return _read_text(f, path), path
    except FileNotFoundError:
        raise PuzzleInputError(path, None, None, "no such file") from None
    except IsADirectoryError:
        raise PuzzleInputError(path, None, None, "is a directory, not a file") from None
    except OSError as e:
        raise PuzzleInputError(path, None, None, f"cannot read: {e.strerror}") from None


def _read_text(f: BinaryIO, name: str) -> str:
    decoder = codecs.getincrementaldecoder("utf-8")()
    parts: list[str] = []
    lines = 0  # line feeds in ``parts`` (where a byte that is not UTF-8 is, roughly)
    while True:
        data = f.read(CHUNK)
        try:
            text = decoder.decode(data, final=not data)
        except UnicodeDecodeError as e:
            line = lines + data[: max(0, e.start)].count(b"\n") + 1
            raise PuzzleInputError(name, line, None, "not UTF-8 text") from None
        parts.append(text)
        if data.translate(None, _TEXT_BYTES):  # a control character: where, in full
            check_text("".join(parts).removeprefix(BOM), name)
        lines += text.count("\n")
        if not data:
            return "".join(parts).removeprefix(BOM)


def check_text(text: str, name: str) -> None:
    """Refuse text with a control character no puzzle holds, at its line and column as
    the readers count them (lines split as ``str.splitlines`` splits them)."""
    bad = CONTROL.search(text)
    if bad is None:
        return
    at = bad.start()
    before = text[:at].splitlines(keepends=True)
    ends_line = bool(before) and before[-1] != before[-1].rstrip(_LINE_BREAKS)
    line = len(before) + (1 if ends_line or not before else 0)
    column = 1 if ends_line or not before else len(before[-1]) + 1
    raise PuzzleInputError(name, line, column,
                           f"control character U+{ord(bad.group()):04X}: not text")
