"""The ``csolve`` command line. Commands import their heavy machinery when they run, so
``csolve --help`` stays instant."""

from __future__ import annotations

import errno
import os
import sys
import threading
from collections.abc import Callable
from typing import Any

from csolve.cli.app import app


def _click_exception_modules() -> list:
    """click's exception modules: typer may use click itself or a copy of its own."""
    mods = []
    try:
        from typer._click import exceptions as vendored

        mods.append(vendored)
    except ImportError:
        pass
    try:
        import click.exceptions

        mods.append(click.exceptions)
    except ImportError:
        pass
    return mods


def main() -> None:
    """Entry point: run the app, turning known errors into one line and an exit code."""
    from csolve.cli.heap import keep_freed_memory
    from csolve.errors import AUDIENCE, CsolveError, ExitCode, clip_words
    from csolve.kernels import diskcache

    keep_freed_memory()
    diskcache.announce_compiles = True  # say so when a first run compiles (not numba: lazy)
    diskcache.compile_note = ""  # (a command says what its time limit makes of it)
    _interrupts_seen.clear()
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _quiet_unraisable_interrupt(previous_hook)
    audience = AUDIENCE.set("command")  # messages name the command's options
    puzzle_module = sys.modules.get("csolve.puzzle")  # (not imported for --help)
    if puzzle_module is not None:
        puzzle_module.used.clear()  # the types this command looks up, not an earlier one's
    watch = _InterruptWatch()
    watch.start()
    _terminated.clear()
    previous_term = _stop_on_sigterm()
    stderr = sys.stderr
    sys.stderr = _BestEffort(stderr)
    try:
        rv = app_for(sys.argv[1:])(standalone_mode=False)
    except BrokenPipeError:
        _reader_gone()
    except SystemExit as e:
        if _pipe_closed(e):  # click or rich turned a closed pipe into exit 1 ("no solution")
            _reader_gone()
        raise
    except CsolveError as e:
        _say(f"csolve: error: {clip_words(str(e))}\n")
        sys.exit(int(e.exit_code))
    except KeyboardInterrupt:
        _interrupted_exit()
    except UnicodeEncodeError as e:  # an output encoding (PYTHONIOENCODING=ascii) too narrow
        _say(f"csolve: error: the output's encoding ({e.encoding}) cannot write "
             f"{e.object[e.start]!r}: set PYTHONIOENCODING=utf-8, or use "
             "--output line\n")
        sys.exit(int(ExitCode.BAD_INPUT))
    except Exception as e:
        name = type(e).__name__
        if name == "Exit" and hasattr(e, "exit_code"):
            sys.exit(e.exit_code)
        # click's Abort, or a Ctrl-C that broke an import or a compile (numba's) midway
        if name == "Abort" or _caused_by_interrupt(e) or _interrupts_seen:
            _interrupted_exit()
        for mod in _click_exception_modules():
            if isinstance(e, mod.ClickException):
                if e.format_message().strip():  # (none after the help shown for no command)
                    _say(f"csolve: error: {clip_words(_one_line(e, mod))}\n")
                sys.exit(int(ExitCode.BAD_INPUT))
        from csolve.plugins import debug_enabled

        if isinstance(e, OSError) and e.errno in _WRITE_ERRORS:
            _cannot_write(e)
        if debug_enabled():
            raise
        # a bug (in csolve or a plugin): one line and exit 4, the traceback on request
        compiled = _kernel_failure(e)
        if compiled:
            _say(f"csolve: error: {compiled} (a bug in that kernel; "
                 "CSOLVE_DEBUG=1 shows numba's whole report)\n")
            sys.exit(int(ExitCode.INTERNAL))
        from csolve.plugins import blamed_plugin

        detail = " ".join(str(e).split())[:300]
        where = blamed_plugin(e)
        if where is not None:
            _say(f"csolve: error in {where}: {name}"
                 f"{': ' + detail if detail else ''} (a bug in that plugin; "
                 "CSOLVE_DEBUG=1 shows the traceback)\n")
            sys.exit(int(ExitCode.INTERNAL))
        from csolve.plugins import type_in_use_from_plugin

        whose = type_in_use_from_plugin()
        bug = f"{whose}: a bug there or in csolve" if whose else "a bug"
        _say(f"csolve: internal error: {name}{': ' + detail if detail else ''} "
             f"({bug}; CSOLVE_DEBUG=1 shows the traceback)\n")
        sys.exit(int(ExitCode.INTERNAL))
    finally:
        watch.stop()
        sys.stderr = stderr
        if previous_term is not None:
            import signal

            signal.signal(signal.SIGTERM, previous_term)
        _interrupt_dealt_with()
        sys.unraisablehook = previous_hook
        AUDIENCE.reset(audience)
    if rv == ExitCode.INTERRUPTED:  # typer ends any command so on Ctrl-C, without a word
        _interrupted_exit()
    if isinstance(rv, int) and rv:
        sys.exit(rv)


#: the exit status of a program ended by a closed pipe (128 + SIGPIPE), as shells report it
EXIT_PIPE_CLOSED = 141
#: errors of a write that failed for want of room or a working device
_WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


def _pipe_closed(e: SystemExit) -> bool:
    """True when ``e`` is how rich (exiting while a BrokenPipeError is handled) or click
    (which wraps stdout to keep it quiet) ended a write to a closed pipe."""
    return isinstance(e.__context__, BrokenPipeError) or (
        type(sys.stdout).__name__ == "PacifyFlushWrapper")


#: Ctrl-Cs that Python could not raise where they struck (see _quiet_unraisable_interrupt)
_interrupts_seen: list[object] = []
_interrupts_lock = threading.Lock()


def _quiet_unraisable_interrupt(previous: Callable[[Any], object]) -> Callable[[Any], None]:
    """A ``sys.unraisablehook`` for a Ctrl-C that strikes where Python cannot raise it: in a
    callback from compiled code (llvmlite's object cache, while numba compiles). Python would
    print "Exception ignored ..." and a traceback, then go on as if nothing had been pressed,
    or the compile would fail with an error of its own. Instead the Ctrl-C is noted (such a
    failure then ends as an interruption, exit 130) and delivered again from another thread,
    to strike the main thread where it can be raised."""
    def hook(unraisable) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            _interrupts_seen.append(unraisable.exc_value)
            while True:
                try:
                    threading.Thread(target=_interrupt_main_soon, daemon=True).start()
                    return
                except KeyboardInterrupt:  # it struck here, in the hook: send it again
                    continue
        previous(unraisable)
    return hook


def _interrupt_main_soon() -> None:
    """A Ctrl-C for the main thread, once the hook that asked for it has returned, unless
    the program has dealt with it meanwhile (:func:`_interrupt_dealt_with`)."""
    import _thread
    import time

    time.sleep(0.05)
    with _interrupts_lock:
        if _interrupts_seen:
            _thread.interrupt_main()


def _interrupt_dealt_with() -> None:
    """The program is ending (interrupted or not): a Ctrl-C noted by the hook is not sent
    again."""
    with _interrupts_lock:
        _interrupts_seen.clear()


def _caused_by_interrupt(e: BaseException) -> bool:
    """True when a KeyboardInterrupt is among the exceptions ``e`` arose from."""
    seen: set[int] = set()
    cause: BaseException | None = e
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


#: seconds after a Ctrl-C within which another SIGINT is the same one: ``timeout -s INT``
#: sends it to the command and again to its process group, where a person's second Ctrl-C
#: comes later
SAME_INTERRUPT_S = 0.5

#: when the Ctrl-Cs received once the command was done came (``time.monotonic()``)
_late_interrupts: list[float] = []


def _interrupted_in_teardown(signum: int, frame: object) -> None:
    """Ctrl-C once the command is done: the program still winds down in order (its worker
    processes stopped, none left waiting) and then says it was interrupted; a second Ctrl-C
    (:data:`SAME_INTERRUPT_S` or more after the first) ends the workers and the program at
    once."""
    import time

    now = time.monotonic()
    if not _late_interrupts or now - _late_interrupts[0] < SAME_INTERRUPT_S:
        _late_interrupts.append(now)
        return
    import multiprocessing
    import os

    for child in multiprocessing.active_children():
        child.terminate()
    _say_interrupted()
    os._exit(130)


#: seconds the program has, after a second Ctrl-C, to stop on its own before it is ended
STUCK_GRACE_S = 2.0
#: seconds the program has after a SIGTERM: the command stops its search and writes what it
#: found, which may wait on a cluster still starting (a process manager's own grace before
#: SIGKILL is commonly 10 s or more)
TERM_GRACE_S = 10.0


class _InterruptWatch:
    """A second Ctrl-C, or SIGTERM, ends the program even when the main thread never
    returns to Python (a compiled kernel that loops forever: Python runs signal handlers
    between bytecodes only). Python still writes each signal's number to a wakeup fd at
    once; a thread reads it, and when a second Ctrl-C (:data:`SAME_INTERRUPT_S` or more
    after the first) is not dealt with within :data:`STUCK_GRACE_S`, or a SIGTERM within
    :data:`TERM_GRACE_S` (the command not done by then), it ends the workers and the
    program."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self._sockets: tuple = ()
        self._previous = -1

    def start(self) -> None:
        import signal
        import socket

        if threading.current_thread() is not threading.main_thread():
            return
        reader, writer = socket.socketpair()
        writer.setblocking(False)
        try:
            self._previous = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
        except ValueError:
            reader.close(), writer.close()
            return
        self._sockets = (reader, writer)
        threading.Thread(target=self._watch, args=(reader,), name="csolve-interrupt-watch",
                         daemon=True).start()

    def stop(self) -> None:
        """The command is done: its own handling of Ctrl-C has had its say."""
        import signal
        import socket

        self.done.set()
        if not self._sockets:
            return
        reader, writer = self._sockets
        self._sockets = ()
        signal.set_wakeup_fd(self._previous)
        writer.close()
        reader.shutdown(socket.SHUT_RDWR)  # the watching thread's read ends
        reader.close()

    def _watch(self, reader) -> None:
        import signal
        import time

        first: list[float] = []
        while True:
            try:
                data = reader.recv(64)
            except OSError:
                return
            if not data:
                return
            for signum in data:
                now = time.monotonic()
                if signum == signal.SIGTERM and not self.done.wait(TERM_GRACE_S):
                    self._end("terminated", EXIT_TERMINATED, TERM_GRACE_S)
                if signum != signal.SIGINT:
                    continue
                if not first:
                    first.append(now)
                elif now - first[0] >= SAME_INTERRUPT_S and not self.done.wait(STUCK_GRACE_S):
                    self._end("interrupted", 130, STUCK_GRACE_S)

    @staticmethod
    def _end(what: str, code: int, grace: float) -> None:
        import multiprocessing

        for child in multiprocessing.active_children():
            child.terminate()
        _say(f"csolve: {what} (the command did not stop within {grace:g} s: a compiled rule "
             "or engine that never returns, or a cluster slow to start or stop)\n")
        os._exit(code)


#: the exit status of a program ended by SIGTERM (128 + 15), as shells report it
EXIT_TERMINATED = 143


class Terminated(KeyboardInterrupt):
    """SIGTERM (``timeout``, a process manager): stopped as Ctrl-C stops the program,
    every worker with it, and said as ``csolve: terminated``, exit status 143."""


#: when the SIGTERMs the command acted on came (``time.monotonic()``; a ``Terminated`` may
#: come back as click's Abort)
_terminated: list[float] = []


def note_terminated() -> None:
    """Record a SIGTERM acted on; one a command deals with itself (it stops its search) ends
    the command as a terminated one too: ``csolve: terminated``, exit status 143."""
    import time

    _terminated.append(time.monotonic())


def terminated_seen() -> bool:
    return bool(_terminated)


def same_sigterm_again() -> bool:
    """Whether a SIGTERM now is the first one sent twice: ``timeout`` sends it to the
    command and again to its process group (within :data:`SAME_INTERRUPT_S`)."""
    import time

    return bool(_terminated) and time.monotonic() - _terminated[0] < SAME_INTERRUPT_S


def is_command_sigterm_handler(handler: object) -> bool:
    """Whether ``handler`` is the one :func:`main` put in (not an embedder's)."""
    return bool(getattr(handler, "csolve_command", False))


def _interrupted_exit() -> None:
    """Say how the command was stopped (Ctrl-C or SIGTERM) and exit with its status."""
    from csolve.errors import ExitCode

    if _terminated:
        import multiprocessing

        for child in multiprocessing.active_children():  # (one still starting would read
            child.terminate()  # its start-up data from a closed pipe, and say so at length)
        _say_interrupted("terminated")
        sys.exit(EXIT_TERMINATED)
    _say_interrupted()
    sys.exit(int(ExitCode.INTERRUPTED))


def _stop_on_sigterm() -> Any:
    """Raise :class:`Terminated` on SIGTERM (worker processes were killed in mid-write,
    and Python warned of their leaked semaphores); the previous handler, or None when
    this is not the main thread."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        return None

    def terminated(signum: int, frame: object) -> None:
        if same_sigterm_again():
            return  # acted on already
        pools = sys.modules.get("csolve.backends.processes")
        if pools is not None and pools.hold_while_spawning(signum):
            return  # raised again once the workers being started are
        note_terminated()
        raise Terminated

    terminated.csolve_command = True  # type: ignore[attr-defined]
    return signal.signal(signal.SIGTERM, terminated)


def _say_interrupted(what: str = "interrupted") -> None:
    """The one line every command ended by Ctrl-C (or SIGTERM) ends with."""
    _say(f"csolve: {what}\n")


class _BestEffort:
    """stderr for a command: its lines are notes and diagnostics, so one that cannot be
    written (``2>/dev/full``) is dropped, and the exit code still says what happened."""

    def __init__(self, stream: object) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except (OSError, ValueError):  # (ValueError: stderr closed)
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except (OSError, ValueError):
            pass

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def _say(text: str) -> None:
    """A line on stderr that may not get there (``2>/dev/full``): the exit code still
    says what happened."""
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError):  # (ValueError: stderr closed)
        pass


def _cannot_write(error: OSError) -> None:
    """Writing failed (``csolve solve ... > /dev/full``): one line and exit 5, not "a bug"."""
    from csolve.errors import ExitCode

    where = f" {error.filename}" if error.filename else ""
    _say(f"csolve: error: cannot write{where}: {error.strerror}\n")
    _drop_buffered_output()
    sys.exit(int(ExitCode.CANNOT_WRITE))


def _reader_gone() -> None:
    """The reader of our output went away (``csolve explain ... | head -1``): stop quietly
    with 141, as a program ended by SIGPIPE does, not with 1, which means "no solution"."""
    _drop_buffered_output()
    sys.exit(EXIT_PIPE_CLOSED)


def _drop_buffered_output() -> None:
    """Output still buffered goes to /dev/null, so that the exit's flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def app_for(args: list[str]):
    """The app to run ``args`` with: when they name one of its commands, an app of that
    command alone (typer builds every command it holds, options and all, before it parses a
    word), else the whole app (help, completion, a misspelt command)."""
    import copy
    import os

    name = next((a for a in args if not a.startswith("-")), None)
    if name is None or any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ):
        return app
    if any(group.name == name for group in app.registered_groups):
        return app
    named = [cmd for cmd in app.registered_commands
             if (cmd.name or cmd.callback.__name__.replace("_", "-")) == name]
    if not named:
        return app
    one = copy.copy(app)
    one.registered_commands = named[-1:]  # the last one registered, as typer would choose
    return one


def _kernel_failure(e: BaseException) -> str | None:
    """For numba refusing to compile a kernel (a rule or engine of csolve's or a plugin's):
    the innermost line of the kernels' own sources it typed, and numba's first words of why;
    None otherwise."""
    import re

    if not type(e).__module__.startswith("numba"):
        return None
    import numba

    from csolve.kernels.compose import cache_dir

    text = re.sub(r"\x1b\[[0-9;]*m", "", str(e))
    skip = (os.path.dirname(numba.__file__), str(cache_dir()))
    places = [(f, n) for f, n in re.findall(r"of [^\n]*? at (\S+\.py) \((\d+)\)", text)
              if not f.startswith(skip) and "csolve_kernels_" not in f]
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    why = next((ln for ln in lines if not ln.startswith("Failed in")), type(e).__name__)
    call = next((ln[3:].strip() for ln in lines if ln.startswith(">>>")), "")
    if places:
        file, line = places[0]
        where = f"{file}:{line}: a kernel"
    else:  # numba names no line (an undefined name): the kernel it could not type
        kernel = _failed_kernel(re.findall(r"CPUDispatcher\(<function (\w+) at", text))
        if kernel is None:
            return None
        where = f"kernel {kernel}"
    return f"{where} does not compile: {why[:160]}{' ' + call if call else ''}"


def _failed_kernel(functions: list[str]) -> str | None:
    """The registered rule or engine (``module:function``) among the functions numba was
    typing, innermost first; None when none of them is one."""
    from csolve.kernels.compose import kernel_owners

    paths = list(kernel_owners())
    for name in functions:  # numba reports the innermost call first
        found = [p for p in paths if p.endswith(":" + name)]
        if found:
            return found[0]
    return None


def _one_line(e, mod) -> str:
    """A usage error as one line: click's message, and where to find the command's help."""
    message = " ".join(e.format_message().split()).replace("Value error, ", "")
    checked = _validation_input(e)  # typer checks a number's range with pydantic
    if isinstance(checked, str) and checked.strip().lower().lstrip("+-") == "nan":
        message = f"{message.partition(': ')[0]}: {checked!r} is not a number"
    ctx = getattr(e, "ctx", None)
    if isinstance(e, mod.NoSuchOption) and e.option_name.strip() == "-":
        # a puzzle given as text that starts with '-' (a Kakuro or Str8ts line) reads as
        # options unless '--' ends them; the example is the command that was run
        command = ctx.command_path if ctx is not None else "csolve solve"
        message += (f" (puzzle text that starts with '-' goes after '--': {command} kakuro "
                    "-- '- - 17, ...')")
    if isinstance(e, mod.UsageError) and ctx is not None:
        message += f" (see '{ctx.command_path} --help')"
    return message


def _validation_input(e) -> object:
    """The value a usage error refused, where the check that refused it says (pydantic's
    errors, which typer's range checks raise from); None when it does not."""
    errors = getattr(e.__cause__, "errors", None)
    try:
        return errors()[0].get("input") if callable(errors) else None
    except (IndexError, TypeError, AttributeError, ValueError):
        return None


def run() -> None:
    """The ``csolve`` program: :func:`main` (with a collector that runs less often,
    :func:`fewer_collections`), then a quick exit.

    Once a command is done, tearing the interpreter down (freeing the thousand-odd modules
    numpy, numba and llvmlite bring, one by one) takes longer than many commands. So, with the
    output flushed and the ``atexit`` handlers run (multiprocessing's among them), the process
    ends with ``os._exit``. It exits the ordinary way after a plugin's command (which may leave
    a buffered file for the teardown to flush), while a non-daemon thread still runs, or when
    the output cannot be flushed (a closed pipe).
    """
    fewer_collections()
    program_defaults()
    try:
        main()
        code = 0
    except SystemExit as e:
        if e.code is not None and not isinstance(e.code, int):
            raise
        code = e.code or 0
    except KeyboardInterrupt:  # before main's own handling began (its first imports)
        _say_interrupted()
        code = 130
    if not _own_command(sys.argv[1:]):
        sys.exit(code)
    _quick_exit(code)


#: container objects allocated between two collections of the youngest generation (Python's
#: default is 700)
YOUNG_COLLECTION_THRESHOLD = 10_000


def fewer_collections() -> None:
    """Let the garbage collector run less often in the program.

    Start-up allocates tens of thousands of long-lived objects (numba's and numpy's modules)
    and no garbage; at Python's default threshold the collector walks them again and again,
    which costs a short run several percent of its CPU time. A young generation of
    :data:`YOUNG_COLLECTION_THRESHOLD` objects holds at most a few megabytes before it is
    collected, and cycles are still collected as before. The Python API leaves the
    collector alone.
    """
    import gc

    gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *gc.get_threshold()[1:])


def program_defaults() -> None:
    """Settings of the ``csolve`` program that a user's environment overrides.

    csolve calls no BLAS routine (its arrays only hold candidates), yet numpy's OpenBLAS
    starts a thread per core when numpy is imported, which costs a short run tens of
    milliseconds of CPU: the program asks for one (``OPENBLAS_NUM_THREADS``), unless the user
    chose. Set before numpy is imported; the Python API leaves the environment alone.
    """
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _own_command(args: list[str]) -> bool:
    """True when ``args`` ran the app alone or one of csolve's own commands."""
    name = next((a for a in args if not a.startswith("-")), None)
    if name is None:  # the root's own options: --help, --version
        return True
    for cmd in app.registered_commands:
        if (cmd.name or cmd.callback.__name__.replace("_", "-")) == name:
            return cmd.callback.__module__.startswith("csolve.")
    return False


def _quick_exit(code: int) -> None:
    import atexit
    import os
    import signal
    import threading

    # the command is done: a Ctrl-C now is noted, not raised (a process pool's shutdown
    # cut short by it printed a traceback, and could wait forever on its workers)
    signal.signal(signal.SIGINT, _interrupted_in_teardown)
    pools = sys.modules.get("csolve.backends.processes")
    if pools is not None:  # its manager thread would keep the process from a quick exit
        pools.shutdown_all()
    main_thread = threading.main_thread()
    if any(t.is_alive() and not t.daemon and t is not main_thread
           for t in threading.enumerate()):
        sys.exit(_after_late_interrupts(code))
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader went away before the last of the output
        _reader_gone()
    except Exception:
        sys.exit(_after_late_interrupts(code))
    os._exit(_after_late_interrupts(code))


def _after_late_interrupts(code: int) -> int:
    """The exit code, 130 (said on stderr) when Ctrl-C came while the program wound down."""
    if _late_interrupts and code != 130:
        _say_interrupted()
        return 130
    return code
