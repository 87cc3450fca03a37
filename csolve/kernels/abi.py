"""Numbers shared by the kernels and the Python layer: control slots, stats slots, return codes."""

# ctrl: int64 array shared between a running kernel and whoever watches it.
CTRL_STOP = 0  # non-zero: return as soon as possible
CTRL_WANT_WORK = 1  # non-zero: a worker is idle; return so our nodes can be shared
CTRL_SKIP = 2  # batch: equal to puzzle index + 1 -> give that puzzle up (time-out)
CTRL_CURRENT = 3  # batch: index of the puzzle being solved
CTRL_DONE = 4  # batch: puzzles finished so far (progress)
CTRL_NODE_BUDGET = 5  # batch: > 0 -> give a puzzle up after this many nodes (GAVE_UP)
CTRL_GAVE_UP = 6  # batch: puzzles given up for their node budget so far
CTRL_SIZE = 8

# stats: int64 array of counters a kernel adds to.
STAT_NODES = 0  # states propagated
STAT_GUESSES = 1  # branches taken
STAT_BACKTRACKS = 2  # states that ended in a contradiction
STAT_PASSES = 3  # rule sweeps
STAT_SOLUTIONS = 4
STAT_CYCLES = 5  # CPU cycles (batch, per puzzle)
STAT_SIZE = 8
STAT_NAMES = ("nodes", "guesses", "backtracks", "passes", "solutions", "cycles")

# search() return codes: why the kernel returned.
EXHAUSTED = 0  # no node left: every solution under the stack was seen
LIMIT = 1  # the solution limit was reached
BUDGET = 2  # max_nodes spent; call again to go on
STOPPED = 3  # ctrl[CTRL_STOP] was set
WORK_REQUESTED = 4  # ctrl[CTRL_WANT_WORK] was set and there is work to share
STACK_FULL = 5  # grow the stack and call again
SOLUTIONS_FULL = 6  # streaming: the solution buffer is full; drain it and call again
SKIPPED = 7  # batch: the puzzle was given up (time-out)
GAVE_UP = 8  # batch: the puzzle was given up after ``ctrl[CTRL_NODE_BUDGET]`` nodes
