"""The generator: unique and minimal puzzles, valid transformations, symmetry, reproducibility."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from csolve_sudoku import transform
from csolve_sudoku.generate import masks_of, solved_grid
from csolve_sudoku.grid import unit_problems
from hypothesis import given, settings
from hypothesis import strategies as st

from csolve.errors import OptionError
from csolve.generate import (
    GenerateOptions,
    GenerationError,
    count_solutions,
    derive_seeds,
    generate_puzzles,
    reduce_clues,
    symmetry_groups,
)
from csolve.solver import SolveOptions, solve_one

from .helpers import PUZZLES, brute_force_count, ctrl_c_reaches_it, run_cli


def _valid(grid: np.ndarray, n: int) -> bool:
    return not unit_problems(grid.reshape(-1), n, complete=True)


def _gen(sudoku, size, count, seed=1, **kw):
    return list(generate_puzzles(sudoku, GenerateOptions(size=size, **kw), count, seed))


@pytest.mark.parametrize("size,count", [(4, 20), (9, 20),
                                        pytest.param(16, 2, marks=pytest.mark.slow)])
def test_generated_puzzles_are_unique_and_minimal(sudoku, size, count):
    for g in _gen(sudoku, size, count):
        p = g.puzzle
        assert not sudoku.validate(p, g.solution)
        assert count_solutions(sudoku.model(p), 3) == 1
        if size == 4:
            assert brute_force_count(p.data, 4) == 1
        if size <= 9:  # minimal: every single clue is needed
            for c in np.flatnonzero(p.data):
                q = p.data.copy()
                q[c] = 0
                less = sudoku.model(p).with_init(sudoku.model(
                    type(p)(p.kind, "", 0, 0, q, p.fmt, p.meta)).init)
                assert count_solutions(less, 2) == 2
                if size == 4:
                    assert brute_force_count(q, 4, cap=2) >= 2


@pytest.mark.parametrize("sym", ["rot180", "rot90", "mirror", "diagonal"])
def test_symmetry_holds(sudoku, sym):
    for g in _gen(sudoku, 9, 5, symmetry=sym):
        filled = (g.puzzle.data > 0).reshape(9, 9)
        image = {"rot180": np.rot90(filled, 2), "rot90": np.rot90(filled),
                 "mirror": filled[:, ::-1], "diagonal": filled.T}[sym]
        assert (filled == image).all()
        assert count_solutions(sudoku.model(g.puzzle), 2) == 1


def test_symmetry_groups_partition_cells():
    for sym in ("none", "rot180", "rot90", "mirror", "diagonal"):
        cells = sorted(c for g in symmetry_groups(9, 9, sym) for c in g)
        assert cells == list(range(81))


def test_clue_target_stops_early(sudoku):
    for g in _gen(sudoku, 9, 5, clues=40):
        assert int((g.puzzle.data > 0).sum()) == 40
        assert count_solutions(sudoku.model(g.puzzle), 2) == 1


def test_reduce_clues_refuses_everything_on_a_forced_target(sudoku):
    from csolve_sudoku.plugin import sudoku_model

    grid = solved_grid(9, np.random.default_rng(3))
    model = sudoku_model(9, ("elimination", "hidden-single"))
    clue = reduce_clues(model, masks_of(grid), [(c,) for c in range(81)], target=80)
    assert int(clue.sum()) == 80


def test_reduce_clues_node_budget_refuses_what_it_cannot_settle(sudoku):
    """A removal whose check runs past ``max_nodes`` stays a clue: never a second solution,
    and with a budget of one node the search settles less than without one."""
    from csolve_sudoku.plugin import sudoku_model

    grid = solved_grid(9, np.random.default_rng(5))
    model = sudoku_model(9, ("elimination",))
    order = [(c,) for c in np.random.default_rng(6).permutation(81).tolist()]
    free = reduce_clues(model, masks_of(grid), order)
    tight = reduce_clues(model, masks_of(grid), order, max_nodes=1)
    assert tight.sum() > free.sum()
    for clue in (free, tight):
        line = "".join(str(v) if k else "." for v, k in zip(grid.tolist(), clue, strict=True))
        (puzzle,) = sudoku.parse(line + "\n", "<t>")
        result = solve_one(sudoku, puzzle, SolveOptions(limit=0))
        assert result.exact and result.count == 1
        assert sudoku.validate(puzzle, result.solutions[0]) == []


@settings(max_examples=25, deadline=None)
@given(k=st.sampled_from([2, 3, 4, 5]), seed=st.integers(0, 2**32 - 1),
       ops=st.lists(st.integers(0, 9), min_size=1, max_size=8))
def test_transformations_keep_grids_valid(k, seed, ops):
    n = k * k
    rng = np.random.default_rng(seed)
    g = solved_grid(n, rng).reshape(n, n)
    assert _valid(g, n)
    for op in ops:
        a, b = (int(x) for x in rng.integers(k, size=2))
        band = int(rng.integers(k)) * k
        g = _apply(op, g, a, b, band, rng)
        assert _valid(g, n)
    assert _valid(transform.random_transform(g, rng), n)


def _apply(op, g, a, b, band, rng):
    n = g.shape[0]
    ops = [
        transform.flip_rows, transform.flip_cols, transform.transpose,
        transform.anti_transpose, lambda x: transform.rotate(x, 1 + a % 3),
        lambda x: transform.relabel(x, rng.permutation(n) + 1),
        lambda x: transform.swap_rows(x, band + a, band + b),
        lambda x: transform.swap_cols(x, band + a, band + b),
        lambda x: transform.swap_bands(x, a, b),
        lambda x: transform.swap_stacks(x, a, b),
    ]
    return ops[op](g)


def test_swap_rows_across_bands_is_refused():
    g = solved_grid(9, np.random.default_rng(0)).reshape(9, 9)
    with pytest.raises(ValueError):
        transform.swap_rows(g, 0, 3)


def test_same_seed_same_puzzles_whatever_the_workers(sudoku):
    opts = GenerateOptions(size=9)
    one = [sudoku.format_line(g.puzzle, None)
           for g in generate_puzzles(sudoku, opts, 6, 42, workers=1)]
    two = [sudoku.format_line(g.puzzle, None)
           for g in generate_puzzles(sudoku, opts, 6, 42, workers=2)]
    other = [sudoku.format_line(g.puzzle, None)
             for g in generate_puzzles(sudoku, opts, 6, 43, workers=1)]
    assert one == two
    assert one != other


def _cli(*args: str) -> subprocess.CompletedProcess:
    """The program in this process (helpers.run_cli), as a completed process."""
    code, out, err = run_cli(*args)
    return subprocess.CompletedProcess(["csolve", *args], code, out, err)


def test_cli_reproducible_and_readable_back(tmp_path):
    a = _cli("generate", "sudoku", "--size", "16", "--count", "2", "--seed", "5")
    b = _cli("generate", "sudoku", "--size", "16", "--count", "2", "--seed", "5",
             "--workers", "2")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    assert len(a.stdout.splitlines()) == 2
    f = tmp_path / "gen.txt"
    f.write_text(a.stdout)
    solved = _cli("solve", "sudoku", str(f), "--count", "--output", "json")
    assert solved.returncode == 0, solved.stderr
    for line in solved.stdout.splitlines():
        obj = json.loads(line)
        assert obj["count"] == 1 and obj["exact"]


def test_cli_json_and_errors():
    r = _cli("generate", "sudoku", "--seed", "1", "--output", "json", "--symmetry", "rot180")
    obj = json.loads(r.stdout)
    assert obj["seed"] and len(obj["solution"]) == 9
    bad = _cli("generate", "sudoku", "--size", "7")  # a prime: no box shape
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    both = _cli("generate", "sudoku", "--minimal", "--clues", "30")
    assert both.returncode == 2 and "do not go together" in both.stderr


def test_difficulty_without_grader_is_one_clear_line(capsys, monkeypatch):
    """With the grader hidden (as if not installed), --difficulty is one line, exit 2."""
    from csolve.cli import main

    monkeypatch.setitem(sys.modules, "csolve.grading", None)  # import fails: not found
    monkeypatch.setattr(sys, "argv", ["csolve", "generate", "sudoku", "--difficulty", "hard",
                                      "--seed", "1"])
    with pytest.raises(SystemExit) as e:
        main()
    out, err = capsys.readouterr()
    assert e.value.code == 2 and out == ""
    assert err == "csolve: error: difficulty grading is not available\n"


def test_ctrl_c_stops_parallel_generation():
    import signal
    import time

    p = subprocess.Popen([sys.executable, "-m", "csolve", "generate", "sudoku", "--size", "25",
                          "--count", "4", "--seed", "3", "--workers", "2"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         preexec_fn=ctrl_c_reaches_it)
    time.sleep(3)
    p.send_signal(signal.SIGINT)
    try:
        rc = p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        raise
    assert rc == 130


def test_difficulty_uses_the_grader():
    """--difficulty keeps generating until the grader agrees (here: easy)."""
    from csolve.generate import GenerateOptions, generate_puzzles
    from csolve.grading import rate
    from csolve.puzzle import get_puzzle_type

    sudoku = get_puzzle_type("sudoku")
    made = list(generate_puzzles(sudoku, GenerateOptions(size=9, clues=36), count=2, seed=11,
                                 difficulty="easy", tries=200))
    assert len(made) == 2
    for g in made:
        assert g.grade == "easy" and rate(sudoku, g.puzzle).level == "easy"


def test_difficulty_tries_without_a_count_stop_at_the_time_bound(monkeypatch):
    """Without ``tries`` a level is sought for DIFFICULTY_SECONDS (here none: one try), and
    the error says how many tries were made and that time ended them: a time-out (exit 3),
    as the command line reports it too; a ``tries`` count is kept whatever the clock says,
    and running out of it is the request's own bound (exit 2)."""
    from csolve.errors import ExitCode
    from csolve.generate import (
        GenerateOptions,
        GenerationError,
        GenerationTimeoutError,
        generate_puzzles,
    )
    from csolve.puzzle import get_puzzle_type

    sudoku = get_puzzle_type("sudoku")
    monkeypatch.setattr("csolve.defaults.DIFFICULTY_SECONDS", 0.0)
    with pytest.raises(GenerationTimeoutError, match=r"no evil puzzle came out in 1 try within 0 "
                                                     r"CPU s \(puzzle seed 3\): the level is rare "
                                                     r"or absent at this size; pass --tries N "
                                                     r"\(over 1\)") as timed_out:
        list(generate_puzzles(sudoku, GenerateOptions(size=4), 1, 3, difficulty="evil"))
    assert timed_out.value.exit_code == ExitCode.TIMEOUT
    with pytest.raises(GenerationError, match=r"in 4 tries \(puzzle seed 3\); pass more --tries N"
                       ) as tried:
        list(generate_puzzles(sudoku, GenerateOptions(size=4), 1, 3, difficulty="evil",
                              tries=4))
    assert tried.value.exit_code == ExitCode.BAD_INPUT
    code, out, err = run_cli("generate", "sudoku", "--size", "4", "--seed", "3",
                             "--difficulty", "evil")
    assert (code, out) == (ExitCode.TIMEOUT, "")
    assert err.startswith("csolve: error: no evil puzzle came out in 1 try within 0 CPU s")


def test_difficulty_finds_the_same_puzzle_with_or_without_a_count():
    """Try t of a puzzle is always the same draw, so the time bound changes only whether a
    level is found, never which puzzle."""
    from csolve.generate import GenerateOptions, generate_puzzles
    from csolve.grading import rate
    from csolve.puzzle import get_puzzle_type

    sudoku = get_puzzle_type("sudoku")
    timed, counted_ = (next(generate_puzzles(sudoku, GenerateOptions(size=9), 1, 5,
                                             difficulty="medium", tries=tries))
                       for tries in (None, 10_000))
    assert timed.tries == counted_.tries
    assert (timed.puzzle.data == counted_.puzzle.data).all()
    assert rate(sudoku, timed.puzzle).level == "medium"
    assert sudoku.validate(timed.puzzle, timed.solution) == []


@pytest.mark.parametrize("kind, size, rules", [("sudoku", 4, "naked-pair"),
                                               ("sudoku", 9, "x-wing"),
                                               ("sudoku", 4, "hidden-single"),
                                               ("killer", 4, "naked-pair")])
def test_chosen_rules_are_taken_as_solve_takes_them(kind, size, rules):
    """Rules without elimination (or a type's constraint rules) still make sound puzzles:
    the generator, like solve, puts elimination first and keeps the type's constraints."""
    import csolve

    for p in csolve.generate(kind, 2, size=size, seed=1, rules=rules):
        r = csolve.count(kind, p)
        assert r.count == 1 and r.exact
        assert csolve.validate(kind, r.solution, against=p) == []


@pytest.mark.parametrize("args, message", [
    (("kakuro", "--box", "3x2"), "kakuro puzzles have no box shape to choose"),
    (("sudoku", "-O", "k=3"), "--option goes with --backend"),
    (("sudoku", "--backend", "work-stealing", "-O", "bogus=1"), "has no option 'bogus'"),
])
def test_generate_refuses_options_it_cannot_honour(args, message):
    from .helpers import run_cli

    code, out, err = run_cli("generate", *args, "--seed", "1")
    assert code == 2 and message in err and not out


@pytest.mark.parametrize("kind, size", [("sudoku", 9), ("sudoku", 16), ("killer", 9),
                                        ("kakuro", 9), ("str8ts", 6)])
def test_generated_json_reads_back_in_solve(tmp_path, kind, size):
    """What ``generate --output json`` writes, ``solve`` reads (the puzzle's one-line form
    under ``text``), from the CLI and from Python; each answer is checked by the validator
    and is the generator's own solution."""
    import csolve

    gen = _cli("generate", kind, "--size", str(size), "--count", "2", "--seed", "4",
               "--output", "json")
    assert gen.returncode == 0, gen.stderr
    records = [json.loads(line) for line in gen.stdout.splitlines()]
    assert all(r["clues"] >= 0 for r in records)  # each type counts its givens
    # the fields that tell generate's records from a type's own JSON
    from csolve.inputs import GENERATED_FIELDS

    assert all(set(r) <= GENERATED_FIELDS for r in records)
    if kind == "sudoku" and size == 9:  # and the fields --difficulty adds
        graded = _cli("generate", "sudoku", "--size", "4", "--count", "1", "--seed", "4",
                      "--difficulty", "easy", "--output", "json")
        assert graded.returncode == 0, graded.stderr
        assert {"difficulty", "tries"} <= set(json.loads(graded.stdout)) <= GENERATED_FIELDS
    f = tmp_path / "gen.jsonl"
    f.write_text(gen.stdout)
    solved = _cli("solve", kind, str(f), "--output", "json")
    assert solved.returncode == 0, solved.stderr
    answers = [json.loads(line) for line in solved.stdout.splitlines()]
    assert [a["solution"] for a in answers] == [r["solution"] for r in records]
    assert [a["line"] for a in answers] == [1, 2]
    for result in csolve.solve(kind, str(f)):
        assert result.solution is not None
        assert csolve.validate(kind, result.solution, against=result.puzzle) == []


def test_json_that_generate_did_not_write_is_one_line_error(tmp_path):
    solved = _cli("solve", "sudoku", str(PUZZLES / "sudoku" / "9x9-easy.txt"), "--output", "json")
    f = tmp_path / "answers.jsonl"
    f.write_text(solved.stdout)
    code, out, err = run_cli("solve", "sudoku", str(f))
    assert code == 2 and not out
    assert err.strip() == (f"csolve: error: {f}:1: sudoku reads JSON only as csolve generate "
                           "--output json writes it: one object per line, the puzzle under "
                           "'text'")
    f.write_text('{"text": "' + "." * 81 + '"}\n{"puzzle": 2}\n')
    code, out, err = run_cli("solve", "sudoku", str(f))
    assert code == 2 and f"{f}:2: a record of csolve generate" in err
    for kind in ("sudoku", "kakuro"):  # with or without a JSON form of its own
        for value, name in (("5", "number"), ("null", "null"), ("[1]", "array")):
            f.write_text('{"text": ' + value + '}\n')
            code, out, err = run_cli("solve", kind, str(f))
            assert code == 2 and not out
            assert err == (f"csolve: error: {f}:1: 'text' holds a JSON {name}, not the "
                           "puzzle's line (a string)\n")


REFUSED = GenerationError  # what the type cannot make


@pytest.mark.parametrize("args, message, error", [
    (("killer", "--symmetry", "rot90"), "Killer puzzles have no clues to remove", REFUSED),
    (("killer", "--clues", "20"), "--symmetry and --clues do not apply", REFUSED),
    (("killer", "--size", "7"), "Killer size must be one of", REFUSED),
    (("kakuro", "--size", "3"), "Kakuro size must be 4..31", REFUSED),
    (("str8ts", "--size", "10"), "Str8ts size must be 4..9", REFUSED),
    (("sudoku", "--size", "7"), "Sudoku size must be one of", REFUSED),
    (("sudoku", "--clues", "81"), "--clues N must be fewer than the 81 cells of a 9x9 grid",
     REFUSED),
    (("kakuro", "--clues", "100"), "--clues N must be fewer than the 81 cells", REFUSED),
    # options that did nothing: a usage slip
    (("sudoku", "--tries", "3"), "--tries goes with --difficulty", OptionError),
    (("sudoku", "--rules", "kakuro-sum"), "rule 'kakuro-sum' is the constraint of", OptionError),
])
def test_a_type_refuses_what_it_cannot_make_in_one_line(args, message, error):
    """The type's refusal is all that is said: no seed line before it (no seed was given),
    nothing on stdout; from Python the same refusal, before any puzzle."""
    import csolve

    code, out, err = run_cli("generate", *args)
    assert code == 2 and not out
    assert err.count("\n") == 1 and err.startswith("csolve: error: ") and message in err
    kind, option, value = args
    kw = {option.lstrip("-"): int(value) if value.isdigit() else value}
    in_python = re.sub(r"--(\w+)( N\b)?", r"\1=\2", message).replace("= N", "=N")  # keywords
    with pytest.raises(error, match=in_python.replace(".", r"\.")):
        csolve.generate(kind, seed=1, **kw)


def test_generated_json_with_comments_a_format_or_a_bad_text(tmp_path):
    """Comment lines and blank lines among generate's records stay what they are; a
    ``--format`` names the format of the text the records carry (``json`` the records
    themselves); a ``text`` that is not one line of one puzzle is refused at its record."""
    gen = _cli("generate", "kakuro", "--size", "6", "--count", "2", "--seed", "4",
               "--output", "json")
    records = gen.stdout.splitlines()
    f = tmp_path / "k.jsonl"
    f.write_text("; made by csolve generate\n" + records[0] + "\n\n; next\n" + records[1] + "\n")
    for extra in ((), ("--format", "json"), ("--format", "text")):
        solved = _cli("solve", "kakuro", str(f), "--output", "json", *extra)
        assert solved.returncode == 0, solved.stderr
        answers = [json.loads(line) for line in solved.stdout.splitlines()]
        assert [a["line"] for a in answers] == [2, 5]
        assert [a["solution"] for a in answers] == [json.loads(r)["solution"] for r in records]
    for text in ("a\nb", "", "; only a comment"):
        f.write_text(records[0] + "\n" + json.dumps({"text": text}) + "\n")
        code, out, err = run_cli("solve", "kakuro", str(f))
        assert code == 2 and not out
        assert err == f"csolve: error: {f}:2: a record's 'text' holds one puzzle on one line\n"


@pytest.mark.parametrize("args, message", [
    (("killer", "--size", "6", "--box", "3x3"), "not 3x3"),
    (("kakuro", "--box", "2x2"), "kakuro puzzles have no box shape to choose"),
    (("sudoku", "--rules", "nosuch"), "unknown rule 'nosuch'"),
    (("sudoku", "--backend", "nosuch"), "unknown backend 'nosuch'"),
    (("sudoku", "--backend", "interleave", "-O", "probe=-2"), "wants a number >= 0"),
])
def test_every_refusal_comes_before_the_seed_line(args, message):
    code, out, err = run_cli("generate", *args)
    assert code == 2 and not out
    assert err.count("\n") == 1 and err.startswith("csolve: error: ") and message in err


def test_serial_backend_makes_one_puzzle_at_a_time(sudoku):
    """``--backend serial --workers 2`` makes the same puzzles as threads do, never two at
    once, and the command line says the workers change nothing."""
    import threading

    from csolve.backends import get_backend
    from csolve.search import new_ctrl

    events: list[tuple[str, int]] = []
    lock = threading.Lock()

    def make(seed, ctrl):
        with lock:
            events.append(("start", seed))
        with lock:
            events.append(("end", seed))
        return seed * 2

    out = list(get_backend("serial").map_ordered(make, list(range(8)), 4, new_ctrl()))
    assert out == [2 * s for s in range(8)]
    assert events == [(e, s) for s in range(8) for e in ("start", "end")]
    code, serial, err = run_cli("generate", "sudoku", "--count", "2", "--seed", "7",
                                "--backend", "serial", "--workers", "2")
    assert code == 0 and "--workers 2 changes nothing" in err
    code, threads, _ = run_cli("generate", "sudoku", "--count", "2", "--seed", "7",
                               "--workers", "2")
    assert code == 0 and serial == threads
    for p in sudoku.parse(serial, "<generated>"):
        assert count_solutions(sudoku.model(p), 3) == 1


def test_a_billion_puzzles_start_at_once_with_the_seeds_spawn_gives():
    """The seeds are worked out one at a time as asked for (a list of a billion took
    minutes and gigabytes before the first puzzle), and are the seeds they always were:
    ``SeedSequence(seed).spawn(count)``'s children, the first the seed itself."""
    from csolve.generate import derive_seeds

    seeds = derive_seeds(7, 10**9)
    assert len(seeds) == 10**9 and seeds[0] == 7
    spawned = np.random.SeedSequence(7).spawn(5)
    assert list(seeds[1:5]) == [int(c.generate_state(2, dtype=np.uint64)[0] >> np.uint64(1))
                               for c in spawned[1:]]
    assert seeds[-1] == seeds[10**9 - 1]
    assert derive_seeds(7, 3) == list(derive_seeds(7, 3)) == [7, *seeds[1:3]]
    from itertools import islice

    from csolve.generate import GenerateOptions, generate_puzzles
    from csolve.puzzle import get_puzzle_type

    str8ts = get_puzzle_type("str8ts")
    made = generate_puzzles(str8ts, GenerateOptions(size=4), 10**9, seed=7, workers=2)
    first_two = list(islice(made, 2))
    made.close()
    assert [g.seed for g in first_two] == list(seeds[:2])
    for g in first_two:
        r = solve_one(str8ts, g.puzzle, SolveOptions(limit=2))
        assert r.count == 1 and str8ts.validate(g.puzzle, r.solutions[0]) == []


GENERATE_COMMAND = re.compile(r"csolve generate (\w+)((?: --[\w-]+ [^\s)]+)+)")
SLOW_TO_MAKE = {"16x16-generated-minimal.txt"}


def _made_by_csolve() -> list:
    files = sorted(PUZZLES.glob("*/*.txt"))
    made = [f for f in files if GENERATE_COMMAND.search(f.read_text())]
    return [pytest.param(f, id=f"{f.parent.name}/{f.name}",
                         marks=[pytest.mark.slow] if f.name in SLOW_TO_MAKE else [])
            for f in made]


@pytest.mark.parametrize("path", _made_by_csolve())
def test_bundled_files_are_what_their_header_commands_make(path):
    """A bundled file that names the commands that made it says so truly: the same seed and
    options still make the same puzzles (the generator's promise of reproducibility)."""
    lines = path.read_text().splitlines()
    header = "\n".join(line for line in lines if line.startswith("#"))
    made = []
    for kind, options in GENERATE_COMMAND.findall(header):
        r = _cli("generate", kind, *options.split())
        assert r.returncode == 0, r.stderr
        made += r.stdout.splitlines()
    assert made == [line for line in lines if line and not line.startswith("#")]


def test_a_type_whose_clues_are_not_all_cells_says_how_many_it_holds():
    """``most_clues`` bounds ``--clues`` (a grid's cells unless the type says more, as a
    Skyscrapers puzzle with edge numbers would)."""
    from csolve.generate import checked_request, takes_clues
    from csolve.puzzle import get_puzzle_type

    class Edged(type(get_puzzle_type("sudoku"))):
        name = "edged-sudoku"

        def most_clues(self, options):
            return options.size * options.size + 36

    edged = Edged()
    assert checked_request(edged, GenerateOptions(size=9, clues=100)).clues == 100
    seen = []  # the clue count --difficulty's easing asks the type about: the most, less one

    class Watched(Edged):
        def check_generate(self, options):
            seen.append(options.clues)
            return super().check_generate(options)

    assert takes_clues(Watched(), GenerateOptions(size=9)) and seen == [116]
    with pytest.raises(GenerationError, match="fewer than the 117 clues a 9x9 edged-sudoku "
                                              "puzzle holds, got 117"):
        checked_request(edged, GenerateOptions(size=9, clues=117))


def _stalls_after(monkeypatch, made: int) -> None:
    """Sudoku's generator makes ``made`` puzzles, then stalls until its control array is
    stopped, as a search that will not end in time (say, a minimal 25x25)."""
    import time

    from csolve.kernels import abi
    from csolve.puzzle import get_puzzle_type

    cls = type(get_puzzle_type("sudoku"))
    real = cls.generate
    calls = []

    def stalling(self, options, rng, ctrl=None):
        calls.append(1)
        if len(calls) <= made:
            return real(self, options, rng, ctrl)
        while not ctrl[abi.CTRL_STOP]:
            time.sleep(0.01)
        raise KeyboardInterrupt

    monkeypatch.setattr(cls, "generate", stalling)


def test_timeout_ends_the_run_after_the_puzzles_made_before_it(monkeypatch, tmp_path):
    """--timeout: the first puzzle not made in time ends the run with exit 3; the puzzles
    made before it are printed (each unique), and stderr says how many."""
    from csolve.errors import ExitCode

    _stalls_after(monkeypatch, 1)
    code, out, err = run_cli("generate", "sudoku", "--count", "3", "--seed", "4",
                             "--timeout", "0.2")
    assert code == ExitCode.TIMEOUT
    assert len(out.splitlines()) == 1
    assert err.splitlines()[-2:] == [  # (after a note of compiling, on a cold cache)
        "csolve: 1 of 3 puzzles made",
        f"csolve: error: a puzzle was not made within 0.2 s (puzzle seed "
        f"{derive_seeds(4, 3)[1]}): pass a longer --timeout N, or ask for less (--clues N "
        "instead of a minimal puzzle; a smaller size)"]
    monkeypatch.undo()
    f = tmp_path / "made.txt"
    f.write_text(out)
    code, solved, err = run_cli("solve", "sudoku", str(f), "--count", "--output", "json")
    assert code == 0, err
    assert json.loads(solved)["count"] == 1


def test_timeout_from_python_keeps_what_was_made(monkeypatch):
    import csolve
    from csolve.errors import ExitCode

    _stalls_after(monkeypatch, 2)
    with pytest.raises(csolve.GenerationTimeoutError, match=r"within 0.2 s .* longer timeout=N"
                       ) as timed_out:
        csolve.generate("sudoku", 4, seed=9, timeout=0.2)
    assert timed_out.value.exit_code == ExitCode.TIMEOUT
    monkeypatch.undo()
    assert [p.meta["seed"] for p in timed_out.value.made] == list(derive_seeds(9, 4)[:2])
    again = csolve.generate("sudoku", 2, seed=9)
    assert [p.data.tolist() for p in timed_out.value.made] == [p.data.tolist() for p in again]
    with pytest.raises(OptionError, match="timeout must be"):
        csolve.generate("sudoku", timeout=-1)


def test_timeout_stops_a_puzzle_too_large_to_make_in_time():
    """A minimal 25x25 takes minutes; half a second ends it, exit 3, nothing on stdout."""
    code, out, err = run_cli("generate", "sudoku", "--size", "25", "--seed", "1",
                             "--timeout", "0.5")
    assert (code, out) == (3, "")
    assert err.splitlines()[-1].startswith("csolve: error: a puzzle was not made within 0.5 s "
                                           "(puzzle seed 1)")


def test_a_puzzle_clock_leaves_ctrl_c_to_the_caller():
    """Under a time limit each puzzle searches under a control array of its own; stopping
    the shared one (Ctrl-C) still stops it, as an interrupt, not a time-out."""
    import threading

    from csolve.generate import with_time_limit
    from csolve.kernels import abi
    from csolve.search import new_ctrl

    shared = new_ctrl()
    started = threading.Event()

    def make(seed, ctrl):
        assert ctrl is not shared
        started.set()
        while not ctrl[abi.CTRL_STOP]:
            threading.Event().wait(0.01)
        raise KeyboardInterrupt

    threading.Thread(target=lambda: (started.wait(), shared.__setitem__(abi.CTRL_STOP, 1)),
                     daemon=True).start()
    with pytest.raises(KeyboardInterrupt):
        with_time_limit(3600, make, "")(1, shared)
    assert with_time_limit(3600, lambda seed, ctrl: seed * 2, "")(21, new_ctrl()) == 42


def test_puzzles_under_a_time_limit_share_one_clock():
    """One watcher thread serves a stream of timed puzzles (it was one thread a puzzle),
    and still stops the one that runs out of time, as a time-out."""
    import threading

    from csolve.generate import GenerationTimeoutError, with_time_limit
    from csolve.kernels import abi
    from csolve.search import new_ctrl

    def clocks():
        return [t for t in threading.enumerate() if t.name == "csolve-generate-clock"]

    for t in clocks():  # a clock an earlier test left ends once idle for a moment
        t.join()
    seen = set()

    def quick(seed, ctrl):
        seen.update(t.ident for t in clocks())
        return seed

    timed = with_time_limit(3600, quick, "")
    assert [timed(k, new_ctrl()) for k in range(200)] == list(range(200))
    assert len(seen) == 1

    def endless(seed, ctrl):
        while not ctrl[abi.CTRL_STOP]:
            threading.Event().wait(0.005)
        raise KeyboardInterrupt

    with pytest.raises(GenerationTimeoutError, match="not made within 0.05 s"):
        with_time_limit(0.05, endless, "")(7, new_ctrl())


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_forked_child_times_its_puzzles_too():
    """A child forked while the clock ran has no copy of its thread: the clock starts
    afresh there, so a time limit still ends a puzzle (it had waited on a thread that
    was never there)."""
    script = textwrap.dedent("""
        import os, csolve
        from csolve.generate import GenerationTimeoutError
        csolve.generate("sudoku", size=4, count=1, seed=1, timeout=60)  # the clock runs
        pid = os.fork()
        if pid == 0:
            try:
                csolve.generate("sudoku", size=25, count=1, seed=1, timeout=0.2)
                print("made", flush=True)
            except GenerationTimeoutError:
                print("timed out", flush=True)
            os._exit(0)
        os.waitpid(pid, 0)
    """)
    r = subprocess.run([sys.executable, "-W", "ignore", "-c", script], capture_output=True,
                       text=True, timeout=600)
    assert r.stdout == "timed out\n", r.stderr
