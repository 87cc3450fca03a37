"""Models: a puzzle's cells, candidate domains and groups, as flat numpy arrays.

A plugin describes a puzzle with :class:`ModelBuilder` (cells, their initial candidates,
all-different groups and any tagged groups its own rules understand) and the names of the
rules to propagate with. The builder precomputes everything the kernels need once: peers of
each cell, groups of each cell, overlapping group pairs - all in CSR form.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

MAX_VALUES = 64

# Group flags
ALLDIFF = 1

#: The arrays a kernel sees. Field order is part of the kernel ABI; add fields at the end.
KernelModel = namedtuple(
    "KernelModel",
    [
        "n_values",  # int: values are 1..n_values
        # every CSR pair below is uint32 (see _csr)
        "peer_ptr", "peers",  # CSR: cells sharing an all-different group with each cell
        "group_ptr", "group_cells",  # CSR: cells of each group
        "group_required",  # uint64 per group: values the group must contain
        "group_flags",  # int64 per group: ALLDIFF, ...
        "group_tag", "group_param",  # int64 per group: for plugin rules (e.g. a sum)
        "cell_group_ptr", "cell_groups",  # CSR: groups of each cell
        "ov_groups",  # int32 [n_overlaps, 2]: all-different group pairs sharing >= 2 cells
        "ov_inter_ptr", "ov_inter",  # CSR: cells in A∩B
        "ov_a_ptr", "ov_a",  # CSR: cells in A \ B
        "ov_b_ptr", "ov_b",  # CSR: cells in B \ A
        "aux_i64", "aux_u64",  # free arrays for plugin rules
        "group_family",  # int64 per group: 0, or the family (a set of disjoint parallel groups)
        "group_rank",  # int64 per group: its index within its family (-1 without one)
        "family_ptr", "family_groups",  # CSR: groups of each family 1..; family 0 is empty
    ],
)


def mask_of(values: Iterable[int]) -> int:
    """The candidate mask holding ``values`` (1-based)."""
    m = 0
    for v in values:
        m |= 1 << (v - 1)
    return m


def values_of(mask: int) -> list[int]:
    """The values (1-based) in ``mask``, ascending."""
    out = []
    v = 1
    mask = int(mask)
    while mask:
        if mask & 1:
            out.append(v)
        mask >>= 1
        v += 1
    return out


def full_mask(n_values: int) -> int:
    return (1 << n_values) - 1


def _csr(lists: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Offsets and items as ``uint32``: numba guards every signed index against negative
    wrap-around (a shift, a mask and an add per load); unsigned indexes skip that, which makes
    the hot loops over peers and groups 1.4x faster."""
    ptr = np.zeros(len(lists) + 1, dtype=np.uint32)
    for i, xs in enumerate(lists):
        ptr[i + 1] = ptr[i] + len(xs)
    flat = np.fromiter((x for xs in lists for x in xs), dtype=np.uint32, count=int(ptr[-1]))
    return ptr, flat


@dataclass(frozen=True)
class Model:
    """A built model: kernel arrays, initial candidates, the rules to propagate with and the
    engine that searches it ("" for the generic search over the rules)."""

    kernel: KernelModel
    init: np.ndarray  # uint64 per cell
    rules: tuple[str, ...]
    key: str = ""  # models with the same key share structure and differ only in ``init``
    meta: dict = field(default_factory=dict, compare=False)
    engine: str = ""
    #: rules among ``rules`` that carry the puzzle's own constraints (beyond all-different):
    #: an engine that does not run the model's rules cannot search it
    constraint_rules: tuple[str, ...] = ()

    @property
    def n_cells(self) -> int:
        return int(self.init.shape[0])

    @property
    def n_values(self) -> int:
        return int(self.kernel.n_values)

    def with_init(self, init: np.ndarray) -> Model:
        """The same structure with other initial candidates (another puzzle of the same shape)."""
        return replace(self, init=np.ascontiguousarray(init, dtype=np.uint64))

    def with_engine(self, engine: str) -> Model:
        """The same model searched by another engine ("" for the generic search); see
        :func:`csolve.engines.with_engine` for the checked form."""
        return replace(self, engine=engine)


class ModelBuilder:
    """Describe a puzzle as cells, domains and groups; :meth:`build` makes the arrays."""

    def __init__(self, n_cells: int, n_values: int) -> None:
        if not 1 <= n_values <= MAX_VALUES:
            raise ValueError(f"n_values must be 1..{MAX_VALUES}, got {n_values}")
        self.n_cells = n_cells
        self.n_values = n_values
        self.domains = np.full(n_cells, full_mask(n_values), dtype=np.uint64)
        self._groups: list[tuple[list[int], int, int, int, int]] = []
        self._family: list[int] = []
        self.aux_i64 = np.zeros(1, dtype=np.int64)
        self.aux_u64 = np.zeros(1, dtype=np.uint64)

    def restrict(self, cell: int, values: Iterable[int]) -> None:
        """Limit ``cell`` to ``values`` (a given is a single value)."""
        self._check_cell(cell)
        values = list(values)
        bad = [v for v in values if not 1 <= v <= self.n_values]
        if bad:
            raise ValueError(f"values are 1..{self.n_values}, got {bad[0]} for cell {cell}")
        self.domains[cell] &= np.uint64(mask_of(values))

    def set_mask(self, cell: int, mask: int) -> None:
        self._check_cell(cell)
        if not 0 <= mask <= full_mask(self.n_values):
            raise ValueError(f"a mask of {self.n_values} values is 0..{full_mask(self.n_values)}"
                             f", got {mask} for cell {cell}")
        self.domains[cell] = np.uint64(mask)

    def _check_cell(self, cell: int) -> None:
        """A cell index out of range is the plugin's mistake, said where it is made rather
        than as an IndexError deep in :meth:`build`."""
        if not 0 <= cell < self.n_cells:
            raise ValueError(f"cell {cell} is out of range 0..{self.n_cells - 1}")

    def add_group(self, cells: Sequence[int], *, alldiff: bool = True,
                  required: Iterable[int] | None = None, tag: int = 0, param: int = 0,
                  family: int = 0) -> int:
        """Add a group of cells; returns its index.

        ``alldiff``: its cells hold distinct values (they become each other's peers).
        ``required``: values that must appear in it (enables hidden singles and locked
        candidates); default none. ``tag``/``param``: free for the rules a plugin brings.
        ``family`` (1..63, 0 = none): groups of one family are parallel - pairwise disjoint,
        like a Sudoku's rows - which is what fish rules (X-wing, swordfish) need to know.
        """
        cells = list(cells)
        for c in cells:
            self._check_cell(c)
        if len(set(cells)) != len(cells):
            raise ValueError(f"a group lists a cell twice: {cells}")
        required = None if required is None else list(required)
        if required and not all(1 <= v <= self.n_values for v in required):
            raise ValueError(f"required values are 1..{self.n_values}, got {required}")
        req = mask_of(required) if required is not None else 0
        if not 0 <= family < 64:
            raise ValueError(f"family must be 0..63, got {family}")
        self._groups.append((cells, ALLDIFF if alldiff else 0, req, tag, param))
        self._family.append(family)
        return len(self._groups) - 1

    def build(self, rules: Sequence[str], key: str = "", meta: dict | None = None,
              engine: str = "") -> Model:
        n = self.n_cells
        groups = self._groups
        cell_groups: list[list[int]] = [[] for _ in range(n)]
        for g, (cells, *_rest) in enumerate(groups):
            for c in cells:
                cell_groups[c].append(g)
        peers: list[set[int]] = [set() for _ in range(n)]
        for cells, flags, *_rest in groups:
            if flags & ALLDIFF:
                for c in cells:
                    peers[c].update(cells)
        peer_lists = [sorted(p - {c}) for c, p in enumerate(peers)]
        ov = self._overlaps(cell_groups)
        peer_ptr, peer_flat = _csr(peer_lists)
        group_ptr, group_flat = _csr([g[0] for g in groups])
        cg_ptr, cg_flat = _csr(cell_groups)
        ov_pairs = np.array([(a, b) for a, b, *_ in ov], dtype=np.int32).reshape(-1, 2)
        inter_ptr, inter = _csr([x[2] for x in ov])
        a_ptr, a_rest = _csr([x[3] for x in ov])
        b_ptr, b_rest = _csr([x[4] for x in ov])
        km = KernelModel(
            n_values=self.n_values,
            peer_ptr=peer_ptr, peers=peer_flat,
            group_ptr=group_ptr, group_cells=group_flat,
            group_required=np.array([g[2] for g in groups], dtype=np.uint64),
            group_flags=np.array([g[1] for g in groups], dtype=np.int64),
            group_tag=np.array([g[3] for g in groups], dtype=np.int64),
            group_param=np.array([g[4] for g in groups], dtype=np.int64),
            cell_group_ptr=cg_ptr, cell_groups=cg_flat,
            ov_groups=ov_pairs, ov_inter_ptr=inter_ptr, ov_inter=inter,
            ov_a_ptr=a_ptr, ov_a=a_rest, ov_b_ptr=b_ptr, ov_b=b_rest,
            aux_i64=self.aux_i64, aux_u64=self.aux_u64,
            **self._families(),
        )
        return Model(km, self.domains.copy(), tuple(rules), key, meta or {}, engine)

    def _families(self) -> dict[str, np.ndarray]:
        """Family arrays; checks that the groups of each family are pairwise disjoint."""
        fam = self._family
        n_fam = max(fam, default=0) + 1
        members: list[list[int]] = [[] for _ in range(n_fam)]
        rank = np.full(len(fam), -1, dtype=np.int64)
        for g, f in enumerate(fam):
            if f:
                rank[g] = len(members[f])
                members[f].append(g)
        for f, gs in enumerate(members):
            seen: set[int] = set()
            for g in gs:
                cells = set(self._groups[g][0])
                if seen & cells:
                    raise ValueError(f"groups of family {f} overlap (group {g})")
                seen |= cells
        ptr, flat = _csr(members)
        return {"group_family": np.array(fam, dtype=np.int64).reshape(-1), "group_rank": rank,
                "family_ptr": ptr, "family_groups": flat}

    def _overlaps(self, cell_groups: list[list[int]]) -> list[tuple]:
        """All-different group pairs that share >= 2 cells and where one requires values."""
        groups = self._groups
        shared: dict[tuple[int, int], int] = {}
        for gs in cell_groups:
            for i in range(len(gs)):
                for j in range(i + 1, len(gs)):
                    a, b = gs[i], gs[j]
                    key = (a, b) if a < b else (b, a)
                    shared[key] = shared.get(key, 0) + 1
        out = []
        for (a, b), count in sorted(shared.items()):
            ga, gb = groups[a], groups[b]
            if count < 2 or not (ga[1] & gb[1] & ALLDIFF) or not (ga[2] or gb[2]):
                continue
            sa, sb = set(ga[0]), set(gb[0])
            if sa <= sb or sb <= sa:
                continue
            out.append((a, b, sorted(sa & sb), sorted(sa - sb), sorted(sb - sa)))
        return out
