"""Latent 50/50s (``minelib.latent``) against brute force over the layouts of small positions."""

import numpy as np
import pytest

from minelib import Board, analyze
from minelib.analysis import Analyzer, ImpossiblePosition
from minelib.board import MINE, UNOPENED, neighbour_sums
from minelib.latent import BOX, PAIR, LatentFiftyFifties, mine_layouts, patterns
from minelib.oracles import layouts


def _position(rng: np.random.Generator) -> tuple[Board, int]:
    """A small position from a random layout: some safe cells opened, most mines flagged, so that
    walls of mines are common."""
    height, width = int(rng.integers(2, 5)), int(rng.integers(2, 6))
    layout = rng.random((height, width)) < rng.uniform(0.2, 0.5)
    values = np.full((height, width), UNOPENED)
    opened = ~layout & (rng.random((height, width)) < 0.5)
    values[opened] = neighbour_sums(layout)[opened]
    values[layout & (rng.random((height, width)) < 0.7)] = MINE
    return Board(values), int(layout.sum())


def _oriented(everything, kind: int, cells, gaps, flip: bool = False) -> int:
    """Brute force: the layouts with every gap a mine and the pattern in its first orientation
    (``flip``: the other one)."""
    mines, safe = (cells[:1], cells[1:2]) if kind == PAIR else (cells[:2], cells[2:])
    if flip:
        mines, safe = safe, mines
    return sum(all(c in layout for c in gaps + mines) and not any(c in layout for c in safe) for layout in everything)


def _a_fifty_fifty_or_safe(board: Board, everything, cell) -> bool:
    """Brute force: every layout with a mine on ``cell`` has a twin without it, differing only inside
    a 2x2 window around the cell, that shows the same number on every cell safe in both."""
    numbers = {layout: neighbour_sums(_grid(board, layout)) for layout in everything}
    y, x = cell
    windows = [{(y + a, x + b) for a in (dy, dy + 1) for b in (dx, dx + 1)} for dy in (-1, 0) for dx in (-1, 0)]
    for layout in everything:
        if cell not in layout:
            continue
        if not any(
            cell not in twin
            and any(layout ^ twin <= window for window in windows)
            and all(
                numbers[layout][c] == numbers[twin][c] for c in board.size.cells() if c not in layout and c not in twin
            )
            for twin in everything
        ):
            return False
    return True


def _grid(board: Board, layout) -> np.ndarray:
    grid = np.zeros(board.values.shape, bool)
    for c in layout:
        grid[c] = True
    return grid


def test_a_walled_pair_is_found_counted_and_a_fifty_fifty():
    """Two cells on the bottom edge walled by a flag: a 50/50 nothing can resolve."""
    board = Board.from_text("..111\n2.2..\n.4F4.\n..F.1")
    analysis = analyze(board, 7)
    latent = LatentFiftyFifties(Analyzer(7), board, analysis)
    pair = [(kind, cells, gaps) for kind, cells, gaps, _ in latent.found if kind == PAIR]
    assert pair == [(PAIR, (15, 16), ())]
    assert latent.found[0][3] == _oriented(list(layouts(board, 7)), PAIR, [(3, 0), (3, 1)], []) == 6
    assert latent.pseudo() == [(3, 0), (3, 1)]
    assert latent.influence((3, 0)) == mine_layouts(analysis, (3, 0)) == 6
    assert latent.influence((0, 0)) == 0


def test_the_patterns_of_a_board():
    kinds, members, walls = patterns(Board.from_text("...\n...").size)
    assert (kinds == PAIR).sum() == 2 * 2 + 3 and (kinds == BOX).sum() == 2  # side by side, above and below
    first = members.tolist().index([0, 1, -1, -1])
    assert sorted(c for c in walls[first].tolist() if c < 6) == [2, 5]  # the column right of the pair


def test_latent_fifty_fifties_agree_with_brute_force():
    """On 300 random small positions: every pattern found has the tally brute force gives, its twin
    orientation the same count; no pattern the rule admits with layouts is missed; influences stay
    within a cell's mine and safe layouts; every pseudo cell is a 50/50 or safe."""
    rng = np.random.default_rng(2026)
    found = pseudo = 0
    for _ in range(300):
        board, mines = _position(rng)
        try:
            analysis = analyze(board, mines)
        except ImpossiblePosition:
            continue
        everything = list(layouts(board, mines))
        latent = LatentFiftyFifties(Analyzer(mines), board, analysis)
        at = board.size.cell_at
        seen = set()
        for kind, cells, gaps, tally in latent.found:
            cells_, gaps_ = [at(c) for c in cells], [at(c) for c in gaps]
            twin = _oriented(everything, kind, cells_, gaps_, flip=True)
            assert tally == _oriented(everything, kind, cells_, gaps_) == twin
            seen.add(cells)
        kinds, members, walls = patterns(board.size)
        values = np.append(board.values.ravel(), MINE)
        for kind, row, wall in zip(kinds.tolist(), members.tolist(), walls.tolist()):
            cells = tuple(c for c in row if c >= 0)
            gaps = [c for c in wall if values[c] == UNOPENED]
            if (
                all(values[c] == UNOPENED for c in cells)
                and not any(values[c] >= 0 for c in wall)
                and len(gaps) <= (1 if kind == PAIR else 0)
                and _oriented(everything, kind, [at(c) for c in cells], [at(c) for c in gaps])
            ):
                assert cells in seen
        for cell in board.unopened_cells():
            mine = mine_layouts(analysis, cell)
            assert 0 <= latent.influence(cell) <= min(mine, analysis.count - mine)
        for cell in latent.pseudo():
            assert _a_fifty_fifty_or_safe(board, everything, cell)
            pseudo += 1
        found += len(latent.found)
    assert found > 50 and pseudo > 10  # the positions do exercise both


def test_the_oracle_can_say_no():
    board = Board.from_text("1..\n...\n...")  # (2, 1) tells (0, 1) from (1, 1); (0, 2) from (1, 0)
    assert not _a_fifty_fifty_or_safe(board, list(layouts(board, 1)), (0, 1))
    board = Board.from_text("1.\n..")  # on two rows nothing tells the three cells apart
    assert _a_fifty_fifty_or_safe(board, list(layouts(board, 1)), (0, 1))


@pytest.mark.parametrize("influence", [0, 1])
def test_the_player_guesses_a_pseudo_fifty_fifty_first(influence):
    """With ``influence`` the two-step player (forced pairs and the exact endgame off) guesses a cell
    of the walled pair at once; without it, elsewhere."""
    from minelib.players import TwoStepPlayer

    board = Board.from_text("..111\n2.2..\n.4F4.\n..F.1")
    player = TwoStepPlayer(influence=influence, forced=False, endgame_layouts=0, endgame_compiled=0)
    move = player.recommend(board, 7)
    assert (move.cell in {(3, 0), (3, 1)}) == bool(influence)
