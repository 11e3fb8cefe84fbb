"""The compiled engine (minelib.kernel) against the Python one, and how it stops."""

import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minelib.board import Board, BoardSize
from minelib.kernel import (
    ABORT,
    ENTRIES,
    INHERIT_ABOVE,
    KEEP,
    META_FIELDS,
    SEGMENT_WORK,
    SORT_GROUPS,
    VALUE,
    CompiledEngine,
    _canonical,
    _compact,
    _cover,
    _cover_prefixed,
    _fewest_bound,
    _hash,
    _lookup,
    _order_by_bound,
    _outcomes,
    _scratch,
    _symmetry_tables,
    click,
)
from minelib.layouts import Geometry
from minelib.optimal import OptimalSolver, solve
from minelib.search import PythonEngine
from minelib.timing import TimeCapExceeded, time_cap
from tests.conftest import positions


@pytest.mark.parametrize("rule", ["none", "safe", "zero"])
@pytest.mark.parametrize("size, mines", [("3x5", 4), ("4x4", 3), ("2x7", 5), ("3x4", 6)])
def test_the_same_values_as_the_python_search(size, mines, rule):
    compiled = solve(size, mines, rule, engine="compiled")
    python = solve(size, mines, rule, engine="python")
    assert compiled.move_values == python.move_values
    assert compiled.best_moves == python.best_moves


@settings(max_examples=40, deadline=None)
@given(positions(max_height=4, max_width=5))
def test_positions_as_the_python_search(position):
    board, mines = position
    if not 0 < mines < board.size.n_cells:
        return
    expected = OptimalSolver(board.size, mines, "python").position(board)
    assert OptimalSolver(board.size, mines, "compiled").position(board).move_values == expected.move_values


def test_a_full_memo_starts_afresh_and_changes_nothing_but_the_work():
    roomy = OptimalSolver("3x5", 4, "compiled")
    tight = OptimalSolver("3x5", 4, "compiled", max_states=3)
    assert tight.first_move("safe").move_values == roomy.first_move("safe").move_values
    assert tight.engine.clears > 0 and roomy.engine.clears == 0


def test_the_kernel_stops_at_once_when_asked():
    engine = CompiledEngine(Geometry(BoardSize(4, 5)), True, 1000)
    layouts = np.array(OptimalSolver("4x5", 5, "python").all_layouts(), np.int64)
    engine._meta[ABORT] = 1
    assert (
        click(
            layouts,
            0,
            0,
            engine._full,
            engine._neighbours,
            engine._tables,
            engine._slots,
            engine._entries,
            engine._pool,
            engine._meta,
            False,
        )
        == 0
    )
    assert engine.solved == 0


def test_a_time_cap_stops_the_engine_and_it_stays_exact():
    # A stand-in for the kernel that runs until the abort flag is raised: the cap always comes first.
    engine = OptimalSolver("4x5", 5, "compiled").engine
    running, stopped = threading.Event(), threading.Event()

    def endless(meta):
        running.set()
        while not meta[ABORT]:
            stopped.wait(0.001)
        stopped.set()
        return 0

    with pytest.raises(TimeCapExceeded), time_cap(0.05):
        engine._run(lambda: endless(engine._meta))
    assert stopped.is_set() or not running.is_set()  # if it started, it was stopped before _run returned
    assert engine._meta[ABORT] == 0 and not engine._slots.any()  # the memo forgotten: every slot empty
    solver = OptimalSolver("3x4", 4, "compiled")
    solver.engine = engine.__class__(solver.geometry, True, 1000)
    assert solver.first_move("safe").move_values == solve("3x4", 4, "safe", engine="python").move_values


def test_small_searches_run_in_the_callers_thread_and_large_ones_in_their_own(monkeypatch):
    from minelib import kernel

    started = []
    real = threading.Thread

    def counted(*args, **kwargs):
        started.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(kernel.threading, "Thread", counted)
    small = solve("3x4", 4, "safe", engine="compiled")  # 495 layouts
    assert not started and small.move_values == solve("3x4", 4, "safe", engine="python").move_values
    monkeypatch.setattr(kernel, "INLINE_LAYOUTS", 100)
    assert solve("3x4", 4, "safe", engine="compiled").move_values == small.move_values
    assert started  # past the limit: a thread, which a time cap can stop


def test_engines_are_chosen_by_name_and_board_size():
    assert isinstance(OptimalSolver("4x5", 5).engine, CompiledEngine)
    assert isinstance(OptimalSolver("3x3", 2).engine, PythonEngine)  # 36 layouts: Python is done first
    assert isinstance(OptimalSolver("3x3", 2, "compiled").engine, CompiledEngine)
    assert isinstance(OptimalSolver("4x5", 5, "python").engine, PythonEngine)
    assert isinstance(OptimalSolver("8x8", 3).engine, PythonEngine)  # 64 cells: past the compiled bitmasks
    assert isinstance(OptimalSolver("10x10", 10, symmetry=False).engine, PythonEngine)
    with pytest.raises(ValueError, match="at most 63 cells, not 64"):
        OptimalSolver("8x8", 2, "compiled")
    with pytest.raises(ValueError, match="unknown engine 'fast'"):
        OptimalSolver("3x3", 2, "fast")
    with pytest.raises(ValueError, match="max_states must be at least 1, not 0"):
        OptimalSolver("3x3", 2, max_states=0)


def test_both_engines_use_the_same_symmetry_tables():
    geometry = Geometry(BoardSize(3, 5))
    tables = CompiledEngine(geometry, True, 10)._tables
    assert tables.shape == (3, 2, 256)
    for t, per_chunk in enumerate(geometry.chunk_tables):
        for c, table in enumerate(per_chunk):
            assert list(tables[t, c, : len(table)]) == table


def test_a_position_on_the_largest_compiled_board():
    board = Board.from_text("\n".join(["1" + "." * 8] + ["." * 9] * 6))  # 7x9 = 63 cells
    result = OptimalSolver(BoardSize(7, 9), 1, "compiled").position(board)
    assert result.probability == 1 and result.layouts == 3


def _memo(engine) -> dict:
    """{key: (value, exact, canonical?)} of every entry of a compiled engine's memo."""
    found = {}
    for e in range(engine._meta[ENTRIES]):
        start, length, value, exact, target = engine._entries[e, :5]
        key = tuple(engine._pool[start : start + length])
        found[key] = (value, exact, target < 0)
    return found


@pytest.mark.parametrize("keep", [True, False])
def test_a_full_memo_keeps_its_largest_exact_states(keep):
    solver = OptimalSolver("4x4", 5, "compiled", max_states=300)  # small: the halves bind
    engine = solver.engine
    engine._meta[KEEP] = keep
    solver.first_move("safe")
    before = _memo(engine)
    _compact(engine._slots, engine._entries, engine._pool, engine._meta)
    after = _memo(engine)
    if not keep:
        assert after == {}
        return
    candidates = {k: v for k, v in before.items() if v[1] and v[2]}  # exact values under canonical keys
    assert after and set(after) <= set(candidates) and len(after) <= len(engine._entries) // 2
    assert all(after[k] == candidates[k] for k in after)
    assert min(len(k) for k in after).bit_length() >= max(
        (len(k).bit_length() for k in candidates if k not in after), default=0
    )  # the largest kept, by powers of two
    for key, (value, _, _) in after.items():  # each found again by its hash
        state = np.array(key, np.int64)
        e = _lookup(state, _hash(state), engine._slots, engine._entries, engine._pool)
        assert engine._entries[e, VALUE] == value


def test_a_memo_that_keeps_its_largest_states_changes_no_value():
    values = {}
    for keep in (False, True):
        solver = OptimalSolver("4x5", 5, "compiled", max_states=2000)
        solver.engine._meta[KEEP] = keep
        values[keep] = solver.first_move("safe")
        assert solver.engine.clears > 0
    assert values[True].move_values == values[False].move_values == solve("4x5", 5, "safe").move_values
    assert values[True].states < values[False].states  # what is kept is found again, not solved again


def _cliques(key: np.ndarray, neighbours: np.ndarray, bound: int | None = None) -> tuple[int, np.ndarray, np.ndarray]:
    """_cover on a key: (cliques, ands, labels)."""
    space = len(key)
    compat, agree = np.empty((len(neighbours), 9, space // 64 + 1), np.int64), np.empty(space // 64 + 1, np.int64)
    ands, labels, cells = np.empty(space, np.int64), np.full(space, -1, np.int64), np.empty(64, np.int64)
    cliques = _cover(key, neighbours, bound or space, compat, ands, labels, cells, agree)
    return cliques, ands, labels


def _greedy(rows: tuple[int, ...], living: int, neighbours: np.ndarray) -> list[int]:
    """The greedy cover by brute force: each layout joins the first clique all of whose layouts it agrees
    with; its labels."""
    cliques: list[list[int]] = []
    labels = []
    for m in rows:
        q = next(
            (q for q, members in enumerate(cliques) if all(_agree(m, a, living, neighbours) for a in members)), None
        )
        if q is None:
            q = len(cliques)
            cliques.append([])
        cliques[q].append(m)
        labels.append(q)
    return labels


def _agree(a: int, b: int, living: int, neighbours: np.ndarray) -> bool:
    """Every living cell safe in both layouts shows the same number in both (by brute force)."""
    shown = [x for x in range(len(neighbours)) if living >> x & 1 and not (a | b) >> x & 1]
    return all((a & int(neighbours[x])).bit_count() == (b & int(neighbours[x])).bit_count() for x in shown)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([(3, 3), (3, 4), (2, 5), (4, 4)]),
    st.integers(2, 6),
    st.integers(0, 15),
    st.sampled_from(["none", "safe"]),
)
def test_agreement_cliques_bound_the_wins_of_a_state_and_of_each_move(shape, mines, cell, rule):
    size = BoardSize(*shape)
    solver = OptimalSolver(size, mines, "python")
    i = cell % size.n_cells
    layouts = solver.first_click_layouts(size.cell_at(i), rule)
    if not layouts:
        return
    engine, neighbours, full = solver.engine, np.array(solver.geometry.neighbours, np.int64), solver.geometry.full
    for state in engine.outcomes(layouts, i, full):
        living, rows = state
        key = np.array([living, *rows], np.int64)
        cliques, ands, labels = _cliques(key, neighbours)
        assert engine.wins(state) <= cliques <= len(rows)
        if len(rows) <= 150:  # (the brute force is quadratic)
            assert list(labels[: len(rows)]) == _greedy(rows, living, neighbours)
        # a cover: every layout in one clique, whose layouts agree pairwise, and whose ands are theirs
        assert sorted(set(labels[: len(rows)])) == list(range(cliques))
        for q in range(cliques):
            members = [m for m, label in zip(rows, labels) if label == q]
            assert all(_agree(a, b, living, neighbours) for a in members for b in members)
            assert int(ands[q]) & full == int(np.bitwise_and.reduce(np.array(members, np.int64))) & full
        for c in range(size.n_cells):  # a move's wins: at most the cliques holding a layout where c is safe
            if living >> c & 1:
                safe_in = sum(1 for q in range(cliques) if not ands[q] >> c & 1)
                assert engine.click(rows, c, full & ~living) <= safe_in


def test_agreement_cliques_can_beat_the_fewest_mines_bound():
    # after the first click on 2x4 with 3 mines, some state holds pairs that can be told apart only by dying
    solver = OptimalSolver("2x4", 3, "python")
    found = []
    neighbours = np.array(solver.geometry.neighbours, np.int64)
    for state in solver.engine.outcomes(solver.first_click_layouts((0, 0), "safe"), 0, solver.geometry.full):
        living, rows = state
        key = np.array([living, *rows], np.int64)
        found.append((_cliques(key, neighbours)[0], _fewest_bound(key)))
    assert any(cliques < fewest for cliques, fewest in found)


def test_a_cover_of_many_cliques_is_the_greedy_one():
    # all layouts of 4x4 with 3 mines, every cell living: hundreds of cliques, several words of bits each
    solver = OptimalSolver("4x4", 3, "python")
    neighbours = np.array(solver.geometry.neighbours, np.int64)
    rows, living = solver.all_layouts(), solver.geometry.full
    cliques, ands, labels = _cliques(np.array([living, *rows], np.int64), neighbours)
    assert cliques > 128
    assert list(labels[: len(rows)]) == _greedy(rows, living, neighbours)
    for q in range(cliques):
        members = [m for m, label in zip(rows, labels) if label == q]
        assert int(ands[q]) & living == int(np.bitwise_and.reduce(np.array(members, np.int64))) & living


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([("4x4", 3), ("4x4", 4), ("3x5", 4), ("4x5", 3)]), st.booleans(), st.integers(0, 2**32 - 1))
def test_a_cover_from_the_rows_shared_with_the_layout_before_is_the_same_cover(board, shuffled, seed):
    """``_cover_prefixed`` (the cover of big states: each AND of a layout's rows taken on from the rows it shares with
    the layout before) finds the greedy cover's cliques, labels and ands, sorted layouts or not, and stops at a
    bound as ``_cover`` does; some living cells are mines in every layout, so the rows of a layout vary in number."""
    size, mines = board
    solver = OptimalSolver(size, mines, "python")
    neighbours, full = np.array(solver.geometry.neighbours, np.int64), solver.geometry.full
    rng = np.random.default_rng(seed)
    rows = list(solver.all_layouts())
    if shuffled:
        rng.shuffle(rows)
    living = full & ~int(rng.integers(0, 2**4))  # a few cells opened: not living
    key = np.array([living, *rows], np.int64)
    cliques, ands, labels = _cliques(key, neighbours)
    assert cliques > 64  # more than a word of cliques
    cells = np.empty(64, np.int64)
    count = 0
    for c in range(solver.geometry.n):
        if living >> c & 1:
            cells[count], count = c, count + 1
    for bound in (len(key), cliques // 2):
        space = len(key)
        compat = np.empty((len(neighbours), 9, space // 64 + 1), np.int64)
        got_ands, got_labels = np.empty(space, np.int64), np.full(space, -1, np.int64)
        got = _cover_prefixed(key, neighbours, bound, compat, got_ands, got_labels, cells, count)
        if bound == len(key):
            assert got == cliques
            assert list(got_labels[: len(rows)]) == list(labels[: len(rows)])
            assert list(got_ands[:cliques]) == list(ands[:cliques])
        else:
            assert got == bound == _cliques(key, neighbours, bound)[0]
    if len(rows) <= 600 and not shuffled:
        assert list(labels[: len(rows)]) == _greedy(tuple(rows), living, neighbours)


def test_a_cover_stops_at_the_bound_it_is_given():
    solver = OptimalSolver("3x3", 3, "python")
    neighbours = np.array(solver.geometry.neighbours, np.int64)
    key = np.array([solver.geometry.full, *solver.all_layouts()], np.int64)
    assert _cliques(key, neighbours)[0] > 3
    assert _cliques(key, neighbours, bound=3)[0] == 3


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([(3, 3), (4, 4), (5, 5), (3, 5), (2, 4)]),
    st.data(),
)
def test_the_compiled_canonical_form_is_the_python_one(shape, data):
    # small boards with many symmetric states: ties on the living cells and the smallest layout are common
    geometry = Geometry(BoardSize(*shape))
    living = data.draw(st.sampled_from([geometry.full, 0, data.draw(st.integers(0, geometry.full))]))
    symmetric = data.draw(st.booleans())
    layouts = set(data.draw(st.lists(st.integers(0, geometry.full), min_size=1, max_size=12)))
    if symmetric:  # a state closed under the symmetries ties every image
        layouts |= {image for images in geometry.images(tuple(layouts)) for image in images}
    layouts = tuple(sorted(layouts))
    key = np.array([living, *layouts], np.int64)
    work = np.empty((2, len(key)), np.int64)
    expected = geometry.canonical_state(living, layouts)
    got = _canonical(key, _symmetry_tables(geometry), work)
    assert (int(got[0]), tuple(int(x) for x in got[1:])) == expected


def _closed_groups(layouts: list[int], i: int, candidates: int, neighbours: np.ndarray) -> list[tuple[int, ...]]:
    """The closed groups of opening cell i, by brute force: split the safe layouts by its number, then, in
    each group of more than one layout, open every unseen candidate cell safe in all of them and split by
    what they show, until none is left; as sorted tuples, in sorted order."""

    def close(group: list[int], unseen: int) -> list[tuple[int, ...]]:
        union = 0
        for m in group:
            union |= m
        free = [x for x in range(len(neighbours)) if unseen >> x & 1 and not union >> x & 1]
        if not free or len(group) == 1:
            return [tuple(sorted(group))]
        parts: dict[tuple[int, ...], list[int]] = {}
        for m in group:
            parts.setdefault(tuple((m & int(neighbours[x])).bit_count() for x in free), []).append(m)
        seen = sum(1 << x for x in free)
        return [g for part in parts.values() for g in close(part, unseen & ~seen)]

    first: dict[int, list[int]] = {}
    for m in layouts:
        if not m >> i & 1:
            first.setdefault((m & int(neighbours[i])).bit_count(), []).append(m)
    unseen = candidates & ~(1 << i)
    return sorted(g for group in first.values() for g in close(group, unseen))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([(3, 3), (3, 4), (2, 5), (4, 4), (4, 5)]), st.data())
def test_a_moves_outcomes_are_its_closed_groups_and_each_layout_keeps_its_label(shape, data):
    """``_outcomes`` (which moves a group between two buffers at each split) against the closure by brute
    force: the same groups, each contiguous and in order of what was shown, and the label of each layout
    (``carry``: its clique's, for a child to take) still beside it wherever its group ended."""
    geometry = Geometry(BoardSize(*shape))
    neighbours = np.array(geometry.neighbours, np.int64)
    mines = data.draw(st.integers(1, 4))
    solver = OptimalSolver(geometry.size, mines, "python")
    every = solver.all_layouts()
    layouts = sorted(data.draw(st.sets(st.sampled_from(every), min_size=1, max_size=60)))
    i = data.draw(st.integers(0, geometry.n - 1))
    candidates = data.draw(st.sampled_from([geometry.full, data.draw(st.integers(0, geometry.full))]))
    state = np.array(layouts, np.int64)
    n = len(state)
    tags = np.array(data.draw(st.permutations(range(n))), np.int64)
    meta = np.zeros(META_FIELDS, np.int64)
    meta[INHERIT_ABOVE] = 0
    _, scratch, stack, small, marks, *_, spare = _scratch(n, geometry.n, meta)
    buf, ends, labels = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64)
    k, groups, passed = _outcomes(
        state, i, candidates, neighbours, buf, ends, scratch, marks, stack, small, tags, labels, spare, True
    )
    # the work: every layout passed by the first split, each group a segment at least, each layout split at most
    # once a cell, and as many segments
    assert n + SEGMENT_WORK * groups <= passed <= (geometry.n + 1) * n * (1 + SEGMENT_WORK)
    found = [tuple(int(m) for m in buf[(ends[g - 1] if g else 0) : ends[g]]) for g in range(groups)]
    assert k == sum(1 for m in layouts if not m >> i & 1) == (ends[groups - 1] if groups else 0)
    assert all(list(g) == sorted(g) for g in found)  # each group keeps the state's order
    assert sorted(found) == _closed_groups(layouts, i, candidates, neighbours)
    label = dict(zip(layouts, tags.tolist()))
    assert [int(t) for t in labels[:k]] == [label[int(m)] for m in buf[:k]]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 6), max_size=3 * SORT_GROUPS))
def test_a_moves_groups_are_taken_by_their_bound_highest_first_ties_in_order(bounds):
    """Both ways ``_order_by_bound`` orders (insertion up to ``SORT_GROUPS`` groups, a merge sort past them)."""
    groups = len(bounds)
    arena = np.array([*bounds, *[-1] * groups], np.int64)
    _order_by_bound(arena, groups, 0, groups)
    assert arena[groups:].tolist() == sorted(range(groups), key=lambda g: -bounds[g])
