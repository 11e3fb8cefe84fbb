"""minelib.analyze against brute-force enumeration of layouts, and its errors."""

import contextlib
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from minelib.analysis import Analyzer, ImpossiblePosition, Outlook, analyze, lowest_of, reference_analyze
from minelib.board import MINE, UNOPENED, Board, BoardSize, to_constraints
from minelib.counters import FrontierCounter
from minelib.game import Game
from minelib.oracles import mine_counts
from minelib.problems import midgame_positions
from tests.conftest import position_pairs, positions


def assert_matches_brute_force(board, mines):
    count, per_cell = mine_counts(board, mines)
    result = analyze(board, mines)
    assert result.count == count
    for cell in board.size.cells():
        value = board.values[cell]
        expected = None if value >= 0 else Fraction(per_cell[cell], count)
        assert result.probability(cell) == expected, cell
        assert type(result.probability(cell)) in (Fraction, type(None))
    unopened = board.unopened_cells()
    assert result.certain_safe == [c for c in unopened if per_cell[c] == 0]
    assert result.certain_mines == [c for c in unopened if per_cell[c] == count]
    return result


@given(positions())
def test_analysis_agrees_with_brute_force(position):
    assert_matches_brute_force(*position)


@given(positions(), st.integers(-2, 2))
def test_other_totals_agree_with_brute_force_or_are_impossible(position, delta):
    board, mines = position
    mines = max(len(board.mine_cells()), min(board.size.n_cells, mines + delta))
    if mine_counts(board, mines)[0] == 0:
        with pytest.raises(ImpossiblePosition):
            analyze(board, mines)
    else:
        assert_matches_brute_force(board, mines)


@given(positions())
def test_probabilities_sum_to_the_mines_left(position):
    board, mines = position
    result = analyze(board, mines)
    left = mines - len(board.mine_cells())
    assert sum(result.probability(c) for c in board.unopened_cells()) == left
    risks = result.risks()  # the same, every unopened cell (no flag) row by row
    assert list(risks) == board.unopened_cells()
    assert all(p == result.probability(c) for c, p in risks.items())
    assert result.decides == bool(result.certain_safe or result.certain_mines)
    groups, shared = result.groups()  # the same once more, group by group
    width = board.size.width
    assert [divmod(c, width) for c in np.flatnonzero(groups >= 0).tolist()] == list(risks)
    assert all(shared[groups[y * width + x]] is p for (y, x), p in risks.items())  # one object per group
    assert (groups == -2).sum() == len(board.mine_cells()) and (groups == -1).sum() == (board.values >= 0).sum()


@pytest.mark.parametrize(
    "text, mines",
    [
        ("F2.\n.2.\n...", 2),  # a flag counts toward the total and its numbers
        ("0..\n...\n...", 1),  # a zero with unopened neighbours makes them safe
        ("1....\n.....\n.....", 3),  # most cells are next to no number
        ("11..\n....\n....", 2),  # the total decides cells beyond the numbers
        ("11..\n....\n....", 1),  # ... and with one mine the far cells are safe
        ("1.1\n...\n1.1", 2),
        ("....\n.22.\n....", 4),
    ],
)
def test_worked_positions_agree_with_brute_force(text, mines):
    assert_matches_brute_force(Board.from_text(text), mines)


def test_the_total_changes_cells_next_to_no_number():
    board = Board.from_text("11..\n....\n....")
    far = (2, 3)
    assert analyze(board, 1).probability(far) == 0
    assert analyze(board, 2).probability(far) == Fraction(1, 6)
    assert analyze(board, 3).probability(far) == Fraction(2, 6)


def test_flags_are_mines_and_opened_cells_have_no_probability():
    result = analyze("1F\n.1", 1)
    assert result.probability((0, 1)) == 1 and result.probability((0, 0)) is None
    assert result.certain_safe == [(1, 0)] and result.certain_mines == []


def test_json_uses_exact_fraction_strings():
    data = analyze("..1F\n..11\n..00", 3).to_json()
    assert data == {
        "count": 3,
        "probabilities": [["2/3", "0", None, "1"], ["2/3", "0", None, None], ["2/3", "0", None, None]],
        "safe": [[0, 1], [1, 1], [2, 1]],
        "mines": [],
    }


def test_text_grid_marks_certain_cells():
    text = analyze("..1F\n..11\n..00", 3).to_text()
    assert "3 mine layouts" in text and "66.7" in text and "safe" in text and "(1)" in text
    assert "certainly safe: (0,1) (1,1) (2,1)" in text
    assert analyze("1.\n..", 1).to_text().startswith("3 mine layouts fit this 2x2 position with 1 mine.\n")
    assert analyze("1.", 1).to_text().startswith("1 mine layout fits this 1x2 position with 1 mine.\n")


@pytest.mark.parametrize("seed", range(3))
def test_expert_positions_are_consistent(seed):
    """On real 16x30/99 positions: the count matches FrontierCounter, probabilities sum to the mines left,
    and a certainly safe cell made a mine leaves no layout."""
    for board in midgame_positions(BoardSize(16, 30), 99, np.random.default_rng(seed)):
        result = analyze(board, 99)
        assert result.count == FrontierCounter().count(*to_constraints(board, 99)[:2])
        assert sum(result.probability(c) for c in board.unopened_cells()) == 99 - len(board.mine_cells())
        for cell in result.certain_safe[:3]:
            assert FrontierCounter().count(*to_constraints(board.with_value(cell, MINE), 99)[:2]) == 0


@pytest.mark.parametrize("seed", range(4))
def test_certain_cells_are_right_in_the_hidden_layout(seed):
    """Seeded expert games played on certain cells only: every certainly safe cell is safe and every
    certain mine is a mine in the game's hidden layout."""
    rng = np.random.default_rng([17, seed])
    game = Game(BoardSize(16, 30), 99, "zero", seed=rng)
    game.open((8, 15))
    layout, checked = game.layout(), {"safe": 0, "mines": 0}
    while not game.over:
        result = analyze(game.board, 99)
        if not (result.certain_safe or result.certain_mines):
            break
        for cell in result.certain_mines:
            assert layout[cell], cell
            game.flag(cell)
        for cell in result.certain_safe:
            assert not layout[cell], cell
            if game.value(cell) == UNOPENED and not game.over:
                game.open(cell)
        checked["safe"] += len(result.certain_safe)
        checked["mines"] += len(result.certain_mines)
    assert checked["safe"] > 0 and checked["mines"] > 0 and game.status != "lost"


@pytest.mark.parametrize(
    "text, mines, message",
    [
        ("2.\n..", 1, r"cell \(0, 0\) sees every unopened cell and needs 2 mines there, but 1 mine left"),
        ("1F\nF.", 2, r"cell \(0, 0\) shows 1 but has 2 flags around it"),
        ("3.\n1.\n..", 3, r"cell \(0, 0\) shows 3 but has only 0 flags and 2 unopened cells around it"),
        ("1..1\n....", 1, "the numbers need 2 mines, but 1 mine left in all"),
        ("11\n..\n..", 5, "5 mines left to place but only 4 unopened cells"),
        ("10...\n.....", 1, r"no mine layout fits the numbers at \(0,0\) \(0,1\)"),
        ("1.1\n1.1\n...", 2, "the numbers need 1 mine, but 2 mines left in all"),
    ],
)
def test_impossible_positions_say_why(text, mines, message):
    with pytest.raises(ImpossiblePosition, match=message):
        analyze(text, mines)


def test_malformed_input_is_a_value_error():
    with pytest.raises(ValueError, match="line 2 has 1 cells"):
        analyze("..\n.", 1)
    with pytest.raises(ValueError, match="do not fit"):
        analyze("..", 3)


# --- the box engine (minelib.boxes) against the reference ----------------------------------------------


@given(positions(max_height=6, max_width=7))
def test_the_box_engine_agrees_with_the_reference(position):
    board, mines = position
    try:
        expected = reference_analyze(board, mines)
    except ImpossiblePosition:
        with pytest.raises(ImpossiblePosition):
            analyze(board, mines)
        return
    result = analyze(board, mines)
    assert result == expected
    assert (result.certain_safe, result.certain_mines) == (expected.certain_safe, expected.certain_mines)


@pytest.mark.parametrize(
    ("limits", "path"),
    [
        ({}, "_combine"),
        ({"COMBINE_LIMIT": 64}, "_combined_in_python"),
        ({"LIMB_BITS": 1}, "_in_python"),
        ({"MAX_LEAVES": 1}, "_in_python"),
    ],
    ids=["fused", "python-combination", "limbs", "dp"],
)
def test_every_path_of_the_box_engine_agrees_on_expert_positions(limits, path, monkeypatch):
    """The fused call, the Python combination of the compiled counts (products past the
    machine-integer limit), components counted again in several limbs (limbs of 1 bit: every
    component whose counts pass 1), and enumerations past their budget (the reference DP): the same layout
    counts and probabilities as the reference. ``path``: the Python function the limits send most
    positions to (with none, any Python combination: few positions take one)."""
    from minelib import boxes

    for name, value in limits.items():
        monkeypatch.setattr(boxes, name, value)
    fused = []
    monkeypatch.setattr(boxes, path, _spy(getattr(boxes, path), fused))
    rng = np.random.default_rng(11)
    positions_seen = 0
    for guesses in ("frontier", "anywhere"):
        for _ in range(4):
            for board in midgame_positions(BoardSize(16, 30), 99, rng, guesses=guesses):
                assert boxes.analyze_boxes(board.values, 99) is not None  # the engine answered, not the fallback
                assert analyze(board, 99) == reference_analyze(board, 99)
                positions_seen += 1
    assert positions_seen > 10
    if limits:  # most positions took the path under test (each is analysed twice)
        assert len(fused) > positions_seen
    else:  # most positions need no Python combination
        assert len(fused) < positions_seen / 2


def test_a_component_wider_than_a_limb_whose_counts_fit_one_is_counted_in_the_compiled_call():
    """A row of 1s between two rows of 62 unopened cells: one component of 124 cells, more than one
    limb holds at worst (8 * 2**124), but far fewer layouts. The compiled call counts it (the limbs
    past the first stay empty) and finishes, as the reference counts it; with limbs of 4 bits its
    counts pass the first, and Python counts it."""
    from minelib import boxes

    board = Board.from_text("\n".join(("." * 62, "1" * 62, "." * 62)))
    flat = boxes._flat(board.values)
    expected = reference_analyze(board, 21)
    assert 2**4 < expected.count < 2**boxes.LIMB_BITS
    for bits, status in ((boxes.LIMB_BITS, boxes.DONE), (4, boxes.IN_PYTHON)):
        answer, _ = boxes._full(flat, 3, 62, 21, boxes.MAX_LEAVES, bits, boxes.COMBINE_LIMIT)
        assert answer[0] == status
    assert analyze(board, 21) == expected


@given(positions(max_height=4, max_width=6), st.integers(-2, 2), st.randoms())
def test_the_python_path_agrees_with_the_reference_or_finds_no_layout_too(position, delta, random):
    """Every component through limbs and Python integers (limbs of 1 bit: every component whose
    counts pass 1), on positions of a real layout, with another total, and with an unopened cell
    showing any number (numbers no layout meets)."""
    from minelib import boxes

    board, mines = position
    mines = max(len(board.mine_cells()), min(board.size.n_cells, mines + delta))
    unopened = board.unopened_cells()
    if unopened and random.random() < 0.5:
        cell = random.choice(unopened)
        board = board.with_value(cell, random.randint(0, len(board.size.neighbours(cell))))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(boxes, "LIMB_BITS", 1)
        try:
            expected = reference_analyze(board, mines)
        except ImpossiblePosition:
            assert boxes.analyze_boxes(board.values, mines) is None
            return
        assert analyze(board, mines) == expected


@contextlib.contextmanager
def _patched(owner, name: str, value):
    """``owner.name`` set to ``value`` inside."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(owner, name, value)
        yield


def _spy(function, calls: list):
    def spied(*args):
        calls.append(args)
        return function(*args)

    return spied


def test_groups_share_one_fraction_and_the_grid_is_made_on_demand():
    result = analyze("..1F\n..11\n..00", 3)
    assert result.probability((0, 0)) is result.probability((2, 0))  # one group, one Fraction
    assert result.probability((0, 3)) == 1 and result.probability((1, 2)) is None
    assert result.probabilities[0] == [Fraction(2, 3), Fraction(0), None, Fraction(1)]


# --- the incremental form (Analyzer, boxes.Tracker) against analyze -------------------------------------


def _same(result, expected):
    assert result == expected
    assert (result.certain_safe, result.certain_mines) == (expected.certain_safe, expected.certain_mines)


@given(position_pairs(max_height=5, max_width=6), st.randoms(), st.integers(-1, 1))
def test_the_tracker_answers_any_change_as_analyze_does(pair, random, delta):
    """From a kept position to another of the same layout, or to a mix of the two (a few cells
    changed, or many; numbers edited, flags taken back): the same answer as a whole count,
    impossible positions included."""
    (board, mines), (target, _) = pair
    values = board.values.copy()
    cells = list(np.ndindex(values.shape))
    for cell in random.sample(cells, random.randint(1, len(cells))):
        values[cell] = target.values[cell]
    after = Board(values)
    mines = max(mines + delta, len(after.mine_cells()), len(board.mine_cells()))
    if mines > board.size.n_cells:
        return
    analyzer = Analyzer(mines)
    with contextlib.suppress(ImpossiblePosition):  # an impossible start keeps nothing
        analyzer.analyze(board)
    try:
        expected = analyze(after, mines)
    except ImpossiblePosition:
        with pytest.raises(ImpossiblePosition):
            analyzer.analyze(after)
        return
    _same(analyzer.analyze(after), expected)


def test_what_if_on_an_impossible_position_finds_nothing_whatever_was_kept_before():
    analyzer = Analyzer(2)
    board = Board.from_text("1....\n.....\n.....\n.....\n.....")
    analyzer.analyze(board)  # kept
    impossible = board.with_value((0, 0), 3)  # the 3 needs three mines, two in all
    assert analyzer.what_if(impossible, (4, 4)) == {}  # (far from the 3: no recount would see it)
    with pytest.raises(ImpossiblePosition):
        analyzer.analyze(impossible)
    found = analyzer.what_if(board, (4, 4))  # and the possible position still answers exactly
    for number in range(4):
        try:
            expected = analyze(board.with_value((4, 4), number), 2)
        except ImpossiblePosition:
            assert number not in found
            continue
        _same(found[number], expected)
    assert found


@pytest.mark.parametrize(("seed", "combine_limit"), [(0, None), (1, None), (2, None), (3, 64)])
def test_the_analyzer_follows_expert_games_and_answers_what_ifs(seed, combine_limit):
    """A game opened cell by cell (flood fills included): every step equals a whole analysis, and so
    does every number a few unopened cells may show. With a combination limit of 64 for the
    analyzer alone, it combines almost every answer in Python from the parts it counted (and keeps
    them), against whole analyses within the usual limit."""
    from minelib import boxes

    def limited():
        return contextlib.nullcontext() if combine_limit is None else _patched(boxes, "COMBINE_LIMIT", combine_limit)

    game = Game("16x30", 99, "safe", seed=seed)
    analyzer = Analyzer(99)
    rng = np.random.default_rng(seed)
    game.open((0, 0))
    steps = 0
    while game.status == "playing" and steps < 40:
        board = game.board
        with limited():
            result = analyzer.analyze(board)
        _same(result, analyze(board, 99))
        hidden = game.layout()
        unopened = board.unopened_cells()
        for cell in [unopened[i] for i in rng.choice(len(unopened), 2, replace=False)]:
            with limited():
                found = analyzer.what_if(board, cell)
            for number in range(len(board.size.neighbours(cell)) + 1):
                try:
                    expected = analyze(board.with_value(cell, number), 99)
                except ImpossiblePosition:
                    assert number not in found
                    continue
                _same(found[number], expected)
            with limited():
                _same_outlook(analyzer.outlook(board, cell, 3), found)
        if result.certain_mines and steps % 2:
            game.flag(result.certain_mines[0])
        else:
            safe = result.certain_safe or [c for c in unopened if not hidden[c]]
            game.open(safe[rng.integers(len(safe))] if not result.certain_safe else safe[0])
        steps += 1
    assert steps > 10


@given(position_pairs(max_height=5, max_width=6), st.randoms())
def test_the_positions_a_what_if_found_are_recalled_not_counted_again(pair, random):
    """A player's path: what if a cell opens, then an outlook and a what-if in each position it may
    leave (four at most: 46 positions found in all, within ``RECENT``), then back to the first. The
    tracker recalls every one of them (no count, whole or updated), and each answer is a fresh
    analyzer's."""
    (board, mines), _ = pair
    unopened = board.unopened_cells()
    if len(unopened) < 2:
        return
    analyzer = Analyzer(mines)
    cell, back = random.sample(unopened, 2)
    found = analyzer.what_if(board, cell)
    counted = []
    tracker = analyzer._tracker
    count = tracker.analyze
    tracker.analyze = lambda *args, **kwargs: counted.append(args) or count(*args, **kwargs)
    for after in list(found.values())[:4]:
        there = after.board.unopened_cells()
        if not there:
            continue
        next_cell = random.choice(there)
        expected = Analyzer(mines).what_if(after.board, next_cell)
        _same_outlook(analyzer.outlook(after.board, next_cell, 2), expected)
        further = analyzer.what_if(after.board, next_cell)
        assert further.keys() == expected.keys()
        for number, result in further.items():
            _same(result, expected[number])
    expected = Analyzer(mines).what_if(board, back)
    further = analyzer.what_if(board, back)
    assert further.keys() == expected.keys()
    for number, result in further.items():
        _same(result, expected[number])
    assert counted == []  # every position above was one the tracker had kept or found


def _same_outlook(outlook: dict[int, Outlook], analyses: dict) -> None:
    """The outlook answers exactly what the whole analyses of every number say, up to its own k."""
    assert outlook.keys() == analyses.keys()
    for number, expected in analyses.items():
        found = outlook[number]
        assert (found.count, found.decides) == (expected.count, expected.decides), number
        for k in range(found.k + 1):
            assert found.lowest_risks(k) == expected.lowest_risks(k), (number, k)


@pytest.mark.parametrize(
    "limits",
    [{}, {"COMBINE_LIMIT": 64}, {"LIMB_BITS": 1}, {"EXACT_BELOW": 1}],
    ids=["fused", "python-combination", "limbs", "python-ranks"],
)
@given(position_pairs(max_height=5, max_width=6), st.randoms(), st.integers(0, 4))
def test_the_outlook_is_the_what_if_in_brief(limits, pair, random, k):
    """``Analyzer.outlook`` against the analyses of ``what_if``, from any position kept before, on
    every path: the fused call, numbers whose products pass the machine-integer limit (their parts
    combined in Python one by one), and positions past a count's bounds (no parts kept: a whole count a
    number), and the lowest risks ranked in Python, not in the compiled call. Cells of any kind of
    neighbourhood, a k of 0 to 4 (ties in the lowest risks included)."""
    from minelib import boxes

    (before, _), (board, mines) = pair
    unopened = board.unopened_cells()
    if not unopened:
        return
    cell = random.choice(unopened)
    with pytest.MonkeyPatch.context() as patch:
        for name, value in limits.items():
            patch.setattr(boxes, name, value)
        analyzer = Analyzer(max(mines, len(before.mine_cells())))
        with contextlib.suppress(ImpossiblePosition):
            analyzer.analyze(before)  # kept (or nothing kept)
        expected = Analyzer(analyzer.mines).what_if(board, cell)
        _same_outlook(analyzer.outlook(board, cell, k), expected)


def test_the_outlooks_lowest_risks_are_ranked_in_the_compiled_call_where_floats_are_exact(monkeypatch):
    """By default every number of an expert outlook comes ranked (its ratios' integers are far below
    2**53); with ``EXACT_BELOW`` 1 none does, and Python ranks the picks to the same risks."""
    from minelib import boxes

    board = midgame_positions(BoardSize(16, 30), 99, np.random.default_rng(3), guesses="frontier")[0]
    values, cell = board.values, board.size.cell_id(board.unopened_cells()[0])
    ranked = boxes.Tracker().outlook(values, 99, cell, 3)
    assert ranked and all(b.lowest is not None and b.picks is None for b in ranked if b is not None)
    monkeypatch.setattr(boxes, "EXACT_BELOW", 1)
    picked = boxes.Tracker().outlook(values, 99, cell, 3)
    assert all(b.lowest is None and b.picks for b in picked if b is not None)
    assert [b and b.lowest for b in ranked] == [b and lowest_of(b.picks, 3) for b in picked]


@pytest.mark.parametrize(
    ("limit", "value", "path"),
    [("MAX_LEAVES", 1, "_in_python"), ("COMBINE_LIMIT", 64, "_combined_in_python")],
    ids=["count", "combination"],
)
def test_the_outlook_counts_in_python_the_numbers_the_compiled_call_declines(limit, value, path, monkeypatch):
    """Positions kept with the usual bounds, then outlooks with a budget of one layout per component
    (each number whose region has more layouts is counted again in Python; some numbers of a cell
    take that path, the others the compiled call) or a low limit on the combination's products (its
    components, counted in the compiled call, are combined in Python; most cells' numbers all take
    that path): every number answers as the whole analysis does."""
    from minelib import boxes

    declined = []
    monkeypatch.setattr(boxes, path, _spy(getattr(boxes, path), declined))
    rng = np.random.default_rng(5)
    taken = mixed = cells = 0
    for board in midgame_positions(BoardSize(16, 30), 99, rng, guesses="frontier"):
        for cell in board.unopened_cells()[::3]:
            cells += 1
            expected = Analyzer(99).what_if(board, cell)
            analyzer = Analyzer(99)
            analyzer.analyze(board)  # kept, within the usual bounds
            declined.clear()
            with monkeypatch.context() as patch:
                patch.setattr(boxes, limit, value)
                outlook = analyzer.outlook(board, cell)
            taken += bool(declined)
            mixed += 0 < len(declined) < len(outlook)
            _same_outlook(outlook, expected)
    assert mixed > 0 if limit == "MAX_LEAVES" else taken > cells / 2


def test_an_outlook_holds_only_the_lowest_risks_it_was_made_for():
    board = Board.from_text("1..\n...\n...")
    analyzer = Analyzer(2)
    outlook = analyzer.outlook(board, (2, 2), 1)
    assert outlook.keys() == analyzer.what_if(board, (2, 2)).keys()
    assert all(len(found.lowest_risks(1)) == 1 for found in outlook.values())
    with pytest.raises(ValueError, match="holds the 1 lowest risks, not 2"):
        outlook[0].lowest_risks(2)
    with pytest.raises(ValueError, match=r"cell \(0, 0\) is not an unopened cell"):
        analyzer.outlook(board, (0, 0))
    result = analyze(board, 2)
    with pytest.raises(ValueError, match=r"cell \(0, -1\) is outside the 3x3 board"):
        result.probability((0, -1))  # it would be (0, 2)'s
    with pytest.raises(TypeError, match=r"a position must be a Board .* got NoneType"):
        analyze(None, 2)
    for cell in ((3, 0), (-1, 2)):  # (-1, 2) would be (2, 2) to numpy
        with pytest.raises(ValueError, match=rf"cell \({cell[0]}, {cell[1]}\) is outside the 3x3 board"):
            analyzer.outlook(board, cell)
        with pytest.raises(ValueError, match="is outside the 3x3 board"):
            analyzer.what_if(board, cell)


def test_warm_up_loads_every_compiled_function_a_game_calls():
    # numba loads a function once per type of its arguments: a board's read-only values are another
    # type than a fresh array's, so a warm-up on fresh arrays left a load (~0.1 s each) to the first game.
    # The box engine copies them to one type (``boxes._flat``): each entry point is compiled once, not twice.
    script = """
from minelib import boxes, kernel, latent, layouts, sweep, twostep
from minelib.game import Game
from minelib.players import make_player

player = make_player("twostep")  # loads the analysis's, the sweep's, the endgame's and its own kernels
modules = (boxes, kernel, latent, layouts, sweep, twostep)
compiled = [(m, n) for m in modules for n in dir(m) if hasattr(getattr(m, n), "signatures")]
before = {(m, n): set(getattr(m, n).signatures) for m, n in compiled}  # (layouts and boxes both have _enumerate)
for seed in range(3):
    player.play(Game("16x30", 99, "safe", seed=seed), (0, 0))
print(sorted(f"{m.__name__}.{n}" for m, n in compiled if set(getattr(m, n).signatures) - before[m, n]))
entries = ("_full", "_update", "_what_if", "_outlook", "_prepare")  # the box engine's, called from Python
print(sorted(n for n in entries if len(getattr(boxes, n).signatures) != 1))
"""
    found = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert found.stdout.splitlines() == ["[]", "[]"], found.stdout
    # the ZDD player calls no kernel but the game's own: made alone, it must load that one too
    script = script.replace('make_player("twostep")', 'make_player("zdd")').replace(
        "(boxes, kernel, latent, layouts, sweep, twostep)", "(game,)"
    )
    script = script.replace("from minelib.game import Game", "from minelib import game\nfrom minelib.game import Game")
    found = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert found.stdout.splitlines()[0] == "[]", found.stdout
