"""SVG and HTML pictures: well-formed documents with what they promise in them, the CLI's
``render`` and ``explain --output svg|html``, and (when Chromium is installed) a real
browser drawing them."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from xml.etree import ElementTree as ET

import numpy as np
import pytest

from csolve.cli.render import step_pictures
from csolve.grading import model_values
from csolve.puzzle import get_puzzle_type
from csolve.solver import SolveOptions, solve_one
from csolve.svg import (
    CANDIDATE,
    FILLED,
    GIVEN,
    ON_SHADE,
    REMOVED,
    Canvas,
    html_page,
    shared_groups,
    stack,
)

from .helpers import PUZZLES, svg_drawn
from .test_cli import run

NS = "{http://www.w3.org/2000/svg}"
HARD = PUZZLES / "sudoku" / "9x9-hard.txt"
FILES = {"sudoku": HARD, "kakuro": PUZZLES / "kakuro" / "small.txt",
         "str8ts": PUZZLES / "str8ts" / "small.txt", "killer": PUZZLES / "killer" / "small.txt"}


def parse_svg(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    assert float(root.get("width")) > 0 and float(root.get("height")) > 0
    return root


def texts(root: ET.Element, fill: str | None = None, bold: bool | None = None) -> list[str]:
    out = []
    for t in svg_drawn(root, "text"):
        if fill is not None and t.get("fill") != fill:
            continue
        if bold is not None and (t.get("font-weight") == "bold") != bold:
            continue
        out.append(t.text)
    return out


def solved(kind: str):
    ptype = get_puzzle_type(kind)
    p = ptype.parse(FILES[kind].read_text(), str(FILES[kind]))[0]
    r = solve_one(ptype, p, SolveOptions(limit=1))
    (solution,) = r.solutions
    assert ptype.validate(p, solution) == []
    return ptype, p, solution


@pytest.mark.parametrize("kind", sorted(FILES))
def test_givens_black_and_filled_values_blue(kind):
    ptype, p, solution = solved(kind)
    puzzle_only = parse_svg(ptype.to_svg(p, None))
    drawn = parse_svg(ptype.to_svg(p, solution))
    givens = texts(puzzle_only, GIVEN, bold=True)
    assert texts(puzzle_only, FILLED) == []
    assert texts(drawn, GIVEN, bold=True) == givens
    # the filled values are the solution's, in reading order, and only the open cells'
    given = p.data if kind == "sudoku" else p.data.givens if kind == "killer" else \
        ptype.cell_values(p, p.data.values)
    values = model_values(ptype, p, ptype.model(p), solution)
    assert len(given) == len(values)
    want = [str(v) for v, g in zip(values, given, strict=True)
            if not g]
    assert want and texts(drawn, FILLED) == want
    if kind == "kakuro":  # the clues, white on black
        sums = [str(int(s)) for s in np.concatenate([p.data.down.ravel(), p.data.right.ravel()])
                if s]
        assert sorted(texts(drawn, ON_SHADE)) == sorted(sums)
    if kind == "killer":  # every cage's sum, in the cage's colour
        from csolve_killer.pictures import CAGE

        assert sorted(texts(drawn, CAGE)) == sorted(str(s) for s in p.data.sums)


def test_killer_cage_outlines_close():
    """Every cage's dashed outline is closed: each end of a piece meets exactly one other
    piece, and the pieces of different cages never touch."""
    from collections import Counter
    from types import SimpleNamespace

    from csolve_killer.pictures import cage_outline

    def closed(grid) -> bool:
        ends = Counter()
        for x1, y1, x2, y2 in cage_outline(grid):
            assert x1 == x2 or y1 == y2  # along a row or a column
            ends[(round(x1, 6), round(y1, 6))] += 1
            ends[(round(x2, 6), round(y2, 6))] += 1
        return bool(ends) and set(ends.values()) == {2}

    killer = get_puzzle_type("killer")
    for p in killer.parse(FILES["killer"].read_text(), "small.txt"):
        assert closed(p.data), p.where
        root = parse_svg(killer.to_svg(p, None))
        dashed = [ln for ln in svg_drawn(root, "line") if ln.get("stroke-dasharray")]
        assert len(dashed) == len(cage_outline(p.data))
    # shapes the bundled puzzles lack: a ring round a cage, cages meeting only at corners
    for rows in ("AAAA/ABBA/ABBA/AAAA", "ABAB/BABA/ABAB/BABA", "AABC/ADBC/DDBC/EEEE"):
        labels = "".join(rows.split("/"))
        order = {lab: k for k, lab in enumerate(dict.fromkeys(labels))}
        grid = SimpleNamespace(n=4, cage_of=np.array([order[lab] for lab in labels]))
        assert closed(grid), rows


@pytest.mark.parametrize("n", [4, 16, 25, 36, 64])
def test_every_sudoku_size(n):
    sudoku = get_puzzle_type("sudoku")
    grid = np.zeros(n * n, dtype=np.int64)
    grid[:n] = np.arange(1, n + 1)  # the first row given
    (p,) = sudoku.parse(sudoku.format_grid(
        sudoku.parse(" ".join(map(str, grid)) + "\n", "x")[0], None) + "\n", "x")
    assert (p.data == grid).all()
    root = parse_svg(sudoku.to_svg(p, None))
    want = [("123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v - 1] if n <= 35 else str(v))
            for v in range(1, n + 1)]
    assert texts(root, GIVEN, bold=True) == want


def test_step_pictures_mark_the_step():
    sudoku = get_puzzle_type("sudoku")
    p = sudoku.parse(HARD.read_text(), str(HARD))[0]
    items, count = step_pictures(sudoku, p, None)
    assert count == 1
    headings = [h for h, _, _ in items]
    assert headings[-1].endswith("solved")
    removals = 0
    for _heading, svg, _ in items:
        root = parse_svg(svg)
        assert root.find(NS + "title") is not None
        red = [c for c in svg_drawn(root, "circle") if c.get("fill") == REMOVED]
        removals += len(red)
    assert removals > 0  # the hard puzzle needs eliminations, drawn as red discs
    # the last picture is the solved grid: every cell holds a value
    last = parse_svg(items[-1][1])
    assert len(texts(last, GIVEN, bold=True)) + len(texts(last, FILLED)) == 81


def test_stack_nests_every_document():
    docs = [Canvas(100 + 10 * i, 50, f"d{i}") for i in range(3)]
    for i, d in enumerate(docs):
        d.text(10, 10, f"<{i}&>", 12)
    root = parse_svg(stack([d.document() for d in docs], gap=10, title="all"))
    inner = root.findall(NS + "svg")
    assert len(inner) == 3
    assert [float(s.get("y")) for s in inner] == [0, 60, 120]
    assert float(root.get("width")) == 120 and float(root.get("height")) == 170
    assert [t.text for t in root.iter(NS + "text")] == ["<0&>", "<1&>", "<2&>"]


def test_neighbours_drawn_alike_share_one_group():
    """A run of elements with the same font, colour or stroke is written once as a ``<g>``
    around them; what each is drawn with, and the drawing order, stay as they were."""
    c = Canvas(100, 100)
    c.text(10, 10, "1", 8, CANDIDATE)
    c.text(20, 10, "2", 8, CANDIDATE)
    c.rect(0, 0, 5, 5, fill=REMOVED)
    c.parts.append('<path d="M0 0L1 1" stroke="#000"/>')  # a plugin's own markup
    c.text(30, 10, "3", 8, CANDIDATE)  # alone: its attributes stay on it
    c.line(0, 0, 9, 0, dash="3 2")
    c.line(0, 5, 9, 5, dash="3 2")
    c.text(40, 10, "4", 12, GIVEN, bold=True)
    doc = c.document()
    assert doc.count("<g ") == 2 and doc.count(f'fill="{CANDIDATE}"') == 2
    root = parse_svg(doc)
    order = [el.tag.removeprefix(NS) for el in root.iter() if el.tag != NS + "g"]
    assert order == ["svg", "rect", "text", "text", "rect", "path", "text", "line", "line",
                     "text"]
    assert texts(root, CANDIDATE) == ["1", "2", "3"]
    assert texts(root, GIVEN, bold=True) == ["4"]
    lines = svg_drawn(root, "line")
    assert [ln.get("stroke-dasharray") for ln in lines] == ["3 2", "3 2"]
    assert {ln.get("y1") for ln in lines} == {"0", "5"}


def _unshared(defs: str, document: str) -> str:
    """``document`` with each ``<use>`` of a group in ``defs`` written out again."""
    groups = dict(re.findall(r'<g id="([\w-]+)" (.*?</g>)', defs, re.S))
    return re.sub(r'<use href="#([\w-]+)"/>', lambda m: "<g " + groups[m.group(1)], document)


def test_groups_the_pictures_share_are_drawn_once():
    """The grid lines every step redraws go into definitions used by each picture: written
    out again, every picture is what it was, element for element."""
    docs = []
    for step in range(3):
        c = Canvas(100, 100)
        for k in range(10):  # the grid: the same in every picture
            c.line(0, 10 * k, 90, 10 * k)
        c.text(10, 10, str(step), 8, CANDIDATE)  # what the step changes
        c.text(20, 10, str(step), 8, CANDIDATE)
        docs.append(c.document())
    defs, used = shared_groups(docs)
    assert defs.startswith("<defs>") and defs.count("<g id=") == 1  # the texts differ
    assert all(u.count("<use ") == 1 and len(u) < len(d) for u, d in zip(used, docs, strict=True))
    assert [_unshared(defs, u) for u in used] == docs
    assert shared_groups(docs[:1]) == ("", docs[:1])  # nothing recurs in one picture
    own = [d.replace("<g ", '<g id="mine" ', 1) for d in docs]  # a plugin's own group
    assert shared_groups(own) == ("", own)
    root = parse_svg(stack(docs))
    assert root.find(NS + "defs") is not None and len(svg_drawn(root, "line")) == 30
    assert texts(root, CANDIDATE) == ["0", "0", "1", "1", "2", "2"]


def _drawn_pictures(root: ET.Element) -> list[list[dict]]:
    """Each innermost picture under ``root`` as what it draws: every element's tag and
    attributes, groups and uses written out (``<defs>`` anywhere in ``root``)."""
    leaves = [el for el in root.iter(NS + "svg") if el.find(".//" + NS + "svg") is None]
    return [[{"tag": el.tag, **el.attrib} for tag in ("line", "text", "rect")
             for el in svg_drawn(leaf, tag, root)] for leaf in leaves]


def test_pictures_stacked_again_keep_their_own_groups():
    """Stacks of stacks (from Python: ``stack``, ``html_page``): each stack's definitions
    keep ids of their own, so every picture still draws its own grid."""
    sudoku = get_puzzle_type("sudoku")
    pictures = [sudoku.to_svg(p, None) for p in sudoku.parse(
        (PUZZLES / "sudoku" / "4x4.txt").read_text(), "4x4.txt")]
    sizes = [sudoku.to_svg(p, None) for p in sudoku.parse(
        "1" + "." * 35 + "\n" + "." * 80 + "1\n", "x")]  # a 6x6 and a 9x9: other grids
    alone = _drawn_pictures(parse_svg(stack(pictures + sizes)))
    twice = stack([stack(pictures[:2] + sizes[:1]), stack(pictures[1:] + sizes[1:])])
    root = parse_svg(twice)
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids)) > 0
    drawn = _drawn_pictures(root)
    assert drawn == alone[:2] + alone[-2:-1] + alone[1:3] + alone[-1:]


def test_markup_a_plugin_writes_itself_is_left_whole():
    """Groups shared are only those written as ``<g attr="..">..</g>``, without an id:
    a plugin's own group with an id, a self-closing or nested group, or an attribute
    holding '>' keeps the document well formed when stacked."""
    own = ['<g id="mine" fill="#123456"><rect x="0" y="0" width="9" height="9"/></g>',
           '<g\tclass="a"\tid="y"><rect x="1" y="0" width="9" height="9"/></g>',
           '<g aria-label="a>b" id="z"><rect x="2" y="0" width="9" height="9"/></g>',
           '<g fill="#222222"/>',
           '<g\nfill="#333333"><g fill="#444444"><rect x="3" y="0" width="9" height="9"/>'
           '</g><rect x="4" y="0" width="9" height="9"/></g>']
    c = Canvas(50, 50)
    c.parts.extend(own)
    doc = c.document()
    root = parse_svg(stack([doc, doc]))
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert len(svg_drawn(root, "rect")) == 2 * len(svg_drawn(parse_svg(doc), "rect")) >= 10
    assert sorted(ids) == ["mine", "mine", "y", "y", "z", "z"]  # as each picture had them


def test_a_page_of_steps_draws_the_grid_once_and_every_step_whole(capsys, tmp_path):
    """Killer's step-by-step page repeated each step's cage and grid lines: they are defined
    once at the top of the page, and each picture draws what the SVG output draws."""
    six = tmp_path / "six.txt"
    six.write_text(next(ln for ln in FILES["killer"].read_text().splitlines()
                        if ln.endswith(" box=3x2")) + "\n")
    code, page, _ = run(capsys, "explain", "killer", str(six), "--output", "html")
    assert code == 0
    sprite, *pictures = re.findall(r"<svg\b.*?</svg>", page, re.S)
    defs = parse_svg(sprite.replace('width="0" height="0"', 'width="1" height="1"'))
    assert "<use " in page and "<defs>" in sprite
    code, out, _ = run(capsys, "explain", "killer", str(six), "--output", "svg")
    assert code == 0
    stacked = parse_svg(out)  # (which shares its groups in its own <defs>)
    alone = stacked.findall(NS + "svg")
    assert len(pictures) == len(alone) > 2
    for picture, same in zip(pictures, alone, strict=True):
        for tag in ("line", "text", "rect", "circle"):
            drawn = [el.attrib for el in svg_drawn(parse_svg(picture), tag, defs)]
            assert drawn == [el.attrib for el in svg_drawn(same, tag, stacked)], tag
            assert drawn or tag == "circle", tag


def test_html_page_holds_each_picture():
    page = html_page("T <1>", [("a & b", Canvas(10, 10).document(), "note <x>")] * 2)
    assert page.startswith("<!DOCTYPE html>") and "T &lt;1&gt;" in page
    svgs = re.findall(r"<svg\b.*?</svg>", page, re.S)
    assert len(svgs) == 2 and all(parse_svg(s) is not None for s in svgs)
    assert "note &lt;x&gt;" in page


def test_render_command(capsys, tmp_path):
    code, out, _ = run(capsys, "render", "sudoku", str(HARD), "--solve")
    assert code == 0
    root = parse_svg(out)
    assert len(root.findall(NS + "svg")) == 5
    code, out, _ = run(capsys, "render", "kakuro", str(FILES["kakuro"]), "--output", "html")
    assert code == 0 and out.startswith("<!DOCTYPE html>") and out.count("<svg ") == 2
    code, _, err = run(capsys, "render", "sudoku", str(HARD), "--output", "png")
    assert code == 2 and "png" in err
    nosol = tmp_path / "nosol.txt"
    nosol.write_text("1..4..2..3..4..1\n")
    code, out, err = run(capsys, "render", "sudoku", str(nosol), "--solve")
    assert code == 1 and parse_svg(out) is not None
    assert err == f"{nosol}:1: not solved: no-solution, drawn as given\n"  # not only in $?
    code, out, err = run(capsys, "solve", "sudoku", str(nosol), "--output", "svg")
    assert code == 1 and parse_svg(out) is not None
    assert err.startswith(f"{nosol}:1: not solved: no-solution, drawn as given\n")
    code, out, err = run(capsys, "solve", "sudoku", "2.....3.........", "--all", "--limit",
                         "2", "--output", "svg")  # each solution drawn: nothing to say
    assert code == 0 and len(parse_svg(out).findall(NS + "svg")) == 2
    assert "drawn as given" not in err


def test_explain_pictures_command(capsys, tmp_path):
    one = tmp_path / "one.txt"
    one.write_text(HARD.read_text().splitlines()[1] + "\n")
    code, out, _ = run(capsys, "explain", "sudoku", str(one), "--output", "svg")
    assert code == 0
    pictures = parse_svg(out).findall(NS + "svg")
    code, words, _ = run(capsys, "explain", "sudoku", str(one), "--output", "line")
    assert code == 0
    steps = [ln for ln in words.splitlines() if ln.strip()]
    assert len(pictures) == len(steps) + 1  # one per step, then the solved grid
    code, out, _ = run(capsys, "explain", "str8ts", str(FILES["str8ts"]), "--output", "html")
    assert code == 0 and out.count("<svg ") >= 2
    six = tmp_path / "six.txt"  # a 6x6 Killer with 3x2 boxes: every step pictured
    six.write_text(next(ln for ln in FILES["killer"].read_text().splitlines()
                        if ln.endswith(" box=3x2")) + "\n")
    code, out, _ = run(capsys, "explain", "killer", str(six), "--output", "svg")
    assert code == 0
    pictures = parse_svg(out).findall(NS + "svg")
    code, words, _ = run(capsys, "explain", "killer", str(six), "--output", "line")
    assert code == 0
    assert len(pictures) == len([ln for ln in words.splitlines() if ln.strip()]) + 1


# --- a real browser ------------------------------------------------------------------------

def _browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _png_pixels(data: bytes) -> np.ndarray:
    """RGB(A) pixels of a non-interlaced 8-bit PNG (what Chromium writes), no libraries."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and interlace == 0 and colour in (2, 6)
    bpp = 3 if colour == 2 else 4
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, 1 + width * bpp)
    out = np.zeros((height, width * bpp), dtype=np.int32)
    prev = np.zeros(width * bpp, dtype=np.int32)
    for y in range(height):
        f, line = raw[y, 0], raw[y, 1:].astype(np.int32)
        if f == 0:
            cur = line
        elif f == 2:
            cur = (line + prev) & 0xFF
        else:
            cur = line.copy()
            for i in range(len(cur)):
                a = cur[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                if f == 1:
                    pred = a
                elif f == 3:
                    pred = (a + b) // 2
                else:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                cur[i] = (cur[i] + pred) & 0xFF
        out[y] = cur
        prev = cur
    return out.reshape(height, width, bpp)[:, :, :3]


def _screenshot(browser: str, page, png, size: str) -> np.ndarray:
    r = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                        "--hide-scrollbars", f"--screenshot={png}", f"--window-size={size}",
                        page.as_uri()], capture_output=True, text=True, timeout=120)
    assert png.exists(), r.stderr
    return _png_pixels(png.read_bytes())


def _near(pixels: np.ndarray, colour: str, tol: int = 40) -> int:
    rgb = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)])
    return int((np.abs(pixels - rgb).max(axis=2) <= tol).sum())


@pytest.mark.skipif(_browser() is None, reason="no Chromium installed to draw the pictures")
def test_a_browser_draws_the_pictures(capsys, tmp_path):
    browser = _browser()
    code, out, _ = run(capsys, "render", "sudoku", str(HARD), "--solve")
    assert code == 0
    svg = tmp_path / "hard.svg"
    svg.write_text(out)
    px = _screenshot(browser, svg, tmp_path / "hard.png", "460,460")
    assert _near(px, "#ffffff", 10) < px.shape[0] * px.shape[1] * 0.97  # not blank
    assert _near(px, GIVEN) > 500  # grid lines and givens
    assert _near(px, FILLED) > 100  # the values the solver filled in

    one = tmp_path / "one.txt"
    one.write_text(HARD.read_text().splitlines()[1] + "\n")
    code, out, _ = run(capsys, "explain", "sudoku", str(one), "--output", "html")
    assert code == 0
    page = tmp_path / "steps.html"
    page.write_text(out)
    px = _screenshot(browser, page, tmp_path / "steps.png", "520,2400")
    assert _near(px, "#ffffff", 10) < px.shape[0] * px.shape[1] * 0.97
    assert _near(px, "#3fae4f", 30) > 20  # a placed value's green disc
