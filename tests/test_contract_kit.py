"""The contract kit (csolve.testing) on the built-in plugins: Sudoku, Kakuro, Str8ts, Killer.

Each plugin hands over a few sample puzzles with their known solutions, an under-constrained
puzzle, bad input and conflicting givens; the kit checks round trips, the batch methods, the
solutions, counts on every backend, the one-line errors and the light entry point.
"""

from __future__ import annotations

import pytest

from csolve.puzzle import get_puzzle_type
from csolve.testing import (
    check_backend_counts,
    check_batch_methods,
    check_input_error,
    check_light_entry_point,
    check_puzzle_type,
    check_solutions,
)

from .helpers import PUZZLES, shared_file

SAMPLES = {
    "sudoku": dict(
        # 4x4, 6x6 (2x3 boxes) and 9x9: runs of one size each
        puzzles="2.....3......4.1\n.....2...35.61...3.45......2..4...3.\n"
                ".79.26..5...497...........4..1.....6...64.8.3.2....9...53...1.8.......7..."
                "78..5.9\n",
        solutions="2314413212433421\n153462264351612543345126536214421635\n"
                  "47912638553849762116258379438175924679564281362431895795327416881693547"
                  "2247861539\n",
        open_puzzle="1234..4................2......5.....\n",  # 1,004 solutions
        bad_input="1234567890\n",
        conflicting="11" + "." * 14 + "\n",
    ),
    "kakuro": dict(
        puzzles=(PUZZLES / "kakuro" / "small.txt").read_text(),
        solutions="- 5, 14, - - / ,3 2 1 13, - / ,10 3 5 2 13, / - ,23 8 6 9 / - - ,9 5 4\n"
                  "- 3, 31, - 5, 28, - / ,8 2 6 4,13 5 8 7, / ,12 1 8 3 ,7 3 4 / - 10,4 3 1 "
                  "20,5 4 1 / ,16 7 9 9,17 8 7 2 / ,31 3 5 8 9 6 - / - - ,4 1 3 - -\n",
        open_puzzle="#    10\\   10\\\n\\10    .     .\n\\10    .     .\n",
        bad_input="#    10\\   10\\\n\\10    .     x\n",
        conflicting="#    10\\   10\\\n\\10    5     5\n\\10    .     .\n",
    ),
    "str8ts": dict(
        puzzles=(PUZZLES / "str8ts" / "small.txt").read_text(),
        solutions="#12#6525163412#543534#1246325134#12#\n##789#645#26785394789##42536754#312#"
                  "568127439#312#65872143##76834256987#453#789##\n",
        open_puzzle="................\n",
        bad_input="...............\n",
        conflicting="11..............\n",
    ),
    "killer": dict(
        puzzles="ABCD/AAEF/GHHI/JKLI A=7 B=3 C=1 D=4 E=2 F=3 G=3 H=5 I=3 J=4 K=2 L=3\n"
                "AABB/CDDB/CEFF/CGFH A=4 B=7 C=9 D=5 E=4 F=7 G=1 H=3\n"
                "AAABCD/EFFBDD/EGHHIJ/KGHLLJ/MMNOLJ/PPPQLL A=13 B=4 C=2 D=10 E=6 F=11 G=5 "
                "H=10 I=6 J=11 K=5 L=19 M=4 N=2 O=4 P=9 Q=5 box=3x2\n",
        solutions="ABCD/AAEF/GHHI/JKLI A=7 B=3 C=1 D=4 E=2 F=3 G=3 H=5 I=3 J=4 K=2 L=3 "
                  "givens=2314142331424231\n"
                  "AABB/CDDB/CEFF/CGFH A=4 B=7 C=9 D=5 E=4 F=7 G=1 H=3 givens=1324423134122143\n"
                  "AAABCD/EFFBDD/EGHHIJ/KGHLLJ/MMNOLJ/PPPQLL A=13 B=4 C=2 D=10 E=6 F=11 G=5 "
                  "H=10 I=6 J=11 K=5 L=19 M=4 N=2 O=4 P=9 Q=5 "
                  "givens=364125256341415263543612132456621534 box=3x2\n",
        open_puzzle="AABB/CCDD/EEFF/GGHH A=3 B=7 C=7 D=3 E=3 F=7 G=7 H=3\n",
        bad_input="AABB/CCDD/EEFF/GG!H A=3\n",
        conflicting="AABB/CCDD/EEFF/GGHH A=3 B=7 C=7 D=3 E=3 F=7 G=7 H=3 "
                    "givens=11..............\n",
    ),
}


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_builtin_plugins_keep_the_contract(kind):
    check_puzzle_type(get_puzzle_type(kind), **SAMPLES[kind], entry_point=kind)


def test_killer_keeps_the_contract_on_janko_puzzles_with_known_solutions():
    """Puzzles and solutions nobody here wrote (the janko.at set's JSON lines carry both)."""
    killer = get_puzzle_type("killer")
    lines = shared_file("killer", "janko-killer.jsonl").read_text().splitlines()
    sample = "\n".join([lines[0], lines[10], lines[20]]) + "\n"  # 4x4, 9x9, 6x6
    check_solutions(killer, sample, sample)


def test_the_kit_catches_a_broken_plugin(tmp_path, monkeypatch):
    """A validator that ignores the rules, a sample with one solution given as the open one,
    input csolve accepts, an entry point that imports numpy, and one that imports its puzzle
    type's module on a run of another type: each check fails."""
    sudoku = get_puzzle_type("sudoku")

    class Forgetful(type(sudoku)):
        def validate(self, puzzle, solution):
            return []

    with pytest.raises(AssertionError, match="went unnoticed"):
        check_solutions(Forgetful(), SAMPLES["sudoku"]["puzzles"])
    with pytest.raises(AssertionError, match="under-constrained"):
        check_backend_counts(sudoku, SAMPLES["sudoku"]["puzzles"])
    with pytest.raises(AssertionError, match="exit code 0"):
        check_input_error(sudoku, SAMPLES["sudoku"]["puzzles"])
    # a plugin distribution whose entry point imports numpy at its top
    (tmp_path / "heavy_plugin.py").write_text(
        "import numpy  # noqa: F401\nfrom csolve.hookspecs import hookimpl  # noqa: F401\n")
    info = tmp_path / "heavy_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: heavy-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[csolve]\nheavy = heavy_plugin\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    with pytest.raises(AssertionError, match="'heavy' imports numpy"):
        check_light_entry_point("heavy")
    check_light_entry_point("kakuro")  # the same environment, a light plugin: passes
    # an entry point that imports its puzzle type's module whenever types are looked up
    package = tmp_path / "eager_plugin"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "plugin.py").write_text("")
    (package / "hooks.py").write_text(
        "from csolve.hookspecs import hookimpl\n\n\n@hookimpl\n"
        "def csolve_register_puzzles(register):\n    from . import plugin  # noqa: F401\n")
    info = tmp_path / "eager_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: eager-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[csolve]\neager = eager_plugin.hooks\n")
    with pytest.raises(AssertionError, match="imports eager_plugin.plugin"):
        check_light_entry_point("eager")


def test_the_kit_says_what_is_wrong_in_a_plugins_words():
    """A name no entry point has, and a writer whose line the reader refuses, are said as
    such, not as a bare assertion or the plugin's own exception."""
    from csolve_sudoku.plugin import Sudoku

    from csolve.testing import check_round_trip

    with pytest.raises(AssertionError, match="no entry point 'nonexistent' in the csolve group"):
        check_light_entry_point("nonexistent")

    class Unreadable(Sudoku):
        def format_line(self, puzzle, solution):
            return "#" * 5  # nothing the reader takes

    with pytest.raises(AssertionError, match=r"format_line wrote '#####', which parse "
                                             r"refuses: PuzzleInputError"):
        check_round_trip(Unreadable(), "2.....3......4.1\n")


def test_the_kit_names_the_method_that_breaks_the_contract():
    """A method returning the wrong kind of thing is named with what it returned: an array
    from to_json (which --output json cannot write), None from validate, an int from
    format_line; a model that rules every state out says so, not "code 0"."""
    from csolve_sudoku.plugin import Sudoku

    from csolve.testing import check_round_trip

    sample = "2.....3......4.1\n"

    class ArrayJson(Sudoku):
        def to_json(self, puzzle, solution):
            import numpy as np

            return np.asarray(solution)

    class NoneValidate(Sudoku):
        def validate(self, puzzle, solution):
            return None

    class IntLine(Sudoku):
        def format_line(self, puzzle, solution):
            return 7

    with pytest.raises(AssertionError, match="to_json returned what JSON cannot hold"):
        check_solutions(ArrayJson(), sample)
    with pytest.raises(AssertionError, match=r"validate returned None; it returns a list"):
        check_solutions(NoneValidate(), sample)
    with pytest.raises(AssertionError, match=r"format_line returned 7 \(int\)"):
        check_round_trip(IntLine(), sample)
    with pytest.raises(AssertionError, match="the model's search finds no solution "
                                             r"\(it searched the whole tree"):
        check_batch_methods(get_puzzle_type("sudoku"), "1..4..2..3..4..1\n")


def test_the_kit_names_a_broken_output_method():
    """A grid with a row dropped (``--output grid`` no longer reads back), a clue count that
    is no number (``generate --output json`` wrote ``"clues": "many"``) and a picture that is
    an int: check_puzzle_type names each."""
    from csolve_sudoku.plugin import Sudoku

    sample = "2.....3......4.1\n"

    class DroppedRow(Sudoku):
        def format_grid(self, puzzle, solution):
            return "\n".join(super().format_grid(puzzle, solution).splitlines()[:-1])

    class ManyClues(Sudoku):
        def clue_count(self, puzzle):
            return "many"

    class IntPicture(Sudoku):
        def to_svg(self, puzzle, solution, step=None, *, candidates=None, placed=None):
            return 7

    with pytest.raises(AssertionError, match="format_grid wrote grids that parse refuses: "
                                             "PuzzleInputError: grids:5:"):
        check_puzzle_type(DroppedRow(), sample)
    with pytest.raises(AssertionError, match=r"clue_count returned 'many' \(str\)"):
        check_puzzle_type(ManyClues(), sample)
    with pytest.raises(AssertionError, match=r"to_svg returned 7 \(int\); it returns one SVG"):
        check_puzzle_type(IntPicture(), sample)


def test_the_kit_names_a_broken_generator():
    """A generator whose puzzle has several solutions, whose solution fails the puzzle, or
    whose randomness is not all from ``rng``: each is named, with the size the kit picked
    (the smallest the type accepts)."""
    import numpy as np
    from csolve_sudoku.plugin import Sudoku

    from csolve.testing import check_generator

    class Open(Sudoku):
        def generate(self, options, rng, ctrl=None):
            _puzzle, solution = super().generate(options, rng, ctrl)
            (empty,) = self.parse("." * 16 + "\n", "<generated>")
            return empty, solution

    class WrongSolution(Sudoku):
        def generate(self, options, rng, ctrl=None):
            puzzle, solution = super().generate(options, rng, ctrl)
            return puzzle, solution[::-1].copy()

    class OwnRandomness(Sudoku):
        def generate(self, options, rng, ctrl=None):
            return super().generate(options, np.random.default_rng(), ctrl)

    with pytest.raises(AssertionError, match=r"generate \(size 4, seed 0\) made a puzzle with "
                                             r"2\+ solutions, not one"):
        check_generator(Open())
    with pytest.raises(AssertionError, match=r"generate \(size 4, seed 0\): the solution it "
                                             "returned fails validate"):
        check_generator(WrongSolution())
    with pytest.raises(AssertionError, match="made another puzzle from the same seed"):
        check_generator(OwnRandomness())
    assert check_generator(get_puzzle_type("kakuro"), size=5) is not None
    with pytest.raises(AssertionError, match="check_generate refuses size 3"):
        check_generator(get_puzzle_type("kakuro"), size=3)


def test_the_kit_names_a_broken_step_finder():
    """A finder that removes a cell's every candidate (the only solution's value among them)
    and one named for no tactic of the type (never called): step_finders is named."""
    from csolve_sudoku.plugin import Sudoku

    from csolve.logic import Step, bits
    from csolve.testing import check_step_finders

    def wipe(b):
        c = next(c for c, x in enumerate(b.cand) if x & (x - 1))
        yield Step("elimination", removed=[(c, v) for v in bits(b.cand[c])], text="wiped")

    class Unsound(Sudoku):
        def step_finders(self):
            return {**super().step_finders(), "elimination": wipe}

    class Unused(Sudoku):
        def step_finders(self):
            return {"no-such-tactic": wipe}

    with pytest.raises(AssertionError, match=r"<sample>:1: step_finders: tactic 'elimination' "
                                             r"\(.*wipe\) made a wrong step: it removes"):
        check_step_finders(Unsound(), SAMPLES["sudoku"]["puzzles"])
    with pytest.raises(AssertionError, match="step_finders names 'no-such-tactic', not among"):
        check_step_finders(Unused(), SAMPLES["sudoku"]["puzzles"])


def test_the_backend_check_shares_the_search_from_its_first_node(monkeypatch):
    # a sample's small tree ended inside each backend's lone first search, so the kit's
    # check passed without any backend sharing anything
    import csolve.solver as solver

    sudoku = get_puzzle_type("sudoku")
    seen: list[tuple[str, int, dict]] = []
    real = solver.solve_one

    def spy(ptype, puzzle, options):
        seen.append((options.backend, options.probe_nodes, dict(options.backend_options)))
        return real(ptype, puzzle, options)

    monkeypatch.setattr(solver, "solve_one", spy)
    assert check_backend_counts(sudoku, SAMPLES["sudoku"]["open_puzzle"]) == 1004
    shared = [s for s in seen[1:] if s[0] in ("locked-pool", "work-stealing", "process-pool")]
    assert len(shared) == 6  # each at 1 and 2 workers
    assert all(probe == 0 and opts == {"probe": 0.0} for _, probe, opts in shared), shared
