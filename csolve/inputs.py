"""What every reader of puzzle input agrees on: which characters are digits, how deep and
how big a JSON record may be, and what a text with no puzzle in it is told.

Python's ``str.isdigit`` also accepts Arabic-Indic, fullwidth and superscript digits (and
``int`` refuses some of those), so one reader took ``'٣'`` for 3 while another refused it.
Input digits are ASCII ``0-9`` everywhere. ``json.loads`` recurses once per nesting level: a
line of a thousand ``[`` ended in a ``RecursionError``; :func:`load_json` refuses such a
record (and an oversized one) with a one-line error before decoding it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from csolve.errors import PuzzleInputError, clip_words

DIGITS = "0123456789"
#: nesting (arrays and objects inside one another) a JSON puzzle record may have
MAX_JSON_DEPTH = 32
#: characters one JSON puzzle record may have (a 64x64 grid of tokens is far below)
MAX_JSON_CHARS = 1 << 20

_NUMBER = re.compile(r"[0-9]+")
_SIGNED = re.compile(r"[+-]?[0-9]+")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")


def no_puzzle_found(source: str, text: str) -> PuzzleInputError:
    """The error for a text that holds no puzzle, saying whether it held anything at all."""
    return PuzzleInputError(source, None, None, (
        "no puzzle found (only blank lines and comments)" if text.strip()
        else "no puzzle found (the input is empty)"))


def is_number(token: str) -> bool:
    """True for a non-empty run of ASCII digits (no sign, no other script's digits)."""
    return _NUMBER.fullmatch(token) is not None


#: digits past which a number is read as 10**18: larger than any value or sum a puzzle takes,
#: and Python refuses to convert numbers of thousands of digits
LONGEST_NUMBER = 18


def number_value(token: str) -> int:
    """The value of a token :func:`is_number` accepts, capped at 10**18 so that a slip of a
    5,000-digit number is "out of range" like any other, not a conversion error."""
    digits = token.lstrip("0")
    return int(digits or "0") if len(digits) <= LONGEST_NUMBER else 10 ** LONGEST_NUMBER


def is_signed_number(token: str) -> bool:
    """True for ASCII digits with an optional sign: a number a reader should name when it
    refuses it (say, a negative one), rather than read its digits alone."""
    return _SIGNED.fullmatch(token) is not None


def json_depth(text: str) -> int:
    """How deeply arrays and objects nest in ``text`` (brackets inside strings not counted);
    linear time, no recursion."""
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub('""', text)):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def load_json(text: str, source: str, line: int | None,
              max_depth: int = MAX_JSON_DEPTH, max_chars: int = MAX_JSON_CHARS) -> Any:
    """``json.loads(text)``, or a one-line :class:`PuzzleInputError` at ``source:line`` when
    the text is not JSON, nests deeper than ``max_depth`` or is longer than ``max_chars``."""
    if len(text) > max_chars:
        raise PuzzleInputError(source, line, None,
                               f"JSON record of {len(text):,} characters; at most "
                               f"{max_chars:,} are read")
    depth = json_depth(text)
    if depth > max_depth:
        raise PuzzleInputError(source, line, None,
                               f"JSON nested {depth} levels deep; at most {max_depth} are read")
    try:
        return json.loads(text, parse_int=_json_int)
    except json.JSONDecodeError as e:
        raise PuzzleInputError(source, line, e.colno, f"bad JSON: {e.msg}") from None
    except (RecursionError, ValueError) as e:  # e.g. an integer of too many digits
        raise PuzzleInputError(source, line, None, f"bad JSON: {e}") from None


def json_text(value: Any) -> str:
    """A value read from JSON as JSON writes it (``true``, ``null``, ``"4"``), for a message
    about a field: Python's spellings (``True``, ``None``) are not what the file holds."""
    return clip_words(json.dumps(value))


def _json_int(text: str) -> int:
    """A JSON integer as it is (an ``id`` of 20 digits goes back out unchanged); one Python
    will not convert (thousands of digits) capped as :func:`number_value` caps a token, so
    that it is out of range where it is read, not a conversion error."""
    try:
        return int(text)
    except ValueError:
        value = number_value(text.lstrip("-"))
        return -value if text.startswith("-") else value


#: the fields of a ``csolve generate --output json`` record: a record with others, for a type
#: with a JSON form of its own, is that type's JSON
GENERATED_FIELDS = frozenset({"puzzle", "seed", "size", "box", "clues", "text", "givens",
                              "solution", "difficulty", "tries"})


def generated_text(text: str, source: str, kind: str, own_json: bool,
                   comment: str = "#") -> tuple[str, str | None] | None:
    """The puzzles of ``csolve generate --output json`` (one object per line, the puzzle in
    its one-line form under ``"text"``) as that text, line for line: what generate writes,
    solve reads, and an error still names the record's line. Blank lines and the type's
    ``comment`` lines stay as they are. With the text, the box shape the records carry
    (``"box": "3x2"``, written when one was asked for; None: the size's default). None when
    the input is not such records: a type with a JSON form of its own (``own_json``, say
    Kakuro's ``"grid"``) reads the rest; for a type without one, other JSON is a one-line
    error."""
    lines = text.split("\n")
    first = next((i for i, ln in enumerate(lines)
                  if ln.strip() and not ln.lstrip().startswith(comment)), None)
    if first is None or not lines[first].lstrip().startswith("{"):
        return None
    try:
        record = load_json(lines[first], source, first + 1)
    except PuzzleInputError:
        if own_json:  # the type's own reader says what is wrong, in its words
            return None
        raise
    if own_json and not (isinstance(record, dict) and "text" in record
                         and set(record) <= GENERATED_FIELDS):
        return None  # the type's own JSON (a janko.at record may carry a "text" note too)
    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        raise PuzzleInputError(source, first + 1, None, _not_a_record(record, kind))
    out = []
    boxes: set[object] = set()
    for no, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith(comment):
            out.append(line)
            continue
        record = load_json(line, source, no)
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            raise PuzzleInputError(source, no, None, _not_a_record(record, kind, later=True))
        boxes.add(record.get("box"))
        if len(boxes) > 1:
            raise PuzzleInputError(source, no, None, "the records' box shapes differ "
                                   f"({', '.join(sorted(map(str, boxes)))}): read them apart")
        puzzle = record["text"]
        if len(puzzle.splitlines()) != 1 or not puzzle.strip() or puzzle.lstrip().startswith(
                comment):
            raise PuzzleInputError(source, no, None,
                                   "a record's 'text' holds one puzzle on one line")
        out.append(puzzle)
    box = next(iter(boxes), None)
    if box is not None and not isinstance(box, str):
        raise PuzzleInputError(source, first + 1, None, f"'box' holds {box!r}, not a shape "
                               "such as \"3x2\"")
    return "\n".join(out), box


def _not_a_record(record: Any, kind: str, later: bool = False) -> str:
    """Why ``record`` is not one of generate's records, in words."""
    if isinstance(record, dict) and "text" in record:
        held = type(record["text"]).__name__
        return (f"'text' holds a JSON {_JSON_NAMES.get(held, held)}, not the puzzle's line "
                "(a string)")
    if later:
        return ("a record of csolve generate --output json needs its 'text' field, as the "
                "records before it have")
    return (f"{kind} reads JSON only as csolve generate --output json writes it: one object "
            "per line, the puzzle under 'text'")


#: JSON's names for the Python types ``json.loads`` gives
_JSON_NAMES = {"int": "number", "float": "number", "bool": "boolean", "NoneType": "null",
               "list": "array", "dict": "object"}
