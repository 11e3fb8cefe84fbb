"""The optimal solver against plain minimax, the article's table, and its errors."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from minelib import endgame, kernel, optimal
from minelib.analysis import ImpossiblePosition, analyze
from minelib.board import MINE, UNOPENED, Board, BoardSize, neighbour_sums
from minelib.endgame import EndgameSearch
from minelib.game import FIRST_CLICK_RULES
from minelib.optimal import OptimalSolver, solve
from minelib.oracles import minimax_first_moves, minimax_position
from tests.conftest import positions

# Article 000's table: exact success probability with 2 mines, first click may hit a mine.
ARTICLE_TABLE = {
    "1x3": "1/3",
    "1x4": "1/3",
    "1x5": "2/5",
    "1x6": "8/15",
    "1x7": "4/7",
    "1x8": "17/28",
    "1x9": "23/36",
    "2x2": "1/6",
    "2x3": "1/3",
    "2x4": "9/28",
    "3x3": "2/3",
    "2x5": "13/45",
}

TINY = [(h, w, k) for h in (1, 2, 3) for w in range(h, 5) if h * w <= 8 for k in range(1, h * w)]
ENGINES = ["python", "compiled"]


@pytest.mark.parametrize("size, expected", ARTICLE_TABLE.items())
def test_article_table_with_two_mines(size, expected):
    assert str(solve(size, 2).probability) == expected


def test_every_first_click_ties_on_2x5_with_2_mines():
    result = solve("2x5", 2)
    assert result.best_moves == BoardSize(2, 5).cells()
    assert set(result.move_values.values()) == {Fraction(13, 45)}


@pytest.mark.parametrize("rule", FIRST_CLICK_RULES)
@pytest.mark.parametrize("height, width, mines", TINY, ids=lambda v: str(v))
def test_every_first_click_agrees_with_minimax(height, width, mines, rule):
    size = BoardSize(height, width)
    expected = minimax_first_moves(size, mines, rule)
    for engine in ENGINES:
        result = solve(size, mines, rule, engine)
        assert result.move_values == expected, engine
        assert result.probability == max(expected.values())
        assert result.best_moves == [c for c in size.cells() if expected[c] == result.probability]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("height, width, mines", [(h, w, k) for h, w, k in TINY if h > 1 and k <= 4])
def test_leaving_dead_cells_out_agrees_with_minimax(height, width, mines, engine):
    size = BoardSize(height, width)
    for rule in FIRST_CLICK_RULES:
        result = OptimalSolver(size, mines, engine, dead=True).first_move(rule)
        assert result.move_values == minimax_first_moves(size, mines, rule), rule


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("size, mines, rule", [("3x4", 4, "safe"), ("4x4", 5, "safe"), ("3x5", 6, "none")])
def test_leaving_dead_cells_out_changes_nothing_but_the_work(size, mines, rule, engine):
    plain = OptimalSolver(size, mines, engine).first_move(rule)
    reduced = OptimalSolver(size, mines, engine, dead=True).first_move(rule)
    assert reduced.move_values == plain.move_values
    assert reduced.states < plain.states  # states that differ only in dead cells are one


def test_a_state_without_a_living_cell_wins_one_layout():
    # 2x2 with 2 mines: (0, 0), if safe, shows 2 in all three layouts left, and each other cell is safe in
    # one of them only: nothing can be learned but by dying, so no cell is living and one layout is won
    solver = OptimalSolver("2x2", 2, "python", dead=True)
    states = solver.engine.outcomes(solver.all_layouts(), 0, solver.geometry.full)
    assert {living for living, _ in states} == {0}
    assert [solver.engine.wins(state) for state in states] == [1] * len(states)


@st.composite
def small_positions(draw):
    """A position on a board of at most 8 cells, from a real layout, with a few cells opened."""
    height, width = draw(st.sampled_from([(2, 2), (2, 3), (2, 4), (3, 3), (1, 6)]))
    cells = height * width
    mines = draw(st.integers(1, cells - 2))
    mine_cells = draw(st.lists(st.integers(0, cells - 1), min_size=mines, max_size=mines, unique=True))
    layout = np.zeros(cells, dtype=bool)
    layout[mine_cells] = True
    layout = layout.reshape(height, width)
    opened = np.array(draw(st.lists(st.booleans(), min_size=cells, max_size=cells))).reshape(height, width)
    opened &= ~layout
    values = np.full((height, width), UNOPENED)
    values[opened] = neighbour_sums(layout)[opened]
    return Board(values), mines


@settings(max_examples=60)
@given(small_positions())
def test_positions_agree_with_minimax(position):
    board, mines = position
    if len(board.unopened_cells()) == mines:  # won already (tests/test_exact_contract.py)
        return
    expected = minimax_position(board, mines)
    for engine in ENGINES:
        result = OptimalSolver(board.size, mines, engine).position(board)
        assert result.move_values == expected, engine
        result = OptimalSolver(board.size, mines, engine, dead=True).position(board)
        assert result.move_values == expected, (engine, "dead")
        assert result.probability == max(expected.values())


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("height, width, mines", [(2, 4, 3), (3, 3, 3), (3, 4, 3), (2, 5, 4)])
def test_symmetry_changes_nothing_but_the_work(height, width, mines, engine):
    plain = OptimalSolver(BoardSize(height, width), mines, engine, symmetry=False).first_move("safe")
    reduced = OptimalSolver(BoardSize(height, width), mines, engine).first_move("safe")
    assert plain.move_values == reduced.move_values
    assert reduced.states <= plain.states


def test_a_known_safe_cell_is_among_the_best_moves():
    board = Board.from_text("1..\n...\n...")  # 3x3, one mine among the 1's three neighbours: far cells safe
    result = OptimalSolver(board.size, 1).position(board)
    assert result.probability == result.move_values[(2, 2)] == max(result.move_values.values())
    assert result.move_values[(1, 1)] < result.probability


@pytest.mark.parametrize("mines", [1, 2, 3])
def test_3x3_agrees_with_minimax_and_the_rules_help_in_order(mines):
    size = BoardSize(3, 3)
    results = {rule: solve(size, mines, rule) for rule in FIRST_CLICK_RULES}
    for rule, result in results.items():
        assert result.move_values == minimax_first_moves(size, mines, rule)
    assert results["none"].probability < results["safe"].probability <= results["zero"].probability
    # with the zero rule the centre cannot be clicked: its opening would be the whole board
    assert results["zero"].move_values[(1, 1)] == 0


@pytest.mark.parametrize(
    "args, message",
    [(("3x3", 9), "leave no safe cell"), (("3x3", 10), "do not fit"), (("3x", 1), "HxW"), (("0x3", 1), "height")],
)
def test_bad_boards_are_rejected(args, message):
    with pytest.raises(ValueError, match=message):
        OptimalSolver(*args)


def test_unknown_rule_and_bad_positions_are_rejected():
    solver = OptimalSolver("2x3", 2)
    with pytest.raises(ValueError, match="unknown first-click rule 'corner'"):
        solver.first_move("corner")
    with pytest.raises(ValueError, match="the position is 2x2 but the solver is for 2x3"):
        solver.position("..\n..")
    with pytest.raises(ImpossiblePosition):
        solver.position("3..\n...")
    # every unopened cell a mine: won, unless the numbers cannot be so
    assert EndgameSearch(1).values(Board.from_text("1.\n11")) == {}
    with pytest.raises(ImpossiblePosition):
        EndgameSearch(3).values(Board.from_text("1.\n.."))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_tiny_memory_bound_changes_nothing_but_the_work(engine):
    roomy = OptimalSolver("3x4", 3, engine).first_move("safe")
    tight = OptimalSolver("3x4", 3, engine, max_states=5)
    assert tight.first_move("safe").move_values == roomy.move_values
    assert tight.engine.clears > 0


def test_the_python_memo_never_holds_more_than_its_bound():
    # every key counts, the aliases too: at most 2 * max_states of them
    solver = OptimalSolver("3x4", 3, "python", max_states=5)
    sizes = []
    click = solver.engine._make_room

    def watched():
        click()
        sizes.append(len(solver.engine.memo) + len(solver.engine.aliases))

    solver.engine._make_room = watched
    solver.first_move("safe")
    assert sizes and max(sizes) < 2 * 5


@pytest.mark.parametrize("rule, layouts", [("none", 495), ("safe", 330), ("zero", 15)])
def test_the_layouts_a_first_move_is_over(rule, layouts):
    # 3x4 with 4 mines: every layout; those with the clicked cell safe; those with an edge cell's
    # neighbourhood safe (the best zero-rule click, (0, 1), has 5 neighbours: comb(12 - 6, 4))
    result = solve("3x4", 4, rule)
    assert result.layouts == layouts
    assert (result.probability * layouts).denominator == 1


def test_boards_too_large_to_enumerate_are_refused_at_once():
    with pytest.raises(ValueError, match=r"16x30 with 99 mines has .* possible layouts"):
        OptimalSolver("16x30", 99).first_move()
    with pytest.raises(ValueError, match=r"the position has .* possible layouts"):
        OptimalSolver("8x8", 20).position(Board.unopened(BoardSize(8, 8)))


@given(positions(max_height=4, max_width=5))
def test_consistent_layouts_match_brute_force(position):
    from minelib.layouts import Geometry, consistent_layouts
    from minelib.oracles import layouts

    board, mines = position
    geometry = Geometry(board.size)
    expected = sorted(sum(geometry.bit(c) for c in found) for found in layouts(board, mines))
    if not expected:
        with pytest.raises(ImpossiblePosition):
            consistent_layouts(board, mines, geometry)
        return
    assert list(consistent_layouts(board, mines, geometry)) == expected


def _local_to_board(local, ids, flags):
    return sorted(flags | sum(1 << i for k, i in enumerate(ids) if x >> k & 1) for x in local.tolist())


@given(positions(max_height=4, max_width=5))
def test_local_layouts_are_the_consistent_layouts_on_the_unopened_cells(position):
    from minelib.layouts import Geometry, consistent_layouts, local_layouts

    board, mines = position  # from a real layout: never impossible
    geometry = Geometry(board.size)
    ids = [board.size.cell_id(c) for c in board.unopened_cells()]
    flags = sum(geometry.bit(c) for c in board.mine_cells())
    local = local_layouts(board, mines, ids, analyze(board, mines).count)
    assert _local_to_board(local, ids, flags) == list(consistent_layouts(board, mines, geometry))


@given(
    masks=st.lists(st.integers(0, 2**62 - 1), max_size=30),
    targets=st.lists(st.integers(-1, 62), min_size=62, max_size=62),
)
def test_moved_bits_moves_each_bit_to_its_target_and_sorts(masks, targets):
    """``moved_bits`` (the endgame's layouts cut to its graph's cells) against bits moved one by one."""
    from minelib.layouts import moved_bits

    def moved(m: int) -> int:
        image = 0
        for k, t in enumerate(targets):
            if t >= 0 and m >> k & 1:
                image |= 1 << t
        return image

    expected = sorted(map(moved, masks))
    assert moved_bits(np.array(masks, np.int64), np.array(targets, np.int64)).tolist() == expected


@given(positions(max_height=4, max_width=5))
def test_undecided_graph_is_the_endgame_cut_made_in_python(position):
    """``undecided_graph`` (the endgame search's start, compiled) against the same cut made cell by cell:
    the cells not a mine in every layout, the layouts on them, and who touches whom among them; and
    ``endgame_start``, the layouts and all that in one call."""
    from minelib.game import neighbour_ids, neighbour_table
    from minelib.layouts import endgame_start, local_layouts, undecided_graph

    board, mines = position
    ids = [board.size.cell_id(c) for c in board.unopened_cells()]
    local = local_layouts(board, mines, ids, analyze(board, mines).count)
    always = [all(m >> k & 1 for m in local.tolist()) for k in range(len(ids))]
    undecided = [i for k, i in enumerate(ids) if not always[k]]
    graph = {i: g for g, i in enumerate(undecided)}
    cut = sorted(sum(1 << graph[i] for k, i in enumerate(ids) if m >> k & 1 and i in graph) for m in local.tolist())
    around = neighbour_ids(board.size)
    masks = [sum(1 << graph[j] for j in around[i] if j in graph) for i in undecided]
    found, found_cut, found_masks = undecided_graph(
        local, np.array(ids, np.int64), *neighbour_table(board.size), board.size.n_cells
    )
    assert (found.tolist(), found_cut.tolist(), found_masks.tolist()) == (undecided, cut, masks)
    fused = endgame_start(board, mines, np.array(ids, np.int64), len(local))  # the same in one call
    assert [part.tolist() for part in fused] == [local.tolist(), undecided, cut, masks]


def test_local_layouts_on_larger_boards_and_their_limits():
    from minelib.layouts import Geometry, consistent_layouts, local_layouts

    rng = np.random.default_rng(11)
    for _ in range(40):  # 8x9 with 12 mines, opened at random until at most 45 cells are unopened
        layout = np.zeros(72, bool)
        layout[rng.choice(72, 12, replace=False)] = True
        numbers = neighbour_sums(layout.reshape(8, 9)).ravel()
        values = np.full(72, UNOPENED)
        for c in rng.permutation(np.flatnonzero(~layout))[: int(rng.integers(27, 61))]:
            values[c] = numbers[c]
        flagged = np.flatnonzero(layout)[: int(rng.integers(0, 4))]
        values[flagged] = MINE
        board = Board(values.reshape(8, 9))
        ids = [board.size.cell_id(c) for c in board.unopened_cells()]
        expected = consistent_layouts(board, 12, Geometry(board.size))
        local = local_layouts(board, 12, ids, len(expected))
        assert _local_to_board(local, ids, sum(1 << int(c) for c in flagged)) == list(expected)
    board = Board.unopened(BoardSize(8, 8))
    with pytest.raises(ValueError, match="64 unopened cells do not fit in a 63-bit layout"):
        local_layouts(board, 1, list(range(64)), 64)
    one = Board.from_text("1..")  # one layout: the mine beside the 1
    with pytest.raises(AssertionError, match="found 1 layouts where analyze counts 3"):
        local_layouts(one, 1, [1, 2], 3)
    with pytest.raises(AssertionError, match="found more layouts where analyze counts 0"):
        local_layouts(one, 1, [1, 2], 0)


def test_consistent_layouts_follow_the_layouts_not_the_placements():
    from minelib.layouts import Geometry, consistent_layouts

    board = Board.from_text("\n".join(["3........3"] + ["." * 10] * 5))  # comb(58, 6) = 40,475,358 placements
    found = consistent_layouts(board, 6, Geometry(board.size))
    assert len(found) == 1  # the two 3s hold all six mines


# --- the endgame search: a position searched on its undecided cells alone -------------------


@st.composite
def opened_in_turn(draw):
    """Positions of one game on a board of at most 3x4: a real layout, its safe cells opened one after
    another in a drawn order (some mines flagged on the way): [(board, mines), ...], each with more open."""
    height, width = draw(st.integers(2, 3)), draw(st.integers(2, 4))
    cells = height * width
    layout = np.array(draw(st.lists(st.booleans(), min_size=cells, max_size=cells))).reshape(height, width)
    assume(0 < layout.sum() < cells - 1)
    numbers = neighbour_sums(layout)
    safe = [tuple(c) for c in np.argwhere(~layout)]
    order = draw(st.permutations(safe))[: draw(st.integers(1, len(safe) - 1))]
    flags = draw(st.lists(st.booleans(), min_size=cells, max_size=cells))
    values = np.full((height, width), UNOPENED)
    found = []
    for step, cell in enumerate(order):
        values[cell] = numbers[cell]
        if flags[step]:
            y, x = divmod(draw(st.integers(0, cells - 1)), width)
            if layout[y, x]:
                values[y, x] = MINE
        found.append((Board(values.copy()), int(layout.sum())))
    return found


@pytest.mark.parametrize("dead", [True, False])
@settings(max_examples=60, deadline=None)
@given(game=opened_in_turn())
def test_the_endgame_search_agrees_with_the_search_of_the_whole_board(game, dead):
    """Cut to its undecided cells, a position has every move value of the whole board's search, call after
    call of one game (the search keeps its graph and memo while the undecided cells stay within it), with
    the dead cells left out of its states (the default) or kept."""
    search = EndgameSearch(game[0][1], dead=dead)
    for board, mines in game:
        expected = OptimalSolver(board.size, mines, "python", symmetry=False).position(board).move_values
        assert search.values(board) == expected


def _best_cells(board: Board, mines: int, values: dict) -> dict:
    """The cells of ``values`` that reach the best value, cells that are a mine in every layout left out."""
    analysis = analyze(board, mines)
    living = {c: v for c, v in values.items() if analysis.probability(c) != 1}
    top = max(living.values())
    return {c: v for c, v in living.items() if v == top}


@pytest.mark.parametrize("dead", [True, False])
@settings(max_examples=60, deadline=None)
@given(game=opened_in_turn())
def test_the_endgame_search_for_the_best_move_finds_every_best_cell_and_its_value(game, dead):
    """``best=True`` answers the best cells alone, with their exact value, call after call of one game,
    in a search that also answers every value between them (the memo keeps the capped searches' bounds
    beside exact values, and neither answer may take one for the other)."""
    search = EndgameSearch(game[0][1], dead=dead)
    for board, mines in game:
        expected = OptimalSolver(board.size, mines, "python", symmetry=False).position(board).move_values
        analysis = analyze(board, mines)
        if not expected or all(analysis.probability(c) == 1 for c in expected):
            continue  # won: nothing to choose
        # the layout count given, as a player's analysis gives it, or counted by the search
        assert search.values(board, best=True, count=analysis.count) == _best_cells(board, mines, expected)
        assert search.values(board) == expected


@pytest.mark.parametrize("dead", [True, False])
@settings(max_examples=30, deadline=None)
@given(game=opened_in_turn())
def test_the_endgame_search_on_the_python_engine_agrees_with_the_whole_board(game, dead):
    """Past 63 undecided cells the search runs on the Python engine (forced here on any board): the
    same values, the best cells alone too, with dead cells left out or kept."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(endgame, "COMPILED_CELLS", 0)
        search = EndgameSearch(game[0][1], dead=dead)
        for board, mines in game:
            expected = OptimalSolver(board.size, mines, "python", symmetry=False).position(board).move_values
            assert search.values(board) == expected
            assert search._engine is None or search._engine.name == "python"
            if expected and any(analyze(board, mines).probability(c) != 1 for c in expected):
                assert search.values(board, best=True) == _best_cells(board, mines, expected)


def _one_step(board: Board, mines: int) -> int:
    """The most work one step of a search can add past its budget (it stops before the next step): a move's
    splits pass each layout at most once a cell (the clicked one, then one a cell of the cascade), as many segments
    (``SEGMENT_WORK`` each), and the cells it leaves living are looked for once a cell; or a cover's pass (here the
    layouts: these small boards have fewer than 64 cliques)."""
    cells = len(board.unopened_cells())
    return analyze(board, mines).count * ((cells + 1) * (1 + kernel.SEGMENT_WORK) + cells)


@pytest.mark.parametrize("engine", ["compiled", "python"])
@settings(max_examples=30, deadline=None)
@given(game=opened_in_turn())
def test_an_endgame_search_stops_past_its_budget_and_what_it_kept_stays_exact(game, engine):
    """With a budget, the search for the best cells answers as without one when it needs at most that much
    work (``Engine.work``), and None when it needs more; a search stopped so keeps a
    memo that answers every value exactly after, call after call of the game."""
    with pytest.MonkeyPatch.context() as patch:
        if engine == "python":
            patch.setattr(endgame, "COMPILED_CELLS", 0)
        stopped, unlimited = EndgameSearch(game[0][1]), EndgameSearch(game[0][1])
        for board, mines in game:
            expected = OptimalSolver(board.size, mines, "python", symmetry=False).position(board).move_values
            if not expected or all(analyze(board, mines).probability(c) == 1 for c in expected):
                continue
            fresh = EndgameSearch(mines)
            best = fresh.values(board, best=True)
            assert best == _best_cells(board, mines, expected)
            assert EndgameSearch(mines).values(board, best=True, budget=fresh.work) == best
            if fresh.work > 1:
                assert EndgameSearch(mines).values(board, best=True, budget=fresh.work - 1) is None
            before = stopped.work
            answer = stopped.values(board, best=True, budget=max(1, fresh.work // 2))
            assert answer is None or answer == best
            assert stopped.work - before <= max(1, fresh.work // 2) + _one_step(board, mines)
            assert stopped.values(board) == expected == unlimited.values(board)
            assert stopped.values(board, best=True) == best


def test_an_endgame_budget_is_a_number_of_layouts_for_the_best_cells_alone():
    board = Board.from_text(".....\n.....\n.1...\n.....")
    with pytest.raises(ValueError, match="budget must be at least 0, got -1"):
        EndgameSearch(6).values(board, best=True, budget=-1)
    with pytest.raises(ValueError, match="a budget is for the search of the best cells alone"):
        EndgameSearch(6).values(board, budget=10)


@pytest.mark.parametrize("dead", [True, False])
@settings(max_examples=40, deadline=None)
@given(game=opened_in_turn())
def test_states_that_take_their_parents_cliques_everywhere_keep_every_value(game, dead):
    """Every state of more than two layouts whose parent was covered takes its parent's cliques
    (``INHERIT_ABOVE_DEFAULT`` 0, where the default is only the states of more than 1,024): its bounds
    stay bounds, so every best cell and every value is the whole board's, call after call of one game,
    with the layouts cut to the cells that still matter (``dead``, the labels sorted with them) or not."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kernel, "INHERIT_ABOVE_DEFAULT", 0)
        search = EndgameSearch(game[0][1], dead=dead)
        for board, mines in game:
            expected = OptimalSolver(board.size, mines, "python", symmetry=False).position(board).move_values
            if not expected or all(analyze(board, mines).probability(c) == 1 for c in expected):
                continue
            assert search.values(board, best=True) == _best_cells(board, mines, expected)
            assert search.values(board) == expected


@pytest.mark.parametrize("height, width, mines", [(h, w, k) for h, w, k in TINY if h > 1 and k <= 4])
def test_whole_boards_whose_states_take_their_parents_cliques_agree_with_minimax(height, width, mines):
    size = BoardSize(height, width)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kernel, "INHERIT_ABOVE_DEFAULT", 0)
        for rule in FIRST_CLICK_RULES:
            result = OptimalSolver(size, mines, "compiled", dead=True).first_move(rule)
            assert result.move_values == minimax_first_moves(size, mines, rule), rule


def test_big_states_take_their_parents_cliques_for_less_work_and_the_same_answer():
    """3,696 layouts: the root is covered, and its children of more than 1,024 layouts take its cliques
    instead of a cover of their own (``INHERIT_ABOVE_DEFAULT`` -1: never)."""
    board = Board.from_text(".....\n.....\n.1...\n.....")
    taken = EndgameSearch(6)
    best = taken.values(board, best=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kernel, "INHERIT_ABOVE_DEFAULT", -1)
        covered = EndgameSearch(6)
        assert covered.values(board, best=True) == best
    assert taken.work < covered.work


def test_a_moves_outcomes_bounded_by_the_cliques_they_would_take_solve_fewer_states_for_the_same_answer():
    """3,696 layouts: the outcomes of a move of the covered root, each bounded as soon as it is split by the
    cliques it would take (``SIBLINGS_DEFAULT`` 1), against bounded by the fewest mines until each is searched (0).
    The property tests above run with it on, in every state that takes its parent's cliques."""
    board = Board.from_text(".....\n.....\n.1...\n.....")
    at_split = EndgameSearch(6)
    best, every = at_split.values(board, best=True), EndgameSearch(6).values(board)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kernel, "SIBLINGS_DEFAULT", 0)
        when_searched = EndgameSearch(6)
        assert when_searched.values(board, best=True) == best
        assert EndgameSearch(6).values(board) == every
    assert at_split.solved < when_searched.solved


def test_the_endgame_search_reuses_its_memo_through_a_game():
    first = Board.from_text(".....\n.....\n.1...\n.....")
    then = Board.from_text(".....\n.....\n.1...\n0....")  # the best move shows its number
    search = EndgameSearch(6)
    values = search.values(first)
    assert max(values, key=lambda c: (values[c], c)) == (3, 0)
    before = search.solved
    assert search.values(then) == EndgameSearch(6).values(then)
    fresh = EndgameSearch(6)
    fresh.values(then)
    assert search.solved - before < fresh.solved / 10  # met in the first search: looked up


def test_the_endgame_search_grows_its_memo_with_the_layouts_and_stays_exact_in_any_memo():
    """100 states a layout up to ``ENDGAME_STATES``, then ``STATES_PER_LAYOUT`` a layout, at most ``max_states``
    (here with small constants); the values are the same in a memo that fills and clears again and again."""
    board = Board.from_text(".....\n.....\n.1...\n.....")  # 3,696 layouts on 12 undecided cells
    count = analyze(board, 6).count
    expected = EndgameSearch(6).values(board)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(endgame, "ENDGAME_STATES", 1000)
        patch.setattr(endgame, "STATES_PER_LAYOUT", 2)
        cases = [(board, 6, 10**9, 2 * count), (board, 6, 5000, 5000), (Board.from_text("..\n1."), 1, 10**9, 300)]
        for position, mines, max_states, size in cases:
            search = EndgameSearch(mines, max_states=max_states)
            search.values(position)
            assert search._engine is not None and search._engine.max_states == size
        assert EndgameSearch(6, max_states=10**9).values(board) == expected
    tight = EndgameSearch(6, max_states=8)
    assert tight.values(board) == expected and tight.values(board, best=True) == _best_cells(board, 6, expected)
    assert tight._engine is not None and tight._engine.clears > 0


def test_the_endgame_search_takes_any_board_and_says_when_it_is_too_wide():
    """71 undecided cells (the one mine is next to the 1, the other cells are safe but unopened): past
    the compiled engine, searched by the Python engine on the graph, or refused (None) when told to
    stay within 63."""
    board = Board.from_text("\n".join(["." * 8] * 4 + ["....1..."] + ["." * 8] * 4))
    expected = OptimalSolver(board.size, 1, "python", symmetry=False).position(board).move_values
    assert len(expected) == 71 and expected[(0, 0)] == 1 and expected[(4, 3)] == Fraction(7, 8)
    assert EndgameSearch(1).values(board) == expected
    assert EndgameSearch(1).values(board, cells=70) is None
    assert EndgameSearch(1).values(board, cells=71) == expected
    with pytest.raises(ValueError, match="cells must be at least 0, got -1"):
        EndgameSearch(1).values(board, cells=-1)  # (was None: "more than -1 cells undecided")
    assert EndgameSearch(1).values(board, best=True) == _best_cells(board, 1, expected)  # the Python engine's


def test_the_strategy_tree_goes_as_deep_as_asked_and_refuses_no_depth():
    solver = OptimalSolver("2x3", 1)
    one, two = optimal.strategy_tree(solver, depth=1), optimal.strategy_tree(solver, depth=2)
    assert one == ["open (0, 0)  (wins 1/2)"] and two[0] == one[0] and len(two) > 1
    for depth in (0, -1):
        with pytest.raises(ValueError, match=f"depth must be at least 1, got {depth}"):
            optimal.strategy_tree(solver, depth=depth)
