"""Per-worker scratch memory for the kernels, allocated once per search, never per node."""

from collections import namedtuple

import numpy as np

#: Field order is part of the kernel ABI; add fields at the end.
Workspace = namedtuple(
    "Workspace",
    [
        "cur",  # uint64[n_cells]: the state being worked on
        "queue",  # uint32[n_cells]: new singles waiting for elimination (unsigned: see _csr)
        "inq",  # uint8[n_cells]: 1 while a cell is queued
        "qlen",  # int64[1]: queue length
        "counters",  # int64[8]: [0] rule sweeps, [UNSETTLED] a rule that never settled
        "scratch_u64",  # free for rules
        "scratch_i64",  # free for rules
    ],
)


#: ``counters`` slot: 1 + the index of the rule that kept saying CHANGED without reaching a
#: fixpoint (0: none did); see :func:`csolve.kernels.compose.render_source`
UNSETTLED = 7


def new_workspace(n_cells: int, scratch: int = 256, scratch_u64: int | None = None) -> Workspace:
    """Scratch arrays of at least ``n_cells`` words each; an engine that keeps memory between
    calls asks for more (see :func:`csolve.engines.workspace_for`)."""
    size = max(scratch, n_cells)
    size_u64 = max(size if scratch_u64 is None else scratch_u64, n_cells)
    return Workspace(
        cur=np.zeros(n_cells, dtype=np.uint64),
        queue=np.zeros(n_cells, dtype=np.uint32),
        inq=np.zeros(n_cells, dtype=np.uint8),
        qlen=np.zeros(1, dtype=np.int64),
        counters=np.zeros(8, dtype=np.int64),
        scratch_u64=np.zeros(size_u64, dtype=np.uint64),
        scratch_i64=np.zeros(size, dtype=np.int64),
    )
