"""The search of ``minelib.search`` compiled with numba: the same algorithm, typed.

``PythonEngine`` is the reference; ``CompiledEngine`` is its inner loop rewritten
over int64 arrays so that numba can compile it: a state is a sorted int64 array of
layouts (bitmasks, so at most 63 cells) and its key that array with the living
cells in front, and the memo is an open-addressing hash
table whose keys (canonical states, and raw states as aliases of them) are stored
whole in one pool and compared element by element, so a hash collision can never
give a wrong answer. It holds ``max_states`` states with an alias each,
``2 * max_states`` keys in all; when full it starts afresh as the Python memo does,
but keeping the exact values of its largest states (``_compact``: 5x5/5 with room
for 100,000 states solves 467,429 states instead of 1,542,326 when all is cleared).

Two bounds go beyond the Python engine, both from a greedy cover of a state's
layouts by cliques of agreeing layouts (``_cover``). A state of at most
``CLIQUE_ROWS`` layouts not in the memo is bounded by its cliques as well as by
the fewest mines, when the looser bound would let its move be searched (4x5/7:
500,647 states without, 235,618 with; 5x5/5: 350,370 and 89,331, 1.5 times
faster). And each state searched of at most ``MOVE_ROWS`` layouts bounds each of
its moves by the cliques holding a layout where the move's cell is safe, orders
its moves by that bound and never opens one that cannot beat the best so far
(5x5/5: 89,250 states in 19 s -> 30,691 in 8 s with states of at most 4,096
layouts; 24,861 with the default 65,536). The cliques are sets of bits, one row
per living cell and number, so a layout finds the first clique it agrees with by
ANDing a few words per cell, not by a pass over every clique.

That cover costs a word per 64 cliques per living cell per layout, and a big state
finds nearly as many cliques as layouts (a child of an expert position: 54,466
cliques for 56,449 layouts), so in the searches of big positions the cover was
most of the time. A parent's clique stays a clique in each of its
children, though (``_inherit``), and nearly as tight: so a state of more than
``INHERIT_ABOVE`` (1,024) layouts whose parent was covered takes its parent's
cliques, at one look a layout, and the labels of the cliques follow the layouts
through the moves' splits (``_outcomes``, ``_reduce``). ``best_clicks`` covers its
state up to ``ROOT_ROWS`` layouts (262,144), so that its children can take theirs.
On 13 expert positions of 24,288 to 138,852 layouts (the player's question, the
best cells) 35.1 s -> 25.0 s in all, the biggest 9.12 s -> 3.88 s, two of the 13
slower (up to 1.22 times: the children's looser cliques prune less), the same answers.
Still, the cover of ``best_clicks``' state was a quarter of the time of such searches (cycles counted by part, 18
expert positions of 40,000 to 195,000 layouts, 2026-12-04), and the covers within them an eighth. A cover of more
than ``COVER_PREFIXED`` layouts (``_cover_prefixed``) now takes each layout's AND on from the rows it shares with
the layout before, over the words that AND still holds: the same cliques, 7.4 times faster on 35 expert positions
(their searches 1.3 times faster; the work it counts, and so every budget's verdict, is unchanged).

Those cliques bound a move before any of its outcomes is searched, too (``_distinct``, since 2026-12-02): an
outcome of more than ``CLIQUE_ROWS`` layouts used to be bounded by the fewest mines alone until it was searched,
so the bound left for the outcomes not yet summed was loose, the caps of the ones being summed low, and each was
searched nearly to its exact value. Counting the distinct labels of its layouts, the cliques it would take, costs a
look a layout. On 7 expert positions of 50,001 to 200,000 layouts: 157,751 states solved -> 21,482, 36.4 s -> 13.2 s
(2.75 times faster), the same answers (``benchmarks/endgame_cliques.py --switch siblings``).

Each Python function and its compiled twin:

==================================  ==============================================
``minelib.search.PythonEngine``     here
==================================  ==============================================
``click``                           ``CompiledEngine.click`` -> ``click`` (kernel)
``wins`` (recursive)                the frames of ``click`` (an explicit stack)
``_best`` (moves, safest first)     ``_push_moves``, ``click`` phase 1
``_sum`` (outcomes, bounded)        ``click`` phases 2 and 3
``outcomes`` / ``_close``           ``_outcomes``, ``_split``
``_reduce``                         ``_reduce``
``_bound``                          ``_bound``, ``_fewest_bound``
``_key`` / ``Geometry.canonical``   ``_canonical``, ``_image`` (the same tables)
``memo`` / ``aliases`` dicts        ``_lookup``, ``_insert``, ``_store``, ``_quick``
``_make_room``                      ``_make_room``
==================================  ==============================================

A state searched also gets the upper bound its parent found for it (stored,
fewest mines or cliques): once a move reaches it, its other moves are not tried
(5x5/5: 18% fewer moves tried).

Details that differ from the Python code without changing any value: closing a
state opens one free cell at a time (the same closed states come out: a cell
safe in every layout of a group stays so in every part of it), a free cell that
shows the same number in every layout of its group opens without a pass over
them (each part carries the union and intersection of its layouts), moves are
tried by their bound (their safe layouts, or their cliques when fewer; the Python
engine: safest first), and outcomes of equal bound in the order they were
produced. Bits are counted by LLVM's ctpop (one instruction).
With these and the bounds above, 5x5/5 takes about 3 s (28 s before them).

Everything runs with the GIL released, so the caller can wait in Python and
stop the search (time cap, Ctrl-C) by raising the abort flag in ``meta``.

All the compiled code stays in this one module, though it is longer than our
others: numba's on-disk cache (``cache=True``) checks only the file of the
function it caches, so a change in another module called from here would be
missed by the cached kernel (numba#8396, not merged). ``minelib.compiled`` now
drops the cache when a module this one imports changes, but one file keeps the
search readable as one unit.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
from numba import njit, types
from numba.core.extending import intrinsic

from minelib.layouts import BITMASK_CELLS, Geometry, Layouts

# meta: counters shared by the whole search, and KEEP: whether a full memo keeps its largest exact states
# and CLIQUE_ROWS: the largest state (layouts) whose bound is tightened by agreement cliques, MOVE_ROWS: the
# largest state whose moves are each bounded by its cliques before they are tried, WORK: the layouts passed over by
# the splits of the moves tried, by their dead cells' looks and by the cliques' cover, and SEGMENT_WORK a segment of a
# split (what a search's time follows: ``CompiledEngine.work``), LIMIT: once WORK passes it (0:
# never), the search stops as if aborted (a budget, deterministic where a time cap is not), INHERIT_ABOVE: a
# state of more layouts than this whose parent has cliques takes theirs (-1: never), ROOT_ROWS: the largest
# state of ``best_clicks`` covered by cliques when its children may take them (with MOVE_ROWS: the larger),
# SIBLINGS: 1 if a move's outcomes are each bounded by the cliques they would take from their state as soon as the
# move is split (``_distinct``), 0 if only once each is searched (before 2026-12-02)
(
    ENTRIES,
    POOL_USED,
    SOLVED,
    ABORT,
    CLEARS,
    KEEP,
    CLIQUE_ROWS,
    MOVE_ROWS,
    WORK,
    LIMIT,
    INHERIT_ABOVE,
    ROOT_ROWS,
    SIBLINGS,
    META_FIELDS,
) = range(14)
# entries[e]: where its key lies in the pool, its value, and what it is
START, LENGTH, VALUE, EXACT, TARGET, HASH = range(6)
# frames[d]: a state being searched (its layouts lie in the arena), its moves, the move being summed, and
# where the labels of its cliques lie (LABELS: one a layout, -1: none), those it takes from its parent (INHERITED,
# -1: none), and those of the move being summed: of its safe layouts (BUF_LABELS) and of its groups (RED_LABELS)
(
    LO,
    SIZE,
    CAP,
    LIVING,
    MOVES,
    N_MOVES,
    NEXT,
    BEST,
    SKIPPED,
    THRESHOLD,
    BUF,
    ENDS,
    RED,
    BOUNDS,
    ORDER,
    GROUPS,
    AT,
    LEFT,
    TOTAL,
    CHILD_CAP,
    TOP,
    UB,
    LABELS,
    INHERITED,
    BUF_LABELS,
    RED_LABELS,
    FRAME_FIELDS,
) = range(27)

_JIT: dict = dict(cache=True, nogil=True)
# The memo's pool holds up to this many layouts a key on average (a key is a state, ~100 layouts on 5x5, or
# an alias of one): when the pool fills before the entries do, the memo starts afresh, and a search too
# big for it solves its states again and again (5x5/6 safe: 11.7M states solved with 32, 2.5M with room).
POOL_LAYOUTS = 96
CLIQUE_ROWS_DEFAULT = 256  # states of at most this many layouts get the agreement cliques' bound
MOVE_ROWS_DEFAULT = 65536  # states searched of at most this many layouts bound each move by their cliques
# A state of more layouts than this whose parent was covered takes its parent's cliques (``_inherit``, -1: never),
# and ``best_clicks`` covers a state of at most ROOT_ROWS layouts, so that its children can (read when an engine is
# made: a benchmark sets them to compare)
INHERIT_ABOVE_DEFAULT = 1024
ROOT_ROWS_DEFAULT = 262_144
SIBLINGS_DEFAULT = 1  # (read when an engine is made, as the two above)
# A search from at most this many layouts runs in the caller's thread: starting a thread (0.1 ms, and over a
# millisecond on a busy machine) costs more than most such searches (a player's endgame); a time cap or
# Ctrl-C then waits for it (a fraction of a second at most).
INLINE_LAYOUTS = 4096
SEGMENT_WORK = 16  # what a segment of a move's split counts in the work: about what 16 layouts cost (its free
# cells looked at, a group's bound looked up in the memo; on 37 expert positions 8, 16 and 32 spread the time a unit
# nearly alike, the spread's log a standard deviation of 0.40, 0.38, 0.36)
COVER_PREFIXED = 16_384  # a cover of more layouts starts each AND from the one before (``_cover_prefixed``)
SORT_GROUPS = 32  # a move's groups ordered by insertion up to this many (``_order_by_bound``)


def _ctpop(typingctx, x):
    """The number of set bits of an int64 (LLVM's ctpop: one instruction where the CPU has it)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


_popcount: Any = intrinsic(_ctpop)  # called as _popcount(x) in compiled code (typed Any: mypy sees _ctpop)


@njit(**_JIT)
def _hash(state):
    """FNV-1a over four interleaved lanes (a chain of multiplies each, which the CPU runs side by side, where
    one chain waited on each multiply), mixed at the end with the length. Equal keys hash alike, and a lookup
    compares the keys whole, so the mix only has to spread them."""
    prime = np.uint64(1099511628211)
    a = b = c = d = np.uint64(14695981039346656037)
    n = len(state)
    j = 0
    while j + 4 <= n:
        a = (a ^ np.uint64(state[j])) * prime
        b = (b ^ np.uint64(state[j + 1])) * prime
        c = (c ^ np.uint64(state[j + 2])) * prime
        d = (d ^ np.uint64(state[j + 3])) * prime
        j += 4
    while j < n:
        a = (a ^ np.uint64(state[j])) * prime
        j += 1
    h = (((a * prime ^ b) * prime ^ c) * prime ^ d) * prime ^ np.uint64(n)
    h ^= h >> np.uint64(31)
    return np.int64(h & np.uint64(0x7FFFFFFFFFFFFFFF))


@njit(**_JIT)
def _lookup(state, h, slots, entries, pool):
    """The entry holding ``state`` (hash ``h``), or -1."""
    mask = len(slots) - 1
    i = h & mask
    n = len(state)
    while slots[i]:
        e = slots[i] - 1
        if entries[e, HASH] == h and entries[e, LENGTH] == n:
            start = entries[e, START]
            same = True
            for j in range(n):
                if pool[start + j] != state[j]:
                    same = False
                    break
            if same:
                return e
        i = (i + 1) & mask
    return -1


@njit(**_JIT)
def _make_room(length, slots, entries, pool, meta):
    """Make room for two entries of ``length`` layouts (starting the table afresh if needed, its largest
    exact states kept); False if even an empty table cannot hold them."""
    if 2 * length > len(pool) or len(entries) < 8:
        return False
    if (
        meta[ENTRIES] + 2 > len(entries)
        or 2 * (meta[ENTRIES] + 2) > len(slots)
        or meta[POOL_USED] + 2 * length > len(pool)
    ):
        meta[CLEARS] += 1
        _compact(slots, entries, pool, meta)
        if meta[ENTRIES] + 2 > len(entries) or meta[POOL_USED] + 2 * length > len(pool):  # a huge state
            slots[:] = 0
            meta[ENTRIES] = 0
            meta[POOL_USED] = 0
    return True


@njit(**_JIT)
def _bit_length(x):
    n = 0
    while x:
        x >>= 1
        n += 1
    return n


@njit(**_JIT)
def _compact(slots, entries, pool, meta):
    """Start the memo afresh, keeping (with meta[KEEP]) the exact values of its largest states: those
    with the most layouts, by powers of two, filling at most half the entries and half the pool. The
    aliases and the bounds go; the states a search is likeliest to need again, and costliest to solve
    again, stay."""
    used = meta[ENTRIES]
    cut = 64  # keep the canonical exact entries whose key length has at least this many bits
    if meta[KEEP]:
        counts = np.zeros(65, np.int64)
        sizes = np.zeros(65, np.int64)
        for e in range(used):
            if entries[e, TARGET] < 0 and entries[e, EXACT]:
                b = _bit_length(entries[e, LENGTH])
                counts[b] += 1
                sizes[b] += entries[e, LENGTH]
        kept, size = 0, 0
        for b in range(64, 0, -1):
            if kept + counts[b] > len(entries) // 2 or size + sizes[b] > len(pool) // 2:
                break
            kept += counts[b]
            size += sizes[b]
            cut = b
    slots[:] = 0
    mask = len(slots) - 1
    k = 0
    position = 0
    for e in range(used):
        if entries[e, TARGET] < 0 and entries[e, EXACT] and _bit_length(entries[e, LENGTH]) >= cut:
            start, n = entries[e, START], entries[e, LENGTH]
            for j in range(n):  # moved down the pool (position <= start): in order, nothing overwritten early
                pool[position + j] = pool[start + j]
            for field in range(6):
                entries[k, field] = entries[e, field]
            entries[k, START] = position
            i = entries[k, HASH] & mask
            while slots[i]:
                i = (i + 1) & mask
            slots[i] = k + 1
            k += 1
            position += n
    meta[ENTRIES] = k
    meta[POOL_USED] = position


@njit(**_JIT)
def _insert(state, h, value, exact, target, slots, entries, pool, meta):
    """Add an entry (room must have been made); returns its index."""
    e = meta[ENTRIES]
    meta[ENTRIES] += 1
    start = meta[POOL_USED]
    n = len(state)
    pool[start : start + n] = state
    meta[POOL_USED] += n
    entries[e, START] = start
    entries[e, LENGTH] = n
    entries[e, VALUE] = value
    entries[e, EXACT] = exact
    entries[e, TARGET] = target
    entries[e, HASH] = h
    mask = len(slots) - 1
    i = h & mask
    while slots[i]:
        i = (i + 1) & mask
    slots[i] = e + 1
    return e


@njit(**_JIT)
def _image(tables, t, mask):
    image = 0
    chunk = 0
    while mask:
        image |= tables[t, chunk, mask & 0xFF]
        mask >>= 8
        chunk += 1
    return image


@njit(**_JIT)
def _canonical(key, tables, work):
    """The smallest image of a state's key (living cells, then sorted layouts) under the symmetries:
    ``key`` itself, or a row of ``work`` (two rows, at least as long as the key).

    A first pass ranks the images by their living cells and smallest layout, which decide almost
    always; only the images that tie for first are sorted (none when the key itself wins alone)."""
    n = len(key)
    living, smallest = key[0], key[1]
    ties = np.int64(1) << 63  # the symmetries tying for first, as bits; bit 63 (the sign): the key itself
    for t in range(tables.shape[0]):
        image = _image(tables, t, key[0])
        if image > living:  # most images lose on the living cells alone
            continue
        low = _image(tables, t, key[1])
        for j in range(2, n):
            low = min(low, _image(tables, t, key[j]))
        if image < living or low < smallest:
            living, smallest, ties = image, low, np.int64(1) << t
        elif low == smallest:
            ties |= np.int64(1) << t
    if ties == np.int64(1) << 63:
        return key
    best = key if ties < 0 else work[0, :0]
    row = 0
    for t in range(tables.shape[0]):
        if not ties >> t & 1:
            continue
        image = work[row, :n]
        image[0] = living
        for j in range(1, n):
            image[j] = _image(tables, t, key[j])
        image[1:].sort()
        if len(best) == 0:
            best, row = image, 1 - row
            continue
        for j in range(n):
            if image[j] != best[j]:
                if image[j] < best[j]:
                    best = image
                    row = 1 - row  # keep the best, sort the next image into the other row
                break
    return best


@njit(**_JIT)
def _fewest_bound(key):
    """n minus the fewest layouts in which a living cell holds a mine (``key``: living cells, then layouts)."""
    n = len(key) - 1
    living = key[0]
    if n <= 2 or living == 0:
        return 1
    fewest = n
    while living:
        bit = living & -living
        living ^= bit
        mines = 0
        for j in range(1, n + 1):
            if key[j] & bit:
                mines += 1
                if mines >= fewest:
                    break
        if mines < fewest:
            fewest = mines
            if fewest == 1:
                break
    return n - fewest


@njit(**_JIT)
def _cover(key, neighbours, bound, compat, ands, labels, cells, agree):
    """``bound``, or fewer: the cliques of a greedy cover of the layouts by the relation "agree" (every
    cell safe in both shows the same number in both). Two layouts that agree cannot both be won: only
    dying can tell them apart, and no move or free cell ever parts them. So no two won layouts share a
    clique, and the cliques bound the wins of the state, and those of a move: the cliques holding a
    layout where the move's cell is safe.

    A layout joins the first clique it agrees with. The cliques are sets of bits: compat[c, v] holds
    the cliques a layout showing v on living cell c agrees with there (those whose layouts show v on c,
    or all have a mine there), so the cliques a layout agrees with are the AND of its rows, one per
    living cell where it is safe: a few words, where comparing it with each clique took a pass over
    them all. ands[q]: the cells that are mines in every layout of clique q; labels[j]: the clique of
    layout j; ``cells`` and ``agree``: scratch (64 cells, and the words of one set of cliques)."""
    n = len(key) - 1
    living = key[0]
    count = 0
    left = living
    while left:
        bit = left & -left
        left ^= bit
        cells[count] = _popcount(bit - 1)
        count += 1
    if n > COVER_PREFIXED:
        return _cover_prefixed(key, neighbours, bound, compat, ands, labels, cells, count)
    cliques = 0
    words = 0
    for j in range(n):
        m = key[j + 1]
        found = -1
        if cliques:
            for w in range(words):
                agree[w] = -1
            for t in range(count):
                c = cells[t]
                if not m >> c & 1:
                    v = _popcount(m & neighbours[c])
                    for w in range(words):  # (indexed whole: a row's slice would count references)
                        agree[w] &= compat[c, v, w]
            for w in range(words):
                if agree[w]:
                    low = agree[w] & -agree[w]
                    found = w * 64 + _popcount(low - 1)
                    break
        if found < 0:  # a new clique
            if cliques + 1 >= bound:  # no better than the bound already known
                return bound
            found = cliques
            cliques += 1
            words = _new_clique(m, found, words, count, cells, neighbours, compat, ands)
        else:
            _join(m, found, living, neighbours, compat, ands)
        labels[j] = found
    return cliques


@njit(**_JIT)
def _new_clique(m, found, words, count, cells, neighbours, compat, ands):
    """Clique ``found`` made of layout ``m`` (a cover's): its bit set in every row that agrees with it (a new word
    of cliques cleared first in every row it will be read from); returns the words of cliques now."""
    w, bit = found >> 6, np.int64(1) << (found & 63)
    if w == words:
        for t in range(count):
            for v in range(9):
                compat[cells[t], v, w] = 0
        words += 1
    for t in range(count):
        c = cells[t]
        if m >> c & 1:  # a mine agrees with any number
            for v in range(9):
                compat[c, v, w] |= bit
        else:
            compat[c, _popcount(m & neighbours[c]), w] |= bit
    ands[found] = m
    return words


@njit(**_JIT)
def _join(m, found, living, neighbours, compat, ands):
    """Layout ``m`` joins clique ``found`` (a cover's): where the clique had only mines and ``m`` shows a number,
    the clique agrees with that number alone now."""
    settled = ands[found] & ~m & living
    if settled:
        w, bit = found >> 6, np.int64(1) << (found & 63)
        while settled:
            low = settled & -settled
            settled ^= low
            c = _popcount(low - 1)
            v = _popcount(m & neighbours[c])
            for u in range(9):
                if u != v:
                    compat[c, u, w] &= ~bit
    ands[found] &= m


@njit(**_JIT)
def _cover_prefixed(key, neighbours, bound, compat, ands, labels, cells, count):
    """``_cover`` of many layouts, each AND of rows starting from the AND its layout shares with the one before:
    the same cliques. A layout's rows run over its living cells from the last to the first, so that the layouts
    (sorted) share a long run of first rows with the one before them (6 in 10 of the rows of 12 expert positions),
    and ``prefix[k]`` keeps the AND of a layout's first ``k`` rows for the next. What the layout before changed
    leaves that shared run's AND exact but for one bit: a clique it made agrees with each of its rows; a clique it
    joined loses bits only in rows of other numbers than its own. Each level lists the words it holds that are not
    empty, and the next row passes over those alone: the AND empties word by word as it goes down the rows, so
    that the later rows pass over fewer words than ``_cover``'s pass over them all. On 35 expert positions of 5,000
    to 195,000 layouts: 0.75 s for their covers against 5.55 (the position of 180,576 layouts, 143,432 cliques:
    0.067 s against 1.11)."""
    n = len(key) - 1
    living = key[0]
    # prefix[k, w]: word w of the AND of the first k rows, for the words listed in held[k, :kept[k]] (in order):
    # those not listed are empty (the AND empties fast as it goes down the rows: each row then passes over a few words)
    prefix = np.empty((count + 1, n // 64 + 2), np.int64)
    held = np.empty((count + 1, n // 64 + 2), np.int64)
    kept = np.zeros(count + 1, np.int64)
    row_cells, row_numbers = np.empty(64, np.int64), np.empty(64, np.int64)
    last_cells, last_numbers = np.empty(64, np.int64), np.empty(64, np.int64)
    last_rows, made = 0, -1  # the rows of the layout before, and the clique it made (-1: it joined one)
    cliques = 0
    words = 0
    for j in range(n):
        m = key[j + 1]
        rows = 0
        for t in range(count - 1, -1, -1):
            c = cells[t]
            if not m >> c & 1:
                row_cells[rows], row_numbers[rows] = c, _popcount(m & neighbours[c])
                rows += 1
        shared = 0
        while (
            shared < rows
            and shared < last_rows
            and row_cells[shared] == last_cells[shared]
            and row_numbers[shared] == last_numbers[shared]
        ):
            shared += 1
        if made >= 0:  # (its word is the last: listed last, if at all)
            w, bit = made >> 6, np.int64(1) << (made & 63)
            for k in range(1, shared + 1):
                if kept[k] and held[k, kept[k] - 1] == w:
                    prefix[k, w] |= bit
                else:
                    held[k, kept[k]], prefix[k, w] = w, bit
                    kept[k] += 1
        found = -1
        if cliques:
            for k in range(shared + 1, rows + 1):
                c, v = row_cells[k - 1], row_numbers[k - 1]
                listed = 0
                if k == 1:  # the first row: every word
                    for w in range(words):
                        x = compat[c, v, w]
                        if x:
                            prefix[1, w], held[1, listed] = x, w
                            listed += 1
                else:
                    for i in range(kept[k - 1]):
                        w = held[k - 1, i]
                        x = prefix[k - 1, w] & compat[c, v, w]
                        if x:
                            prefix[k, w], held[k, listed] = x, w
                            listed += 1
                kept[k] = listed
            if rows == 0:  # a mine on every living cell: it agrees with every clique
                found = 0
            elif kept[rows]:
                w = held[rows, 0]
                found = w * 64 + _popcount((prefix[rows, w] & -prefix[rows, w]) - 1)
        if found < 0:  # a new clique
            if cliques + 1 >= bound:  # no better than the bound already known
                return bound
            found = cliques
            cliques += 1
            words = _new_clique(m, found, words, count, cells, neighbours, compat, ands)
            made = found
        else:
            _join(m, found, living, neighbours, compat, ands)
            made = -1
        labels[j] = found
        last_cells[:rows] = row_cells[:rows]
        last_numbers[:rows] = row_numbers[:rows]
        last_rows = rows
    return cliques


@njit(**_JIT)
def _inherit(arena, lo, n, tags, ands, labels, remap):
    """The cliques of the state arena[lo:lo+n] taken from its parent's cover: its layouts' labels there
    (arena[tags:tags+n]) renumbered from 0 in order, ``ands`` and ``labels`` as ``_cover`` leaves them; returns
    how many. A parent's clique stays a clique in each child: a child's layouts are some of its parent's
    (or their cuts to the cells that still matter), and its living cells some of its parent's, so two that
    agreed still agree. In a big state, where the cover's pass costs most (a word per 64 cliques, a
    state of tens of thousands of layouts finding nearly as many), this pass costs one look a layout, and its
    cliques are nearly as few: 4,295,980 against 4,295,076 over the children of an expert position's
    134,435 layouts. ``remap`` (-1 for every parent label) is left as it was found."""
    q = 0
    for j in range(n):
        parent = arena[tags + j]
        m = arena[lo + j]
        r = remap[parent]
        if r < 0:
            r = remap[parent] = q
            ands[q] = m
            q += 1
        else:
            ands[r] &= m
        labels[j] = r
    for j in range(n):
        remap[arena[tags + j]] = -1
    return q


@njit(**_JIT)
def _distinct(arena, lo, n, remap):
    """How many distinct labels arena[lo:lo+n] holds (``remap``: -1 for every label, left as it was found): the
    cliques a group would take from its parent (``_inherit``), a bound of its wins known before it is searched."""
    q = 0
    for j in range(lo, lo + n):
        if remap[arena[j]] < 0:
            remap[arena[j]] = 0
            q += 1
    for j in range(lo, lo + n):
        remap[arena[j]] = -1
    return q


@njit(**_JIT)
def _holding(ands, cliques, cell):
    """How many of the first ``cliques`` cliques of ``_cover`` hold a layout where ``cell`` is safe: a
    bound of the wins of opening it."""
    found = 0
    for q in range(cliques):
        if not ands[q] >> cell & 1:
            found += 1
    return found


@njit(**_JIT)
def _bound(key, slots, entries, pool):
    """An upper bound of ``wins`` without search: the stored value (and True), else the fewest-mines
    bound (and False: a bound ``_cover`` may tighten)."""
    if len(key) <= 3 or key[0] == 0:
        return 1, True
    e = _lookup(key, _hash(key), slots, entries, pool)
    if e >= 0:
        if entries[e, TARGET] >= 0:
            e = entries[e, TARGET]
        return entries[e, VALUE], True
    return _fewest_bound(key), False


@njit(**_JIT)
def _split(source, target, marks, lo, hi, around, small, labels, moved, carry, union, inter, mines):
    """Write source[lo:hi] at target[lo:] ordered by the number each layout shows through ``around``, leaving out
    the layouts where a cell of ``mines`` is a mine (the clicked cell's: its split picks the safe layouts too):
    small[v] layouts show v, small[10 + v] is where they end, small[20 + v] and small[30 + v] their union and
    intersection (``union`` and ``inter``: those of source[lo:hi]). With ``carry``, labels[lo:hi] (one a layout)
    move with their layouts to moved[lo:]. Without ``mines``, returns False, writing nothing, when every layout
    shows the same number (they stay in ``source``, as they were)."""
    for v in range(10):
        small[v] = 0
        small[20 + v] = 0
        small[30 + v] = -1
    for j in range(lo, hi):
        m = source[j]
        if m & mines:
            marks[j] = 10
        else:
            v = _popcount(m & around)
            marks[j] = v
            small[v] += 1
    v = marks[lo]
    if not mines and small[v] == hi - lo:
        small[10 + v], small[20 + v], small[30 + v] = hi, union, inter
        return False
    position = lo
    for v in range(10):
        small[10 + v] = position
        position += small[v]
    for j in range(lo, hi):
        v = marks[j]
        if v < 10:
            m = source[j]
            if carry:
                moved[small[10 + v]] = labels[j]
            target[small[10 + v]] = m
            small[10 + v] += 1
            small[20 + v] |= m
            small[30 + v] &= m
    return True


@njit(**_JIT)
def _push_groups(stack, depth, small, seen, where):
    """Push the groups of a split (``small`` as ``_split`` leaves it) on the stack of ``_outcomes``, last to
    first so that they are taken first to last; returns the new depth."""
    for v in range(9, -1, -1):
        if small[v]:
            stack[depth, 0], stack[depth, 1], stack[depth, 2] = small[10 + v] - small[v], small[10 + v], seen
            stack[depth, 3], stack[depth, 4], stack[depth, 5] = small[20 + v], small[30 + v], where
            depth += 1
    return depth


@njit(**_JIT)
def _outcomes(state, i, candidates, neighbours, buf, ends, scratch, marks, stack, small, tags, labels, spare, carry):
    """Fill buf with the safe layouts of opening cell i, grouped into closed states; returns
    (layouts, groups, work), group g ending at ends[g] (work: the layouts every split passed over, and
    ``SEGMENT_WORK`` a segment). Free cells (among ``candidates``: the cells
    that may still inform) are opened one at a time; one that shows the same number in every
    layout of its group opens without splitting it. With ``carry``, the labels of the state's
    layouts (``tags``) follow them into ``labels``, one for each layout of buf.

    Each layout moves as few times as it can: the clicked cell's split writes the safe layouts to buf (two passes
    over the state), and a later split writes its segment to the other of buf and ``scratch`` (and of ``labels``
    and ``spare``), once, or not at all when every layout shows the same number; a group that ends in ``scratch``
    is copied back once. (Before 2026-11-30: a pass to pick the safe layouts, then three a split, one of them to
    copy back; the searches of 13 expert positions took 1.13 times as long, by hand.)"""
    bit = np.int64(1) << i
    _split(state, buf, marks, 0, len(state), neighbours[i], small, tags, labels, carry, 0, -1, bit)
    passed = len(state)  # the work: the layouts every split passes over, and its segments
    k = 0
    for v in range(10):
        k += small[v]
    groups = 0
    # a work stack of segments (lo, hi, cells opened, union, intersection of their layouts, 1 if they lie in
    # scratch), taken in order so that the groups come out in order: first those of each number the cell shows
    depth = _push_groups(stack, 0, small, ~candidates | bit, 0)
    while depth:
        depth -= 1
        passed += SEGMENT_WORK
        lo, hi, seen = stack[depth, 0], stack[depth, 1], stack[depth, 2]
        union, inter, where = stack[depth, 3], stack[depth, 4], stack[depth, 5]
        new = 0
        if hi - lo > 1:
            varies = union ^ inter  # the cells whose content differs between the segment's layouts
            free = ~union & ~seen
            while free:  # a free cell showing the same number in every layout opens without a split
                cell = free & -free
                free ^= cell
                seen |= cell
                if neighbours[_popcount(cell - 1)] & varies:
                    new = cell
                    break
        if new == 0:
            ends[groups] = hi
            groups += 1
            if where:  # back where the groups are read
                buf[lo:hi] = scratch[lo:hi]
                if carry:
                    labels[lo:hi] = spare[lo:hi]
            continue
        around = neighbours[_popcount(new - 1)]
        passed += hi - lo
        if where:
            moved = _split(scratch, buf, marks, lo, hi, around, small, spare, labels, carry, union, inter, 0)
        else:
            moved = _split(buf, scratch, marks, lo, hi, around, small, labels, spare, carry, union, inter, 0)
        depth = _push_groups(stack, depth, small, seen, 1 - where if moved else where)
    return k, groups, passed


@njit(**_JIT)
def _quick(state, cap, tables, work, slots, entries, pool, meta):
    """``wins`` when no search is needed (tiny, stored, or capped state), else -1 (``state``: a key)."""
    n = len(state) - 1
    if n <= 2 or state[0] == 0:
        return 1
    h = _hash(state)
    e = _lookup(state, h, slots, entries, pool)
    if e >= 0:
        if entries[e, TARGET] >= 0:
            e = entries[e, TARGET]
    else:  # met for the first time in this form: look for it in its canonical form
        key = _canonical(state, tables, work)
        e = _lookup(key, _hash(key), slots, entries, pool)
        if e >= 0 and _make_room(n + 1, slots, entries, pool, meta):
            e = _lookup(key, _hash(key), slots, entries, pool)
            if e >= 0:
                _insert(state, h, entries[e, VALUE], entries[e, EXACT], e, slots, entries, pool, meta)
    if e >= 0:
        if entries[e, EXACT] or entries[e, VALUE] <= cap:
            return entries[e, VALUE]
        return -1
    return n - 1 if n - 1 <= cap else -1


@njit(**_JIT)
def _store(state, h, key, value, exact, slots, entries, pool, meta):
    """Record a state's value under its canonical key, and the raw state as an alias of it."""
    if not _make_room(len(state), slots, entries, pool, meta):
        return
    hk = _hash(key)
    target = _lookup(key, hk, slots, entries, pool)
    if target >= 0:
        entries[target, VALUE] = value
        entries[target, EXACT] = exact
    else:
        target = _insert(key, hk, value, exact, -1, slots, entries, pool, meta)
    if _lookup(state, h, slots, entries, pool) < 0:
        _insert(state, h, value, exact, target, slots, entries, pool, meta)


@njit(**_JIT)
def _grow(arena, need):
    """The arena, made larger if fewer than ``need`` cells are free above its top."""
    if need <= len(arena):
        return arena
    bigger = np.empty(max(2 * len(arena), need), np.int64)
    bigger[: len(arena)] = arena
    return bigger


@njit(**_JIT)
def _push_moves(arena, top, lo, n, living):
    """Write the living cells of the state arena[lo:lo+n] at ``top``, each as -(safe layouts * 64 + cell),
    unsorted (ascending, they are the safest first, then the higher cell); returns how many."""
    k = 0
    while living:
        bit = living & -living
        living ^= bit
        safe = 0
        for j in range(lo, lo + n):
            if not arena[j] & bit:
                safe += 1
        arena[top + k] = -(safe * 64 + _popcount(bit - 1))  # ascending: safest first, then the higher cell
        k += 1
    return k


@njit(**_JIT)
def _sort_small(a, lo, hi):
    """Sort a[lo:hi] in place, by insertion (stable; a few dozen items: no slice, no call to a sort)."""
    for j in range(lo + 1, hi):
        x = a[j]
        t = j
        while t > lo and a[t - 1] > x:
            a[t] = a[t - 1]
            t -= 1
        a[t] = x


@njit(**_JIT)
def _order_by_bound(arena, order, bounds, groups):
    """arena[order:order+groups]: the groups by their bound arena[bounds+g], highest first, ties in order.
    By insertion up to ``SORT_GROUPS`` groups; a merge sort past them (a cascade of free cells can leave
    thousands of groups, and insertion moves each big one past all the small ones before it)."""
    if groups > SORT_GROUPS:
        arena[order : order + groups] = np.argsort(-arena[bounds : bounds + groups], kind="mergesort")
        return
    for j in range(groups):
        b = arena[bounds + j]
        t = j
        while t > 0 and arena[bounds + arena[order + t - 1]] < b:
            arena[order + t] = arena[order + t - 1]
            t -= 1
        arena[order + t] = j


@njit(**_JIT)
def _move_labels(arena, source, key, count):
    """A key's labels at arena[key:], as ``_reduce`` writes them: 0 where its living cells are, then the labels of
    its ``count`` layouts, from arena[source:] in the same order."""
    arena[key] = 0
    arena[key + 1 : key + 1 + count] = arena[source : source + count]


@njit(**_JIT)
def _reduce(arena, buf, ends, groups, candidates, neighbours, out, dead, labels, out_labels, carry):
    """Write each closed group of arena[buf:] (group g ending at arena[ends + g]) at ``out`` as a key: its living cells
    among ``candidates``, then its layouts; with ``dead``, the layouts cut down to the living cells and their
    neighbours, each distinct cut once. arena[ends + g] becomes the end of key g (from ``out``); returns the keys'
    total length and the layouts looked at for living cells (the work). With ``carry``, the layouts' labels (from
    arena[labels], as buf's layouts from arena[buf]) follow them from ``out_labels`` on, as their keys from ``out``:
    0 where a key's living cells are, then its layouts' (a cut once that is, any of its layouts' labels); -1 there
    for a key of one layout (no labels)."""
    position = 0
    looked = 0  # the layouts looked at for the cells they leave living (the work)
    start = buf
    for g in range(groups):
        end = buf + arena[ends + g]
        first = out + position + 1
        if dead:
            living = 0
            keep = 0
            union = 0
            inter = arena[start]
            for j in range(start, end):
                union |= arena[j]
                inter &= arena[j]
            left = union & ~inter & candidates  # a cell safe in every layout, or in none, shows nothing new
            while left:
                bit = left & -left
                left ^= bit
                around = neighbours[_popcount(bit - 1)]
                seen = -1
                stop = end
                for j in range(start, end):
                    m = arena[j]
                    if not m & bit:
                        v = _popcount(m & around)
                        if seen < 0:
                            seen = v
                        elif v != seen:
                            living |= bit
                            keep |= bit | around
                            stop = j + 1
                            break
                looked += stop - start
            if carry:
                arena[out_labels + position] = -1
            if living == 0:  # nothing left to learn: one layout is won, whichever
                count = 1
                arena[first] = 0
            else:
                for j in range(start, end):
                    arena[first + j - start] = arena[j] & keep
                count = end - start
                if carry and (union ^ inter) & ~keep:  # as below, each label moved with its layout's cut
                    arena[out_labels + position] = 0
                    cuts = arena[first : first + count].copy()
                    order = np.argsort(cuts)
                    kept = 0
                    for u in range(count):
                        cut = cuts[order[u]]
                        if kept == 0 or cut != arena[first + kept - 1]:
                            arena[first + kept] = cut
                            arena[out_labels + position + 1 + kept] = arena[labels + start - buf + order[u]]
                            kept += 1
                    count = kept
                elif (union ^ inter) & ~keep:  # a cell that varies is cut: sort, and keep each cut once
                    cut = arena[first : first + count]
                    cut.sort()
                    count = 1
                    for j in range(1, end - start):
                        if cut[j] != cut[count - 1]:
                            cut[count] = cut[j]
                            count += 1
                elif carry:  # the layouts stay sorted and distinct (only cells equal in all of them are cut)
                    _move_labels(arena, labels + start - buf, out_labels + position, count)
        else:
            union = 0
            inter = arena[start]
            for j in range(start, end):
                union |= arena[j]
                inter &= arena[j]
                arena[first + j - start] = arena[j]
            living = union & ~inter & candidates
            count = end - start
            if carry:
                _move_labels(arena, labels + start - buf, out_labels + position, count)
        arena[out + position] = living
        position += 1 + count
        arena[ends + g] = position
        start = end
    return position, looked


@njit(**_JIT)
def _scratch(n, cells, meta):
    """The working arrays of ``_click`` for states of at most ``n`` layouts on ``cells`` cells, made once
    for every click of a run (a few dozen arrays a click cost more than the search of a small state)."""
    arena = np.empty(8 * n + 1024, np.int64)
    scratch = np.empty(n + 1, np.int64)
    stack = np.empty((10 * cells + 16, 6), np.int64)  # _outcomes' segments
    small = np.zeros(40, np.int64)
    marks = np.empty(n + 1, np.uint8)
    work = np.empty((2, n + 1), np.int64)  # _canonical's images
    rows = min(n, max(meta[CLIQUE_ROWS], meta[MOVE_ROWS], meta[ROOT_ROWS])) + 1  # _cover's cliques: sets of bits
    compat, agree = np.empty((cells, 9, rows // 64 + 1), np.int64), np.empty(rows // 64 + 1, np.int64)
    held = n + 1 if 0 <= meta[INHERIT_ABOVE] < n else 1  # cliques taken from a parent: any state's, ands and labels
    ands, labels, spots = (
        np.empty(max(rows, held), np.int64),
        np.empty(max(rows, held), np.int64),
        np.empty(64, np.int64),
    )
    frames = np.zeros((cells + 2, FRAME_FIELDS), np.int64)
    remap, spare = np.full(held, -1, np.int64), np.empty(held, np.int64)  # _inherit's, and labels moved in _split
    return arena, scratch, stack, small, marks, work, compat, agree, ands, labels, spots, frames, remap, spare


@njit(**_JIT)
def click(state, i, opened, full, neighbours, tables, slots, entries, pool, meta, dead, cap=-1):
    """The exact win count of opening cell i in ``state`` (``opened``: cells already open); with
    ``cap``, exact only when above it, else a bound of at most ``cap`` (all a caller looking for a
    move better than ``cap`` needs)."""
    room = _scratch(len(state), len(neighbours), meta)
    return _click(
        state, i, opened, full, neighbours, tables, slots, entries, pool, meta, dead, cap, room, np.empty(0, np.int64)
    )


@njit(**_JIT)
def _click(state, i, opened, full, neighbours, tables, slots, entries, pool, meta, dead, cap, room, tags):
    """``click`` with its working arrays made (``_scratch``, for states of at least ``len(state)``
    layouts): the search of ``PythonEngine.wins`` / ``_best`` / ``_sum`` with an explicit
    stack of frames instead of recursion (numba cannot cache recursive code).
    The root frame is the click itself: one forced move, summed exactly. A frame's
    state lies at arena[LO:LO+SIZE], its key (living cells, then the layouts) at
    arena[LO-1:LO+SIZE]. Everything read from the arrays is written first in this call.
    """
    n = len(state)
    cells = len(neighbours)
    arena, scratch, stack, small, marks, work, compat, agree, ands, labels, spots, frames, remap, spare = room
    arena[1 : n + 1] = state
    frames[0, :] = 0
    root = frames[0]
    root[LO], root[SIZE], root[CAP], root[LIVING], root[UB] = 1, n, cap, full & ~opened, n
    safe = 0
    for m in state:
        if not m >> i & 1:
            safe += 1
    root[MOVES], root[N_MOVES] = n + 1, 1
    arena[n + 1] = -(safe * 64 + i)
    top = n + 2
    root[LABELS] = root[INHERITED] = -1
    if len(tags) == n:  # the labels of the state's cliques (``best_clicks``), for its children to take
        root[LABELS] = top
        arena[top : top + n] = tags
        top += n
    root[TOP] = top
    d = 0
    value = np.int64(0)  # (typed, not literal: a literal would have numba compile _store twice)
    phase = 1  # 0: a new frame, 1: its next move, 2: its next outcome, 3: a value for it, 4: its result
    exact = bool(value)  # False, typed too
    while True:
        if meta[ABORT] or meta[WORK] > meta[LIMIT] > 0:  # stopped, or the budget spent: nothing half-done is stored
            meta[ABORT] = 1
            return 0
        f = frames[d]
        if phase == 0:  # a new state: list its moves, bounded by their safe layouts or by the state's cliques
            arena = _grow(arena, top + cells + f[SIZE])
            f[MOVES] = top
            k = f[N_MOVES] = _push_moves(arena, top, f[LO], f[SIZE], f[LIVING])
            cliques = -1
            if f[SIZE] > 2 and f[INHERITED] >= 0 and 0 <= meta[INHERIT_ABOVE] < f[SIZE]:
                cliques = _inherit(arena, f[LO], f[SIZE], f[INHERITED], ands, labels, remap)
                meta[WORK] += f[SIZE]  # a pass over the layouts
            elif 2 < f[SIZE] <= meta[MOVE_ROWS]:
                here = arena[f[LO] - 1 : f[LO] + f[SIZE]]
                cliques = _cover(here, neighbours, f[SIZE] + 1, compat, ands, labels, spots, agree)
                meta[WORK] += f[SIZE] * (cliques // 64 + 1)  # a pass over the layouts, a word per 64 cliques
            if cliques >= 0:
                f[UB] = min(f[UB], cliques)
                for j in range(k):
                    cell = -arena[top + j] & 63
                    bound = _holding(ands, cliques, cell)
                    if bound < -arena[top + j] >> 6:
                        arena[top + j] = -(bound * 64 + cell)
            _sort_small(arena, top, top + k)  # the highest bound first
            top += k
            f[LABELS] = -1
            if cliques >= 0 and 0 <= meta[INHERIT_ABOVE] < f[SIZE]:  # kept for children big enough to take them
                f[LABELS] = top
                arena[top : top + f[SIZE]] = labels[: f[SIZE]]
                top += f[SIZE]
            f[TOP] = top
            f[NEXT] = f[BEST] = f[SKIPPED] = 0
            phase = 1
        elif phase == 1:  # try the next move, or finish
            top = f[TOP]
            if f[NEXT] == f[N_MOVES]:
                value, exact, phase = max(f[BEST], f[SKIPPED]), f[BEST] > f[CAP], 4
                continue
            if f[BEST] > f[CAP] and f[BEST] >= f[UB]:  # the bound its parent found is reached: no move beats it
                value, exact, phase = f[BEST], True, 4
                continue
            key = -arena[f[MOVES] + f[NEXT]]
            f[NEXT] += 1
            most, cell = key >> 6, key & 63  # the move's bound: its safe layouts, or its cliques
            f[THRESHOLD] = max(f[BEST], f[CAP])
            if most <= f[THRESHOLD]:  # neither this move nor any later one can do better
                value, exact, phase = max(f[BEST], most, f[SKIPPED]), f[BEST] > f[CAP], 4
                continue
            size = f[SIZE]
            arena = _grow(arena, top + 9 * size + 8)
            f[BUF], f[ENDS], f[RED] = top, top + size, top + 2 * size
            f[BUF_LABELS], f[RED_LABELS] = top + 6 * size, top + 7 * size  # (2 * size, as the keys)
            carry = f[LABELS] >= 0
            _, groups, passed = _outcomes(
                arena[f[LO] : f[LO] + size],
                cell,
                f[LIVING],
                neighbours,
                arena[top : top + size],
                arena[top + size : top + 2 * size],
                scratch,
                marks,
                stack,
                small,
                arena[max(f[LABELS], 0) : max(f[LABELS], 0) + size],  # (read only with carry)
                arena[f[BUF_LABELS] : f[BUF_LABELS] + size],
                spare,
                carry,
            )
            candidates = f[LIVING] & ~(np.int64(1) << cell)
            _, looked = _reduce(
                arena,
                f[BUF],
                f[ENDS],
                groups,
                candidates,
                neighbours,
                f[RED],
                dead,
                f[BUF_LABELS],
                f[RED_LABELS],
                carry,
            )
            meta[WORK] += passed + looked
            f[GROUPS] = groups
            f[BOUNDS], f[ORDER] = top + 4 * size, top + 5 * size
            top += 9 * size
            bound = 0
            loose = 0  # groups whose bound the cliques may tighten, as bits (the first 63)
            start = f[RED]
            for g in range(groups):
                end = f[RED] + arena[f[ENDS] + g]
                if end - start <= 3 or arena[start] == 0:  # (as _bound: no slice, no reference counts)
                    b, known = 1, True
                else:
                    b, known = _bound(arena[start:end], slots, entries, pool)
                    labelled = f[RED_LABELS] + start - f[RED]
                    if meta[SIBLINGS] and carry and b > 1 and arena[labelled] == 0:  # the cliques it would take
                        meta[WORK] += end - start - 1
                        b = min(b, _distinct(arena, labelled + 1, end - start - 1, remap))
                arena[f[BOUNDS] + g] = b
                bound += b
                if not known and b > 1 and end - start - 1 <= meta[CLIQUE_ROWS] and g < 63:
                    loose |= np.int64(1) << g
                start = end
            if bound > f[THRESHOLD] and loose:  # the move is searched unless tighter bounds rule it out
                for g in range(min(groups, 63)):  # (a shift past 63 bits is undefined in compiled code)
                    if loose >> g & 1:
                        lo = f[RED] + (arena[f[ENDS] + g - 1] if g > 0 else 0)
                        b = _cover(
                            arena[lo : f[RED] + arena[f[ENDS] + g]],
                            neighbours,
                            arena[f[BOUNDS] + g],
                            compat,
                            ands,
                            labels,
                            spots,
                            agree,
                        )
                        bound -= arena[f[BOUNDS] + g] - b
                        arena[f[BOUNDS] + g] = b
            if bound <= f[THRESHOLD]:
                f[SKIPPED] = max(f[SKIPPED], bound)
                continue
            _order_by_bound(arena, f[ORDER], f[BOUNDS], groups)
            f[AT], f[LEFT], f[TOTAL] = 0, bound, 0
            phase = 2
        elif phase == 2:  # the next outcome of the move being summed
            g = arena[f[ORDER] + f[AT]]
            f[AT] += 1
            f[LEFT] -= arena[f[BOUNDS] + g]
            f[CHILD_CAP] = f[THRESHOLD] - f[TOTAL] - f[LEFT]
            lo = f[RED] + (arena[f[ENDS] + g - 1] if g > 0 else 0)
            hi = f[RED] + arena[f[ENDS] + g]
            value = _quick(arena[lo:hi], f[CHILD_CAP], tables, work, slots, entries, pool, meta)
            if value >= 0:
                phase = 3
                continue
            d += 1
            child = frames[d]
            child[LO], child[SIZE], child[CAP], child[LIVING] = lo + 1, hi - lo - 1, f[CHILD_CAP], arena[lo]
            child[UB] = arena[f[BOUNDS] + g]
            child[INHERITED] = -1
            if f[LABELS] >= 0 and arena[f[RED_LABELS] + lo - f[RED]] == 0:  # its layouts' labels follow
                child[INHERITED] = f[RED_LABELS] + lo - f[RED] + 1
            phase = 0
        elif phase == 3:  # a value for the outcome being summed
            f[TOTAL] += value
            if value <= f[CHILD_CAP]:  # the move cannot beat the threshold: its bound is enough
                f[BEST] = max(f[BEST], f[TOTAL] + f[LEFT])
                phase = 1
            elif f[AT] == f[GROUPS]:
                f[BEST] = max(f[BEST], f[TOTAL])
                phase = 1
            else:
                phase = 2
        else:  # this frame's result
            if d == 0:
                return value
            state_here = arena[f[LO] - 1 : f[LO] + f[SIZE]]
            meta[SOLVED] += 1
            _store(
                state_here,
                _hash(state_here),
                _canonical(state_here, tables, work),
                value,
                exact,
                slots,
                entries,
                pool,
                meta,
            )
            top = f[MOVES]
            d -= 1
            phase = 3


@njit(**_JIT)
def clicks(state, cells, opened, full, neighbours, tables, slots, entries, pool, meta, dead):
    """``click`` for each of ``cells``, in order, with one set of working arrays."""
    room = _scratch(len(state), len(neighbours), meta)
    out = np.zeros(len(cells), np.int64)  # (0 for the cells left when stopped, as ``click`` gives)
    for j in range(len(cells)):
        out[j] = _click(
            state,
            cells[j],
            opened,
            full,
            neighbours,
            tables,
            slots,
            entries,
            pool,
            meta,
            dead,
            -1,
            room,
            np.empty(0, np.int64),
        )
        if meta[ABORT]:
            break
    return out


@njit(**_JIT)
def best_clicks(state, cells, opened, full, neighbours, tables, slots, entries, pool, meta, dead):
    """The exact win count of each of ``cells`` that reaches the best of them, -1 for the others.

    The cells are searched by their bound, highest first (the layouts where they are safe, or the
    agreement cliques holding one, as ``click`` bounds the moves of a state; ties in the order given),
    each capped at the best win count found so far less one: a cell that cannot reach it stops as
    soon as its bound says so, and a cell whose bound is below the best is not searched. (Which cells
    reach the best does not depend on the order.)"""
    k = len(cells)
    n = len(state)
    bound = np.zeros(k, np.int64)
    for m in state:
        for j in range(k):
            if not m >> cells[j] & 1:
                bound[j] += 1
    room = _scratch(n, len(neighbours), meta)
    tags = np.empty(0, np.int64)  # no labels: the children cover themselves
    # covered past MOVE_ROWS only so that its children can take its cliques
    if 2 < n <= (max(meta[MOVE_ROWS], meta[ROOT_ROWS]) if meta[INHERIT_ABOVE] >= 0 else meta[MOVE_ROWS]):
        arena, _, _, _, _, _, compat, agree, ands, labels, spots, _, _, _ = room
        arena[0] = full & ~opened
        arena[1 : n + 1] = state
        cliques = _cover(arena[: n + 1], neighbours, n + 1, compat, ands, labels, spots, agree)
        meta[WORK] += n * (cliques // 64 + 1)
        for j in range(k):
            bound[j] = min(bound[j], _holding(ands, cliques, cells[j]))
        if 0 <= meta[INHERIT_ABOVE] < n:
            tags = labels[:n].copy()
    order = np.argsort(-bound, kind="mergesort")  # stable: ties in the order given
    out = np.full(k, -1, np.int64)
    memo = (full, neighbours, tables, slots, entries, pool, meta)
    best = -1
    for j in order:
        if bound[j] < best:
            break
        value = _click(state, cells[j], opened, *memo, dead, best - 1, room, tags)
        if meta[ABORT]:
            return out
        if value >= best:  # above the cap: exact
            out[j] = value
            best = value
    for j in range(k):
        if out[j] < best:
            out[j] = -1
    return out


class CompiledEngine:
    """The search compiled by numba, for boards of at most 63 cells: the same answers as ``PythonEngine``.

    ``max_states`` bounds the memo (canonical states and their aliases; past it, or
    past ``POOL_LAYOUTS`` layouts a key on average, the table starts afresh, still
    exact, keeping its largest exact states unless ``keep`` is False), so memory
    stays bounded: about 100 bytes a state plus 8 bytes a stored layout, taken as the
    memo fills (at most ~6 GB at the default 4M states).
    """

    name = "compiled"

    def __init__(
        self,
        geometry: Geometry,
        symmetry: bool,
        max_states: int,
        dead: bool = False,
        keep: bool = True,
        clique_rows: int = CLIQUE_ROWS_DEFAULT,
        move_rows: int = MOVE_ROWS_DEFAULT,
    ):
        n = geometry.n
        if n > BITMASK_CELLS:
            raise ValueError(f"the compiled engine takes boards of at most {BITMASK_CELLS} cells, not {n}")
        self.geometry, self.max_states, self.dead = geometry, max_states, dead
        self._full = geometry.full
        self._neighbours = np.array(geometry.neighbours, np.int64)
        self._tables = _symmetry_tables(geometry) if symmetry else np.zeros((0, (n + 7) // 8, 256), np.int64)
        entries = 2 * max_states + 2  # a canonical entry and an alias per state
        self._slots = np.zeros(1 << (2 * entries).bit_length(), np.int64)  # entry + 1, 0 if empty: untouched
        # untouched pages cost no memory, so a roomy memo costs nothing until it is used; the entries are
        # read only below meta[ENTRIES], each row written first: not zeroed (a small memo's zeros cost
        # more than its search)
        self._entries = np.empty((entries, 6), np.int64)
        self._pool = np.empty(POOL_LAYOUTS * entries, np.int64)  # untouched pages cost no memory
        self._meta = np.zeros(META_FIELDS, np.int64)
        self._meta[KEEP] = keep
        self._meta[CLIQUE_ROWS] = clique_rows
        self._meta[MOVE_ROWS] = move_rows
        self._meta[INHERIT_ABOVE], self._meta[ROOT_ROWS] = INHERIT_ABOVE_DEFAULT, ROOT_ROWS_DEFAULT
        self._meta[SIBLINGS] = SIBLINGS_DEFAULT

    @property
    def solved(self) -> int:
        """States solved, over all calls."""
        return int(self._meta[SOLVED])

    @property
    def clears(self) -> int:
        """How many times the memo was full and started afresh."""
        return int(self._meta[CLEARS])

    @property
    def work(self) -> int:
        """What a search's time follows, over all calls: the layouts passed over by every split of the moves tried
        (the clicked cell's, then one for each cell of the cascade that tells a segment's layouts apart), by the
        looks for the cells an outcome leaves living, and by the cliques' cover (a pass of ``n`` layouts finding
        ``q`` cliques counts ``n * (q // 64 + 1)``, a state of ``n`` taking its parent's cliques ``n``), and
        ``SEGMENT_WORK`` for each segment of a split. (Until 2026-12-02 a move counted its layouts once: a cascade
        of free cells that splits the layouts again and again, into thousands of small outcomes, took up to 75 ns a
        unit against 7 to 30 elsewhere; now 5.5 to 18 ns on 21 expert positions searched for over 0.2 s.)"""
        return int(self._meta[WORK])

    def click(self, layouts: Layouts, i: int, opened: int) -> int:
        """The exact win count of opening cell i (``opened``: cells already open)."""
        return self.clicks(layouts, [i], opened)[0]

    def clicks(self, layouts: Layouts, cells: list[int], opened: int) -> list[int]:
        """``click`` for each of ``cells``, in one run of the kernel's thread (a thread costs ~0.1 ms to
        start, and more on a busy machine: a position's every move at once), or in the caller's thread
        from at most ``INLINE_LAYOUTS`` layouts."""
        state = np.fromiter(layouts, np.int64, len(layouts))
        memo = (self._full, self._neighbours, self._tables, self._slots, self._entries, self._pool, self._meta)
        targets = np.array(cells, np.int64)

        def work() -> list[int]:
            return clicks(state, targets, opened, *memo, self.dead).tolist()

        return work() if len(layouts) <= INLINE_LAYOUTS else self._run(work)

    def best(self, layouts: Layouts, cells: list[int], opened: int, budget: int = 0) -> dict[int, int] | None:
        """The cells of ``cells`` whose ``click`` is the best of them, with that win count; each other
        cell searched only as far as needed to tell that it falls short (``best_clicks``).

        With ``budget``, None if the search needs more ``work`` than that: it stops there (``LIMIT``).
        What it stored is sound and stays in the memo for the searches after. The work follows from the
        layouts and the memo alone, so where a search stops does not depend on the machine, as a time
        cap's would."""
        state = np.fromiter(layouts, np.int64, len(layouts))
        memo = (self._full, self._neighbours, self._tables, self._slots, self._entries, self._pool, self._meta)
        targets = np.array(cells, np.int64)

        def work() -> list[int]:
            return best_clicks(state, targets, opened, *memo, self.dead).tolist()

        if budget < 0:
            raise ValueError(f"budget must be at least 0 (0: none), got {budget}")
        self._meta[LIMIT] = self._meta[WORK] + budget if budget else 0
        try:
            wins = work() if len(layouts) <= INLINE_LAYOUTS else self._run(work)
        finally:
            self._meta[LIMIT] = 0
        if budget and self._meta[ABORT]:  # the budget was spent (an abort from outside raises in _run)
            self._meta[ABORT] = 0
            return None
        return {i: w for i, w in zip(cells, wins) if w >= 0}

    def _run(self, function):
        """Run ``function`` (calls of the kernel) in a thread, so that a time cap or Ctrl-C can stop it."""
        box: list = []

        def work():
            try:
                box.append(function())
            except BaseException as error:  # re-raised in the caller's thread
                box.append(error)

        worker = threading.Thread(target=work, daemon=True)
        try:  # a time cap may strike while the thread starts: it must be stopped then too
            worker.start()
            while worker.is_alive():
                worker.join(0.05)
        except BaseException:
            self._meta[ABORT] = 1
            if worker.ident is not None:
                worker.join()
            self._forget()  # values stored while stopping are not to be trusted
            raise
        if isinstance(box[0], BaseException):
            raise box[0]
        return box[0]

    def _forget(self) -> None:
        self._slots[:] = 0
        self._meta[[ENTRIES, POOL_USED, ABORT]] = 0


def _symmetry_tables(geometry: Geometry) -> np.ndarray:
    """``Geometry.chunk_tables`` as one array (symmetry, chunk, chunk value), the last chunk padded."""
    chunks = (geometry.n + 7) // 8
    tables = np.zeros((len(geometry.chunk_tables), chunks, 256), np.int64)
    for t, per_chunk in enumerate(geometry.chunk_tables):
        for c, table in enumerate(per_chunk):
            tables[t, c, : len(table)] = table
    return tables


__all__ = ["CompiledEngine"]
