"""SVG pictures of puzzles: the drawing pieces every plugin shares, and stacking pictures.

A plugin's ``PuzzleType.to_svg`` lays its grid out and draws each cell with
:func:`draw_cell`, so every puzzle type looks alike: givens black and bold, values the solver
filled in blue, candidates as small symbols on a sub-grid of the cell. A step of an
explanation is marked the way HoDoKu and SudokuWiki show one: the cells of the pattern
green, the groups it lives in tinted yellow, the value placed on a green disc, removed
candidates on a red disc and struck through. :func:`stack` puts several documents into one,
:func:`html_page` into a web page.

No numpy here: the core draws from plain ints.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from html import escape as html_escape
from itertools import groupby
from math import isqrt
from xml.sax.saxutils import escape, quoteattr

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"

GIVEN = "#111111"  # givens: black, bold
FILLED = "#1f5fbf"  # values the solver filled in: blue
CANDIDATE = "#707070"  # candidates: small and grey
THIN = "#9a9a9a"  # lines between cells
THICK = "#111111"  # lines between boxes, the border
SHADE = "#2b2b2b"  # black cells (Kakuro, Str8ts)
ON_SHADE = "#ffffff"  # text on black cells
PATTERN = "#c6ecbf"  # the cells a step's pattern is made of: green
GROUP = "#fbf1c4"  # the groups a step lives in: yellow
PLACED = "#3fae4f"  # the value a step places: a green disc
KEPT = "#9fd89a"  # the pattern's own candidates: a light green disc
REMOVED = "#e0413a"  # candidates a step removes: a red disc, struck through


def num(v: float) -> str:
    """A coordinate, short: at most two decimals, no trailing zeros."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


#: an element whose presentation attributes it may share with its neighbours, as
#: ('<text x=".." y=".."', 'font-size=".." fill=".."', '>5</text>'): a run of them is
#: written as one ``<g font-size=".." fill="..">`` around the elements without them, so a
#: step's hundreds of candidates do not each repeat their font and colour
Shared = tuple[str, str, str]


def grouped(parts: Sequence[str | Shared]) -> str:
    """The markup of ``parts``, each run of elements with the same shared attributes inside
    one ``<g>`` (the attributes are inherited, and the drawing order is kept)."""
    out: list[str] = []
    for shared, run in groupby(parts, lambda p: "" if isinstance(p, str) else p[1]):
        if not shared:
            out.extend(run)
            continue
        elements = list(run)
        if len(elements) == 1:
            head, _, tail = elements[0]
            out.append(f"{head} {shared}{tail}")
        else:
            out.append(f"<g {shared}>")
            out.extend(head + tail for head, _, tail in elements)
            out.append("</g>")
    return "".join(out)


class Canvas:
    """A list of SVG elements with the document around them."""

    def __init__(self, width: float, height: float, title: str = "") -> None:
        self.width = width
        self.height = height
        self.title = title
        #: the elements in drawing order: markup, or a :data:`Shared` element
        self.parts: list[str | Shared] = []
        #: the step's words under the grid (x, y, lines), written last by :meth:`document`
        self.caption: tuple[float, float, list[str]] | None = None

    @classmethod
    def for_grid(cls, width: float, height: float, title: str, marks: Marks | None,
                 margin: float) -> Canvas:
        """A canvas for a grid ``width`` x ``height`` inside ``margin`` on every side; with a
        step's ``marks``, its words go in the title and under the grid, wrapped to the grid's
        width (or 380, for a small grid)."""
        text_width = max(width, 380.0) if marks is not None else width
        lines = caption_lines(marks.text if marks is not None else "", text_width)
        c = cls(text_width + 2 * margin,
                height + 2 * margin + (len(lines) * 14 * 1.3 + 6 if lines else 0),
                title + (f" - {marks.text}" if marks is not None else ""))
        if lines:
            c.caption = (margin, margin + height + 6, lines)
        return c

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none",
             stroke: str | None = None, stroke_width: float = 1.0) -> None:
        s = f' stroke="{stroke}" stroke-width="{num(stroke_width)}"' if stroke else ""
        self.parts.append(f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" '
                          f'height="{num(h)}" fill="{fill}"{s}/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = THIN,
             width: float = 1.0, dash: str | None = None) -> None:
        """A line; ``dash`` is an SVG dash pattern ("3 2": 3 drawn, 2 left out)."""
        cap = f'stroke-dasharray="{dash}" stroke-linecap="butt"' if dash else \
            'stroke-linecap="square"'
        head = f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}"'
        self.parts.append((head, f'stroke="{stroke}" stroke-width="{num(width)}" {cap}', "/>"))

    def circle(self, cx: float, cy: float, r: float, fill: str) -> None:
        self.parts.append(f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}" fill="{fill}"/>')

    def polygon(self, points: Sequence[tuple[float, float]], fill: str) -> None:
        pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        self.parts.append(f'<polygon points="{pts}" fill="{fill}"/>')

    def text(self, x: float, y: float, s: str, size: float, fill: str = GIVEN,
             bold: bool = False, anchor: str = "middle") -> None:
        """Text centred vertically on ``y`` (dominant-baseline is unevenly supported, so
        the baseline is moved down by a third of the size instead)."""
        weight = ' font-weight="bold"' if bold else ""
        shared = f'font-size="{num(size)}" fill="{fill}" text-anchor="{anchor}"{weight}'
        self.parts.append((f'<text x="{num(x)}" y="{num(y + size * 0.35)}"', shared,
                           f">{escape(s)}</text>"))

    def document(self) -> str:
        """The complete SVG document."""
        w, h = num(self.width), num(self.height)
        title = f"<title>{escape(self.title)}</title>" if self.title else ""
        parts = self.parts
        if self.caption is not None:  # on top of everything drawn
            words = Canvas(0, 0)
            draw_caption(words, *self.caption)
            parts = parts + words.parts
        return (f'<svg xmlns="{SVG_NS}" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
                f'font-family={quoteattr(FONT)}>{title}'
                f'<rect width="100%" height="100%" fill="#ffffff"/>'
                + grouped(parts) + "</svg>\n")


def font_for(cell: float, chars: int) -> float:
    """A font size that fits ``chars`` characters in a cell."""
    return cell * (0.62 if chars <= 1 else 0.9 / chars)


@dataclass
class Marks:
    """What a step marks, by model cell (a :class:`csolve.logic.Step` flattened)."""

    pattern: set[int] = field(default_factory=set)  # cells of the pattern
    values: set[int] = field(default_factory=set)  # the pattern's values
    placed: dict[int, int] = field(default_factory=dict)  # cell -> value placed
    removed: dict[int, set[int]] = field(default_factory=dict)  # cell -> values removed
    groups: set[int] = field(default_factory=set)  # cells of the groups it lives in
    text: str = ""

    @classmethod
    def of(cls, step, group_cells: Callable[[int], Sequence[int]] | None = None) -> Marks:
        m = cls(pattern=set(step.cells), values=set(step.values), placed=dict(step.placed),
                text=step.text)
        for c, v in step.removed:
            m.removed.setdefault(c, set()).add(v)
        if group_cells is not None:
            for g in step.groups:
                m.groups.update(group_cells(g))
        return m

    def involves(self, cell: int) -> bool:
        return cell in self.pattern or cell in self.placed or cell in self.removed

    def background(self, cell: int) -> str | None:
        if cell in self.pattern or cell in self.placed:
            return PATTERN
        if cell in self.groups:
            return GROUP
        return None


def model_groups(model) -> Callable[[int], list[int]]:
    """Group index -> its cells, read from a model's kernel arrays."""
    gp, gc = model.kernel.group_ptr, model.kernel.group_cells
    return lambda g: [int(c) for c in gc[gp[g]:gp[g + 1]]]


def bits(mask: int) -> list[int]:
    """Values (1-based) in a candidate mask."""
    return [i + 1 for i in range(mask.bit_length()) if mask >> i & 1]


def cell_content(cell: int, given: int, solved: int | None, candidates: Sequence[int] | None,
                 placed: Sequence[bool] | None, marks: Marks | None) -> tuple[int, bool, int]:
    """What a cell shows, as (value, is it a given, candidate mask): its given; else its
    value in the solution; else, during an explanation, its candidates - or their one value
    once that is placed and the step is not about the cell."""
    if given > 0:
        return given, True, 0
    if solved is not None:
        return solved, False, 0
    if candidates is None:
        return 0, False, 0
    m = int(candidates[cell])
    shown = (placed is None or bool(placed[cell])) and not (marks and marks.involves(cell))
    if m and not m & (m - 1) and shown:
        return m.bit_length(), False, 0
    return 0, False, m


def draw_cell(c: Canvas, x: float, y: float, size: float, symbol: Callable[[int], str], *,
              value: int = 0, given: bool = False, mask: int = 0, n_values: int = 9,
              cell: int = -1, marks: Marks | None = None, show_candidates: bool = True,
              shaded: bool = False, background: bool = True) -> None:
    """One cell: its background, then its value or its candidates.

    ``value`` 0 with a ``mask`` draws the candidates (when ``show_candidates``); a step's
    ``marks`` colour the pattern's candidates, the placed value and the removed ones (a
    removed candidate is drawn even when the mask no longer holds it). ``background`` False:
    the caller has filled a larger cell around this square."""
    fill = (marks.background(cell) if marks else None) or ("none" if not shaded else SHADE)
    if shaded:
        fill = SHADE
    if fill != "none" and background:
        c.rect(x, y, size, size, fill=fill)
    if value:
        s = symbol(value)
        colour = ON_SHADE if shaded else (GIVEN if given else FILLED)
        c.text(x + size / 2, y + size / 2, s, font_for(size, len(s)), colour, bold=given)
        return
    removed = marks.removed.get(cell, set()) if marks else set()
    placed = marks.placed.get(cell) if marks else None
    shown = set(bits(mask)) if show_candidates or (marks and marks.involves(cell)) else set()
    shown |= removed
    if placed:
        shown.add(placed)
    if not shown:
        return
    k = max(2, isqrt(n_values - 1) + 1)
    sub = size / k
    longest = max(len(symbol(v)) for v in shown)
    fs = font_for(sub, longest) * 0.95
    for v in sorted(shown):
        cx = x + ((v - 1) % k + 0.5) * sub
        cy = y + ((v - 1) // k + 0.5) * sub
        colour = CANDIDATE
        if v == placed:
            c.circle(cx, cy, sub * 0.46, PLACED)
            colour = ON_SHADE
        elif v in removed:
            c.circle(cx, cy, sub * 0.46, REMOVED)
            colour = ON_SHADE
        elif marks and cell in marks.pattern and v in marks.values:
            c.circle(cx, cy, sub * 0.46, KEPT)
            colour = GIVEN
        c.text(cx, cy, symbol(v), fs, colour, bold=colour != CANDIDATE)
        if v in removed:
            c.line(cx - sub * 0.35, cy + sub * 0.35, cx + sub * 0.35, cy - sub * 0.35,
                   stroke=GIVEN, width=max(1.0, sub * 0.07))


def wrap(text: str, width_chars: int) -> list[str]:
    """Words of ``text`` in lines of at most ``width_chars`` characters."""
    lines: list[str] = []
    cur = ""
    for word in text.split():
        if cur and len(cur) + 1 + len(word) > width_chars:
            lines.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}" if cur else word
    if cur:
        lines.append(cur)
    return lines


def caption_lines(text: str, width: float, size: float = 14.0) -> list[str]:
    return wrap(text, max(20, int(width / (size * 0.55)))) if text else []


def draw_caption(c: Canvas, x: float, y: float, lines: list[str], size: float = 14.0) -> None:
    for i, line in enumerate(lines):
        c.text(x, y + (i + 0.5) * size * 1.3, line, size, GIVEN, anchor="start")


_ROOT = re.compile(r"^\s*(?:<\?xml[^>]*\?>\s*)?<svg\b([^>]*)>", re.S)
_SIZE = re.compile(r'\b(width|height)="([0-9.]+)"')


def _root(document: str) -> tuple[float, float, str, str]:
    """(width, height, root attributes, inner content) of a document csolve wrote."""
    m = _ROOT.match(document)
    if m is None:
        raise ValueError("not an SVG document")
    attrs = m.group(1)
    size = dict(_SIZE.findall(attrs))
    inner = document[m.end():].rstrip()
    if not inner.endswith("</svg>"):
        raise ValueError("not an SVG document")
    return float(size["width"]), float(size["height"]), attrs, inner[:-len("</svg>")]


#: the start of a group with nothing but quoted attributes on it
_GROUP_HEAD = re.compile(r"""<g((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*>""")
_GROUP_TAG = re.compile(r"<g[\s/>]")
_GROUP_END = re.compile(r"</g\s*>")
_ID = re.compile(r"""\sid\s*=""")
#: the shortest group worth drawing once and using again (a use is ~20 characters)
_SHARED_MIN = 64
#: an id :func:`shared_groups` gave, where it is defined or used
_SHARED_ID = re.compile(r'(id="|href="#)cs-g(\d+)"')


def _plain_groups(doc: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each group in ``doc`` that may be shared: quoted attributes and no
    id on it, no group inside it (the pictures nest ``<svg>``s, never groups). ``<g`` in
    markup always starts a tag: XML text and attribute values hold ``<`` escaped."""
    at = doc.find("<g")
    while at >= 0:
        head = _GROUP_HEAD.match(doc, at)
        if head is None:
            at = doc.find("<g", at + 2)
            continue
        close = _GROUP_END.search(doc, head.end())
        if close is None:
            return
        inner = _GROUP_TAG.search(doc, head.end(), close.start())
        if inner is not None:  # a group holding groups: look inside it
            at = inner.start()
            continue
        if close.end() - at >= _SHARED_MIN and not _ID.search(head.group(1)):
            yield at, close.end()
        at = doc.find("<g", close.end())


def shared_groups(documents: Sequence[str]) -> tuple[str, list[str]]:
    """The groups that recur among ``documents`` (a puzzle's grid and cage lines, drawn
    again in every step), as definitions to write once, and the documents with each of
    those groups replaced by a ``<use>`` of it: the same elements in the same order, the
    page a fraction of its size. ("", documents) when nothing recurs. A group with an id
    of its own stays as it is; documents stacked before keep their own definitions, their
    ids made distinct."""
    documents, first = _renumbered(documents)
    spans = [list(_plain_groups(doc)) for doc in documents]
    seen: dict[str, int] = {}
    for doc, found in zip(documents, spans, strict=True):
        for a, b in found:
            seen[doc[a:b]] = seen.get(doc[a:b], 0) + 1
    ids = {g: f"cs-g{k}" for k, g in enumerate(
        (g for g, times in seen.items() if times > 1), first)}
    if not ids:
        return "", list(documents)
    out = []
    for doc, found in zip(documents, spans, strict=True):
        parts, last = [], 0
        for a, b in found:
            name = ids.get(doc[a:b])
            if name is not None:
                parts += [doc[last:a], f'<use href="#{name}"/>']
                last = b
        out.append("".join(parts) + doc[last:])
    defs = "".join(f'<g id="{name}"{g[2:]}' for g, name in ids.items())
    return f"<defs>{defs}</defs>", out


def _renumbered(documents: Sequence[str]) -> tuple[list[str], int]:
    """``documents`` with the ids :func:`shared_groups` gave each (when they were stacked
    before) made distinct across them, and the first id left free."""
    out, free = [], 0
    for doc in documents:
        found = sorted({int(k) for _, k in _SHARED_ID.findall(doc)})
        if found:
            new = {k: free + i for i, k in enumerate(found)}
            doc = _SHARED_ID.sub(lambda m, new=new: f'{m.group(1)}cs-g{new[int(m.group(2))]}"',
                                 doc)
            free += len(found)
        out.append(doc)
    return out, free


def stack(documents: Sequence[str], gap: float = 16.0, title: str = "") -> str:
    """One SVG document showing ``documents`` one below the other (nested ``<svg>``s), the
    groups they share drawn once (:func:`shared_groups`)."""
    defs, documents = shared_groups(documents)
    parts = []
    y = 0.0
    width = 0.0
    for doc in documents:
        w, h, attrs, inner = _root(doc)
        attrs = _SIZE.sub("", attrs).replace(f' xmlns="{SVG_NS}"', "")
        parts.append(f'<svg x="0" y="{num(y)}" width="{num(w)}" height="{num(h)}"{attrs}>'
                     f"{inner}</svg>")
        y += h + gap
        width = max(width, w)
    height = max(0.0, y - gap)
    head = f"<title>{escape(title)}</title>" if title else ""
    return (f'<svg xmlns="{SVG_NS}" width="{num(width)}" height="{num(height)}" '
            f'viewBox="0 0 {num(width)} {num(height)}">{head}{defs}' + "".join(parts)
            + "</svg>\n")


def html_page(title: str, items: Sequence[tuple[str, str, str]]) -> str:
    """A self-contained web page: for each item a heading, an inline SVG and a note; the
    groups the pictures share are drawn once, in a picture of no size at the top."""
    defs, pictures = shared_groups([svg for _, svg, _ in items])
    # (its own style over the page's svg rule, which would give it a height)
    sprite = (f'<svg xmlns="{SVG_NS}" width="0" height="0" aria-hidden="true" '
              f'style="position:absolute;width:0;height:0;overflow:hidden">{defs}</svg>')
    body = [sprite] if defs else []
    for (heading, _, note), svg in zip(items, pictures, strict=True):
        body.append("<section>")
        if heading:
            body.append(f"<h2>{html_escape(heading)}</h2>")
        body.append(svg.strip())
        if note:
            body.append(f"<p>{html_escape(note)}</p>")
        body.append("</section>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html_escape(title)}</title>\n"
            "<style>body{font-family:" + FONT.replace('"', "") + ";margin:1.5em;color:#111}"
            "h1{font-size:1.3em}h2{font-size:1.05em;margin:1.2em 0 .4em}"
            "section{margin-bottom:1.5em}svg{display:block;max-width:100%;height:auto}"
            "p{margin:.3em 0}</style>\n</head>\n<body>\n"
            f"<h1>{html_escape(title)}</h1>\n" + "\n".join(body) + "\n</body>\n</html>\n")
