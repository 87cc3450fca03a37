"""Link a kernel's ELF object code into this process, without LLVM.

A snapshot (:mod:`csolve.kernels.native`) holds the object code numba's JIT made for a
kernel. Linking it takes what a dynamic loader does for a relocatable object: its sections
laid out in memory, its symbols given addresses, its relocations patched, its code made
executable. LLVM's JIT linker does that too, but loading LLVM costs a warm command more than
the rest of linking; on x86-64 numba compiles with the large code model, so an object's
relocations are all 64-bit addresses and offsets, a few lines each.

This linker takes only what it can vouch for: a 64-bit little-endian x86-64 relocatable
object whose loaded sections are code, constants, data and zeroed data, and whose
relocations are of those two kinds. For anything else (another machine, thread-local data,
constructors, indirect functions, a 32-bit relocation, a symbol nothing provides)
:func:`link` returns None and the caller links with LLVM instead; an object that is not
well formed raises. Unwind tables are not loaded: nothing unwinds through numba's code (a
debugger or profiler cannot walk the stack through it either).

Linked code is never unmapped: a worker thread may still be inside a kernel while the
interpreter shuts down. It lives in private memory, so a forked child's writes to a
kernel's data stay its own.
"""

from __future__ import annotations

import ctypes
import mmap
import struct
from collections.abc import Callable, Iterable
from typing import NamedTuple

_EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
_SYM = struct.Struct("<IBBHQQ")
_RELA = struct.Struct("<QQq")

_ET_REL, _EM_X86_64 = 1, 62
_SHT_PROGBITS, _SHT_SYMTAB, _SHT_RELA, _SHT_NOBITS, _SHT_REL = 1, 2, 4, 8, 9
_SHT_X86_64_UNWIND = 0x70000001
_SHF_WRITE, _SHF_ALLOC, _SHF_EXECINSTR, _SHF_TLS = 0x1, 0x2, 0x4, 0x400
_SHN_UNDEF, _SHN_ABS, _SHN_COMMON = 0, 0xFFF1, 0xFFF2
_SHN_LORESERVE = 0xFF00
_STB_LOCAL, _STT_GNU_IFUNC = 0, 10
_R_X86_64_64, _R_X86_64_PC64 = 1, 24

_PAGE = mmap.PAGESIZE


class Section(NamedTuple):
    """An ELF64 section header."""

    name: int
    type: int
    flags: int
    addr: int
    offset: int
    size: int
    link: int
    info: int
    addralign: int
    entsize: int


_SHDR = struct.Struct("<IIQQQQIIQQ")


class Unsupported(Exception):
    """The object holds something this linker does not handle (LLVM's linker will)."""


def is_elf(obj: bytes) -> bool:
    """Whether ``obj`` is a 64-bit little-endian ELF object (what the readers here take)."""
    return obj[:4] == b"\x7fELF" and obj[4:6] == b"\x02\x01"


def symbols(obj: bytes) -> Iterable[tuple[bytes, int, int]]:
    """(name, binding, section index) of each named symbol of a 64-bit little-endian ELF
    object."""
    if not is_elf(obj):
        raise ValueError("not a 64-bit little-endian ELF object")
    sections = _sections(obj)
    for sh in sections:
        if sh.type != _SHT_SYMTAB:
            continue
        names = sections[sh.link].offset
        for st_name, st_info, _other, shndx, _value, _size in _SYM.iter_unpack(
                obj[sh.offset + sh.entsize:sh.offset + sh.size]):
            if st_name:
                yield _name(obj, names, st_name), st_info >> 4, shndx


def link(obj: bytes, resolve: Callable[[bytes], int | None],
         wanted: Iterable[bytes]) -> dict[bytes, int] | None:
    """Load the x86-64 object ``obj`` into executable memory, its undefined symbols taken
    from ``resolve``; return the addresses of the ``wanted`` global symbols it defines, or
    None when the object is not one this linker handles (nothing is left half linked: the
    code runs only once every relocation is in place)."""
    try:
        return _link(obj, resolve, set(wanted))
    except Unsupported:
        return None


class _Layout(NamedTuple):
    """Where an object's pieces go in the memory it is linked into."""

    sections: list[Section]
    symbols: list[tuple]  # (st_name, st_info, st_other, st_shndx, st_value, st_size)
    names: int  # offset of the symbol names' string table
    place: dict[int, int]  # loaded section index -> its offset
    common: dict[int, int]  # common symbol index -> its offset
    read_only: int  # bytes of code and constants, from the start (whole pages)
    size: int  # bytes in all (whole pages)


def _link(obj: bytes, resolve: Callable[[bytes], int | None],
          wanted: set[bytes]) -> dict[bytes, int]:
    layout = _lay_out(obj)
    base = _allocate(layout.size)
    try:
        return _load(obj, layout, base, resolve, wanted)
    except BaseException:
        _c_library().munmap(base, layout.size)  # nothing in it has run
        raise


def _lay_out(obj: bytes) -> _Layout:
    """Read-only sections (code, constants) first, then, from a fresh page, the writable
    ones and the common symbols."""
    if not is_elf(obj):
        raise Unsupported("not a 64-bit little-endian ELF object")
    _ident, e_type, e_machine, *_ = _EHDR.unpack_from(obj, 0)
    if e_type != _ET_REL or e_machine != _EM_X86_64:
        raise Unsupported("not an x86-64 relocatable object")
    sections = _sections(obj)
    place: dict[int, int] = {}
    size = read_only = 0
    for writable in (False, True):
        if writable:
            size = read_only = _round_up(size, _PAGE)
        for i, sh in enumerate(sections):
            if not sh.flags & _SHF_ALLOC or sh.type == _SHT_X86_64_UNWIND:
                continue
            if sh.flags & _SHF_TLS or sh.type not in (_SHT_PROGBITS, _SHT_NOBITS):
                raise Unsupported(f"a section of type {sh.type:#x}")
            if sh.flags & _SHF_WRITE and sh.flags & _SHF_EXECINSTR:
                raise Unsupported("a section both writable and executable")
            if sh.addralign > _PAGE:
                raise Unsupported("a section aligned beyond a page")
            if bool(sh.flags & _SHF_WRITE) == writable:
                size = _round_up(size, max(sh.addralign, 1))
                place[i] = size
                size += sh.size
    symtab = next((sh for sh in sections if sh.type == _SHT_SYMTAB), None)
    if symtab is None:
        raise Unsupported("no symbol table")
    syms = list(_SYM.iter_unpack(obj[symtab.offset:symtab.offset + symtab.size]))
    common: dict[int, int] = {}
    for k, (_n, info, _o, shndx, value, sym_size) in enumerate(syms):
        if shndx == _SHN_COMMON:  # value is the alignment
            if value > _PAGE:
                raise Unsupported("a common symbol aligned beyond a page")
            size = _round_up(size, max(value, 1))
            common[k] = size
            size += sym_size
        elif info & 0xF == _STT_GNU_IFUNC and shndx != _SHN_UNDEF:
            raise Unsupported("an indirect function")
    return _Layout(sections, syms, sections[symtab.link].offset, place, common, read_only,
                   max(_round_up(size, _PAGE), _PAGE))


def _load(obj: bytes, layout: _Layout, base: int, resolve: Callable[[bytes], int | None],
          wanted: set[bytes]) -> dict[bytes, int]:
    """Copy the sections to ``base``, patch the relocations, protect the code; return the
    wanted symbols' addresses."""
    sections, syms, names, place, common = (layout.sections, layout.symbols, layout.names,
                                            layout.place, layout.common)
    memory = (ctypes.c_char * layout.size).from_address(base)
    for i, offset in place.items():
        sh = sections[i]
        if sh.type == _SHT_PROGBITS:
            memory[offset:offset + sh.size] = obj[sh.offset:sh.offset + sh.size]

    def address(k: int) -> int:
        if k == 0:
            raise Unsupported("a relocation against no symbol")
        st_name, _info, _o, shndx, value, _s = syms[k]
        if shndx == _SHN_UNDEF:
            found = resolve(_name(obj, names, st_name))
            if not found:
                raise Unsupported("a symbol nothing provides")
            return found
        if shndx == _SHN_ABS:
            return value
        if shndx == _SHN_COMMON:
            return base + common[k]
        if shndx >= _SHN_LORESERVE or shndx not in place:
            raise Unsupported("a symbol in a section not loaded")
        return base + place[shndx] + value

    for sh in sections:
        if sh.type == _SHT_REL:
            raise Unsupported("relocations without addends")
        if sh.type != _SHT_RELA or sh.info not in place:
            continue  # the unwind tables' relocations: not loaded
        start = place[sh.info]
        end = start + sections[sh.info].size
        for r_offset, r_info, addend in _RELA.iter_unpack(obj[sh.offset:sh.offset + sh.size]):
            at = start + r_offset
            if at + 8 > end:
                raise Unsupported("a relocation outside its section")
            kind = r_info & 0xFFFFFFFF
            target = address(r_info >> 32) + addend
            if kind == _R_X86_64_64:
                struct.pack_into("<Q", memory, at, target & 0xFFFFFFFFFFFFFFFF)
            elif kind == _R_X86_64_PC64:
                struct.pack_into("<Q", memory, at, (target - base - at) & 0xFFFFFFFFFFFFFFFF)
            else:
                raise Unsupported(f"a relocation of type {kind}")

    found: dict[bytes, int] = {}
    for k, (st_name, info, _o, shndx, _v, _s) in enumerate(syms):
        if st_name and info >> 4 != _STB_LOCAL and shndx != _SHN_UNDEF:
            name = _name(obj, names, st_name)
            if name in wanted:
                found[name] = address(k)
    if layout.read_only and not _protect(base, layout.read_only):
        raise Unsupported("memory cannot be made executable here")
    return found


def _sections(obj: bytes) -> list[Section]:
    e_shoff = _EHDR.unpack_from(obj, 0)[6]
    e_shentsize, e_shnum = struct.unpack_from("<HH", obj, 0x3A)
    if e_shnum and e_shentsize != _SHDR.size:
        raise ValueError("unexpected section header size")
    return [Section(*_SHDR.unpack_from(obj, e_shoff + i * e_shentsize)) for i in range(e_shnum)]


def _name(obj: bytes, table: int, offset: int) -> bytes:
    start = table + offset
    return obj[start:obj.index(b"\0", start)]


def _round_up(n: int, to: int) -> int:
    return (n + to - 1) // to * to


_libc: ctypes.CDLL | None = None


def _c_library() -> ctypes.CDLL:
    global _libc
    if _libc is None:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                              ctypes.c_int, ctypes.c_long)
        libc.mmap.restype = ctypes.c_void_p
        libc.mprotect.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
        libc.mprotect.restype = ctypes.c_int
        libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
        libc.munmap.restype = ctypes.c_int
        _libc = libc
    return _libc


def _allocate(size: int) -> int:
    """``size`` bytes of private, zeroed, writable memory (never given back once linked)."""
    address = _c_library().mmap(None, size, mmap.PROT_READ | mmap.PROT_WRITE,
                                mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
    if address in (None, ctypes.c_void_p(-1).value):
        raise Unsupported("no memory could be mapped")
    return address


def _protect(address: int, length: int) -> bool:
    """Make ``length`` bytes from page ``address`` readable and executable, not writable."""
    return _c_library().mprotect(address, length, mmap.PROT_READ | mmap.PROT_EXEC) == 0
