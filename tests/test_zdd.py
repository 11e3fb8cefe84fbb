"""The ZDD package against plain Python sets, and its danger counts against minelib.analyze."""

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minelib.analysis import ImpossiblePosition, analyze
from minelib.players import ZDDPlayer
from minelib.zdd import BASE, EMPTY, ZDD
from tests.conftest import positions

VARS = range(6)
families = st.sets(st.frozensets(st.sampled_from(VARS)), max_size=20)


def test_node_applies_zero_suppression_and_sharing():
    zdd = ZDD()
    assert zdd.node(3, BASE, EMPTY) == BASE
    a, b = zdd.node(3, EMPTY, BASE), zdd.node(3, EMPTY, BASE)
    assert a == b and len(zdd) == 1
    zdd.assert_consistent()


def test_article_board_one_items_and_flags():
    """Article 003, board 1: P = {{a, d, e}, {c, d}}: b is safe, d is a mine."""
    a, b, c, d, e = range(5)
    zdd = ZDD()
    f = zdd.from_sets([{a, d, e}, {c, d}])
    assert set(range(5)) - zdd.items(f) == {b}
    assert zdd.flags(f) == {d}


@given(families)
def test_from_sets_round_trip_and_counts(family):
    zdd = ZDD()
    f = zdd.from_sets(family)
    assert set(zdd.sets(f)) == family
    assert zdd.count(f) == len(family)
    sizes = {}
    for s in family:
        sizes[len(s)] = sizes.get(len(s), 0) + 1
    assert zdd.sizes(f) == sizes
    zdd.assert_consistent()


@given(families, st.sets(st.sampled_from(VARS)), st.integers(-1, 7))
def test_hint_keeps_sets_with_h_elements_in_E(family, E, h):
    zdd = ZDD()
    assert set(zdd.sets(zdd.hint(zdd.from_sets(family), E, h))) == {s for s in family if len(s & E) == h}


@given(families, st.integers(0, 7), st.integers(0, 7))
def test_limit_keeps_sets_leaving_at_most_m_mines(family, b, m):
    zdd = ZDD()
    assert set(zdd.sets(zdd.limit(zdd.from_sets(family), b, m))) == {s for s in family if 0 <= b - len(s) <= m}


@given(families, st.sampled_from(VARS))
def test_onset_offset_restrict_a_variable(family, v):
    zdd = ZDD()
    f = zdd.from_sets(family)
    assert set(zdd.sets(zdd.onset(f, v))) == {s - {v} for s in family if v in s}
    assert set(zdd.sets(zdd.offset(f, v))) == {s for s in family if v not in s}


@given(families)
def test_items_flags_and_danger_by_size(family):
    zdd = ZDD()
    f = zdd.from_sets(family)
    assert zdd.items(f) == frozenset().union(*family)
    assert zdd.flags(f) == (frozenset.intersection(*family) if family else frozenset())
    expected = {}
    for s in family:
        for v in s:
            expected.setdefault(v, {}).setdefault(len(s), 0)
            expected[v][len(s)] += 1
    assert zdd.danger(f) == expected


@given(families)
def test_add_variable_doubles_the_family(family):
    zdd = ZDD()
    f = zdd.add_variable(zdd.from_sets(family), -1)
    assert set(zdd.sets(f)) == family | {s | {-1} for s in family}
    with pytest.raises(ValueError, match="must come before"):
        zdd.add_variable(zdd.from_sets([{2}]), 5)


def test_collect_deletes_only_unreachable_nodes():
    zdd = ZDD()
    keep = zdd.from_sets([set(c) for c in combinations(range(5), 2)])
    zdd.from_sets([{0, 1, 2, 3}, {4}])  # garbage
    before = set(zdd.sets(keep))
    assert zdd.collect([keep]) > 0
    zdd.assert_consistent()
    assert set(zdd.sets(keep)) == before
    assert zdd.collect([keep]) == 0


@given(positions(max_height=4, max_width=5))
def test_zdd_probabilities_agree_with_analyze(position):
    board, mines = position
    try:
        expected = analyze(board, mines)
    except ImpossiblePosition:
        return
    assert ZDDPlayer().probabilities(board, mines) == expected


def test_zdd_probabilities_agree_with_analyze_on_expert_positions():
    import numpy as np

    from minelib.board import BoardSize
    from minelib.problems import midgame_positions

    boards = midgame_positions(BoardSize(16, 30), 99, np.random.default_rng(5), guesses="frontier")
    assert boards
    for board in boards:
        assert ZDDPlayer().probabilities(board, 99) == analyze(board, 99)


def test_importing_the_players_leaves_the_recursion_limit_alone():
    import subprocess
    import sys

    code = (
        "import sys; before = sys.getrecursionlimit(); import minelib.players; print(before, sys.getrecursionlimit())"
    )
    before, after = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert before == after


def test_a_diagram_deeper_than_the_recursion_limit_is_handled_and_the_limit_restored():
    import sys

    limit = sys.getrecursionlimit()
    zdd, family = ZDD(), BASE
    for var in range(-1, -2 * limit, -1):  # twice as many variables as the interpreter's limit
        family = zdd.add_variable(family, var)
    family = zdd.hint(family, range(-2 * limit + 1, 0), 2)
    assert zdd.count(family) == (2 * limit - 1) * (2 * limit - 2) // 2
    assert zdd.items(family) and not zdd.flags(family)
    assert sys.getrecursionlimit() == limit


@pytest.mark.parametrize("size, mines, seed", [("9x9", 10, 1), ("16x16", 40, 2), ("16x30", 99, 3)])
def test_the_zdd_player_agrees_with_the_analyzer_at_every_move(size, mines, seed):
    """The ZDD player cross-checked at every decision by an Analyzer following its game."""
    from minelib.game import Game

    game = Game(size, mines, "safe", seed=seed)
    record = ZDDPlayer(cross_check=True).play(game, (0, 0), log=True)
    assert record.moves  # it played, every decision checked


def test_the_cross_check_speaks_up(monkeypatch):
    from minelib import zdd_player
    from minelib.game import Game

    class Wrong(zdd_player.Analyzer):
        def analyze(self, board):
            result = super().analyze(board)
            result.count += 1
            return result

    monkeypatch.setattr(zdd_player, "Analyzer", Wrong)
    with pytest.raises(RuntimeError, match="disagree"):
        ZDDPlayer(cross_check=True).play(Game("9x9", 10, "safe", seed=1), (0, 0))
