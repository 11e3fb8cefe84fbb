"""The players: never wrong on a certain move, deterministic, and the right move in known positions."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minelib.analysis import ImpossiblePosition, analyze
from minelib.board import MINE, UNOPENED, Board, BoardSize, neighbour_sums
from minelib.game import Game, first_cell
from minelib.moves import Move, certain_moves
from minelib.players import PLAYERS, LookaheadPlayer, SafestPlayer, TwoStepPlayer, ZDDPlayer, make_player
from tests.conftest import positions

SETTINGS = [
    (BoardSize(9, 9), 10, "zero"),
    (BoardSize(8, 8), 14, "safe"),
    (BoardSize(6, 10), 14, "none"),
    (BoardSize(16, 30), 99, "zero"),
]


@pytest.mark.parametrize("name", sorted(PLAYERS))
@pytest.mark.parametrize("size, mines, rule", SETTINGS)
def test_certain_moves_are_never_wrong(name, size, mines, rule):
    games = 8 if size.n_cells > 100 else 40
    for seed in range(games):
        rng = np.random.default_rng([11, seed])
        game = Game(size, mines, rule, seed=rng)
        record = PLAYERS[name]().play(game, first_cell(size, "random", rng), log=True)
        layout = game.layout()
        assert record.won == (game.status == "won")
        assert sum(not m.certain for m in record.moves) == record.guesses
        for move in record.moves:
            if move.certain:
                assert layout[move.cell] == (move.kind == "flag"), (seed, move)
        last = record.moves[-1]
        assert record.won or (last.kind == "open" and not last.certain and layout[last.cell])


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_games_are_deterministic(name):
    def play():
        rng = np.random.default_rng([4, 2])
        game = Game(BoardSize(9, 9), 10, "zero", seed=rng)
        return PLAYERS[name]().play(game, first_cell(game.size, "random", rng), log=True).moves

    assert play() == play()


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_a_logged_games_certain_moves_name_the_cells_it_settled(name):
    """The certain moves a log shares between games (``moves.certain_moves``) are the moves made: each
    certain opening a cell the game opened, each flag a mine, each as a ``Move`` built anew would be."""
    size = BoardSize(9, 9)
    for seed in range(3):
        rng = np.random.default_rng([5, seed])
        game = Game(size, 10, "zero", seed=rng)
        moves = PLAYERS[name]().play(game, first_cell(size, "random", rng), log=True).moves
        certain = [m for m in moves if m.certain]
        assert certain and any(m.kind == "flag" for m in certain)
        shown, mines = game.board.values, game.layout()
        for m in certain:
            assert m == Move(m.kind, m.cell, True, Fraction(int(m.kind == "flag")))
            assert mines[m.cell] if m.kind == "flag" else shown[m.cell] >= 0
    assert certain_moves(size) is certain_moves(BoardSize(9, 9))


def test_cells_given_after_the_first_click_are_opened_before_the_player_decides():
    def game(seed):
        return Game(BoardSize(16, 16), 40, "safe", seed=np.random.default_rng([5, seed]))

    far, played = (15, 15), 0
    for seed in range(12):
        own_game = game(seed)
        own = TwoStepPlayer().play(own_game, (0, 0), log=True)
        if len(own.moves) < 2 or own.moves[1].certain:
            continue
        played += 1
        # the player's own second guess, given: the same game, guess for guess (certain moves may come
        # in another order, but every one is made before the next guess), ending on the same board
        same_game = game(seed)
        same = TwoStepPlayer().play(same_game, (0, 0), log=True, then=(own.moves[1].cell,))
        assert [m.cell for m in same.moves if not m.certain] == [m.cell for m in own.moves if not m.certain]
        assert (same.won, same.guesses) == (own.won, own.guesses)
        assert np.array_equal(same_game.values, own_game.values) or not own.won
        # another cell, given: opened second, as a guess, and the game goes on from there
        forced_game = game(seed)
        forced = TwoStepPlayer().play(forced_game, (0, 0), log=True, then=(far,))
        assert (forced.moves[1].kind, forced.moves[1].cell, forced.moves[1].certain) == ("open", far, False)
        assert (len(forced.moves) == 2 and not forced.won) == bool(forced_game.layout()[far])
    assert played >= 3
    with pytest.raises(ValueError, match=r"cell \(0, 16\) to open after the first click is outside the 16x16 board"):
        TwoStepPlayer().play(game(0), (0, 0), then=((0, 16),))


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_a_first_click_off_the_board_is_refused(name):
    for first in ((16, 0), (-1, 0)):  # (-1, 0) would open a cell of the last row
        game = Game("16x16", 40, "safe")
        with pytest.raises(ValueError, match=rf"first click \({first[0]}, 0\) is outside the 16x16 board"):
            make_player(name).play(game, first)
        assert game.opened == 0


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_recommend_finds_the_certain_move(name):
    board = Board.from_text("1..\n1..\n1..")  # (0,1) and (2,1) safe, (1,1) a mine, by the 1-1-1 column
    move = PLAYERS[name]().recommend(board, 1)
    assert move.certain and (move.kind, move.cell) in {
        ("open", (0, 1)),
        ("open", (2, 1)),
        ("flag", (1, 1)),
        ("open", (0, 2)),
        ("open", (1, 2)),
        ("open", (2, 2)),
    }


def test_guesses_pick_the_safest_cell():
    board = Board.from_text("1...\n....")  # 1 mine in the 3 cells by the 1 (1/3 each), 1 in the other 4 (1/4)
    for player in (ZDDPlayer(), SafestPlayer(), LookaheadPlayer()):
        move = player.recommend(board, 2)
        assert not move.certain and move.kind == "open"
        assert move.mine_probability == Fraction(1, 4) and move.cell[1] >= 2
    zdd = ZDDPlayer().probabilities(board, 2)
    assert zdd == analyze(board, 2) and zdd.count == 12
    assert {c: zdd.probability(c) for c in board.unopened_cells()} == {
        c: Fraction(1, 3) if c[1] < 2 else Fraction(1, 4) for c in board.unopened_cells()
    }


def test_recommend_rejects_impossible_positions():
    from minelib.analysis import ImpossiblePosition

    with pytest.raises(ImpossiblePosition):
        LookaheadPlayer().recommend(Board.from_text("3.\n.."), 1)
    with pytest.raises(ValueError, match="no move to make: every cell is open or flagged"):
        make_player("twostep").recommend(Board.from_text("1F\n11"), 1)
    with pytest.raises(ValueError, match="candidates must be at least 1, got -2"):
        make_player("twostep", "candidates=-2")


def test_first_cell_choices():
    size = BoardSize(16, 30)
    assert first_cell(size, "corner") == (0, 0) and first_cell(size, "center") == (8, 15)
    assert first_cell(size, "random", np.random.default_rng(1)) in size
    assert first_cell(size, "3,3") == (3, 3) and first_cell(size, "15,29") == (15, 29)
    with pytest.raises(ValueError, match="unknown first click"):
        first_cell(size, "edge")
    with pytest.raises(ValueError, match=r"first click \(16, 0\) is outside the 16x30 board"):
        first_cell(size, "16,0")


def test_an_endgame_move_carries_its_exact_win_probability():
    from minelib.optimal import OptimalSolver

    board = Board.from_text("1..\n...\n...")  # 15 layouts, no certain cell: the endgame search decides
    move = LookaheadPlayer().recommend(board, 2)
    values = OptimalSolver(board.size, 2, engine="python", symmetry=False).position(board).move_values
    assert move.win_probability == values[move.cell] == max(values.values())
    assert LookaheadPlayer().recommend(Board.from_text("1.\n.."), 1).win_probability == Fraction(1, 3)


def _two_step_oracle(board: Board, mines: int, cell, blend: int = 4) -> float:
    """The two-step score of ``cell`` by brute force: over the layouts where it is safe, grouped by the
    number it shows, the blended safety of the two safest cells that may still be safe."""
    from minelib.oracles import layouts

    everything = list(layouts(board, mines))
    by_number: dict[int, list] = {}
    for layout in everything:
        if cell not in layout:
            number = sum(n in layout for n in board.size.neighbours(cell))
            by_number.setdefault(number, []).append(layout)
    score = 0.0
    for group in by_number.values():
        others = [c for c in board.unopened_cells() if c != cell]
        risks = sorted(sum(c in layout for layout in group) / len(group) for c in others)
        risks = [r for r in risks if r < 1]
        if not risks:
            score += len(group)
            continue
        s1, s2 = 1 - risks[0], 1 - (risks[1] if len(risks) > 1 else risks[0])
        score += len(group) * (blend * s1 + s2) / (blend + 1)
    return score / len(everything)


@pytest.mark.parametrize(
    "text, mines",
    [("1...\n....\n....", 3), ("1.1.\n....\n....", 3), ("..2.\n....\n1...", 3), ("2...\n....\n..1.", 3)],
)
def test_two_step_scores_are_the_brute_force_scores(text, mines):
    from minelib.players import TwoStepPlayer

    board = Board.from_text(text)
    scores = TwoStepPlayer().scores(board, mines)
    assert len(scores) > 1
    for cell, score in scores.items():
        assert score == pytest.approx(_two_step_oracle(board, mines, cell), abs=1e-12), cell
    move = TwoStepPlayer(endgame_layouts=0, endgame_compiled=0).recommend(board, mines)  # the scores decide
    assert round(scores[move.cell], 9) == round(max(scores.values()), 9)  # equal within 1e-9: a tie
    assert move.mine_probability == analyze(board, mines).probability(move.cell)


def _three_step_oracle(board: Board, mines: int, cell) -> float:
    """The deeper look at ``cell`` by brute force: over the layouts where it is safe, grouped by the
    number it shows, the best two-step score there, a certain cell counting as a move: 1 when no cell
    may be safe or three or more are certain, the best of the certain cells when one or two are, else
    the best of the living cells (those that may show two numbers or more) when there are any."""
    from minelib.oracles import layouts

    everything = list(layouts(board, mines))
    by_number: dict[int, list] = {}
    for layout in everything:
        if cell not in layout:
            by_number.setdefault(sum(n in layout for n in board.size.neighbours(cell)), []).append(layout)
    score = 0.0
    for number, group in by_number.items():
        there = board.with_value(cell, number)
        maybe = [d for d in there.unopened_cells() if not all(d in layout for layout in group)]
        safe = [d for d in maybe if not any(d in layout for layout in group)]
        if not maybe or len(safe) >= 3:
            score += len(group)
            continue
        if safe:
            score += len(group) * max(_two_step_oracle(there, mines, d) for d in safe)
            continue
        shown = {
            d: {sum(n in layout for n in board.size.neighbours(d)) for layout in group if d not in layout}
            for d in maybe
        }
        living = [d for d in shown if len(shown[d]) > 1] or list(shown)
        score += len(group) * max(_two_step_oracle(there, mines, d) for d in living)
    return score / len(everything)


@pytest.mark.parametrize(
    "text, mines",
    [("1...\n....\n....", 3), ("..2.\n....\n1...", 3), ("1.\n..\n..\n..", 2), ("2...\n....\n..1.", 3)],
)
def test_the_deeper_look_is_the_brute_force_three_step_score(text, mines):
    """With every cell a candidate, ``_deeper`` is the brute-force three-step score of every cell: numbers
    after which no, one, two, or three and more cells are certain all occur on these boards."""
    from minelib.twostep import TwoStepRun

    board = Board.from_text(text)
    player = TwoStepPlayer(cut=Fraction(1, 10**6), candidates=99, off_frontier=99)  # every cell a candidate
    run = TwoStepRun(Game.showing(board, mines), False, player)
    result = run.analyzer.analyze(board)
    for cell in board.unopened_cells():
        assert run._deeper(board, result, cell) == pytest.approx(_three_step_oracle(board, mines, cell), abs=1e-12), (
            cell
        )


@pytest.mark.parametrize(
    "text, mines",
    [("...\n...\n...\n1..", 4), ("..1\n...\n...\n...", 5), ("...\n..3\n...\n...", 4), ("2....\n...2.\n.....", 5)],
)
def test_the_deeper_look_plays_the_near_tie_with_the_best_three_step_score(text, mines):
    """In positions where the deeper look changes the move, it plays a candidate within ``deep_margin`` of
    the best two-step score whose brute-force three-step score beats the plain move's."""
    board = Board.from_text(text)
    off = {"endgame_layouts": 0, "endgame_compiled": 0, "influence": 0}  # the scores decide
    plain = TwoStepPlayer(deep=0, **off).explain(board, mines)
    deep = TwoStepPlayer(second=False, **off).explain(board, mines)  # deep=4, the defaults; the deeper look alone
    assert deep.reason == "deeper look" and plain.reason == "best score"
    assert deep.move.cell != plain.move.cell
    assert _three_step_oracle(board, mines, deep.move.cell) > _three_step_oracle(board, mines, plain.move.cell) + 1e-9
    scores = {r.cell: r.score for r in plain.ranked}
    assert scores[deep.move.cell] >= scores[plain.move.cell] - 1 / 20
    assert {r.cell for r in deep.ranked} == set(scores)  # the same candidates, re-ranked
    assert deep.move.mine_probability == analyze(board, mines).probability(deep.move.cell)


def _four_step_oracles(board: Board, mines: int, cell) -> set[float]:
    """The second look at ``cell`` by brute force (``TwoStepPlayer(second=True)``): over the layouts where it
    is safe, grouped by the number it shows, the best deeper-look value there: 1 when no cell may be safe or
    three or more are certain, the best of the certain cells' when one or two are, else the better of the
    two best cells by two-step score, living ones first. Every value it may take when cells tie for those
    two places (the player breaks such ties by its candidates' order)."""
    from itertools import product

    from minelib.oracles import layouts

    everything = list(layouts(board, mines))
    by_number: dict[int, list] = {}
    for layout in everything:
        if cell not in layout:
            by_number.setdefault(sum(n in layout for n in board.size.neighbours(cell)), []).append(layout)
    options = []  # per number: its layouts, and the values its best may take
    for number, group in by_number.items():
        there = board.with_value(cell, number)
        maybe = [d for d in there.unopened_cells() if not all(d in layout for layout in group)]
        safe = [d for d in maybe if not any(d in layout for layout in group)]
        if not maybe or len(safe) >= 3:
            options.append((len(group), {1.0}))
            continue
        if safe:
            options.append((len(group), {max(_three_step_oracle(there, mines, d) for d in safe)}))
            continue
        shown = {
            d: {sum(n in layout for n in board.size.neighbours(d)) for layout in group if d not in layout}
            for d in maybe
        }
        key = {d: (len(shown[d]) > 1, round(_two_step_oracle(there, mines, d), 9)) for d in maybe}
        top = sorted(set(key.values()), reverse=True)
        first = [d for d in maybe if key[d] == top[0]]
        pairs = (
            [(a, b) for a in first for b in first if a != b]
            if len(first) > 1
            else [(first[0], b) for b in maybe if key[b] == top[1]]
        )
        three = {d: _three_step_oracle(there, mines, d) for pair in pairs for d in pair}
        options.append((len(group), {max(three[a], three[b]) for a, b in pairs}))
    return {
        sum(n * v for (n, _), v in zip(options, values)) / len(everything)
        for values in product(*(vs for _, vs in options))
    }


@pytest.mark.parametrize(
    "text, mines",
    [("1...\n....\n....", 3), ("..2.\n....\n1...", 3), ("1.\n..\n..\n..", 2), ("2...\n....\n..1.", 3)],
)
def test_the_second_look_is_the_brute_force_four_step_score(text, mines):
    """With every cell a candidate, ``_second`` is the brute-force value of the second look at every cell."""
    from minelib.twostep import TwoStepRun

    board = Board.from_text(text)
    player = TwoStepPlayer(cut=Fraction(1, 10**6), candidates=99, off_frontier=99, second=True)
    run = TwoStepRun(Game.showing(board, mines), False, player)
    result = run.analyzer.analyze(board)
    for cell in board.unopened_cells():
        value = run._second(board, result, cell)
        assert any(value == pytest.approx(v, abs=1e-9) for v in _four_step_oracles(board, mines, cell)), cell


@pytest.mark.parametrize(
    "text, mines",
    [("....\n....\n2...", 5), ("..2\n...\n...\n...", 5), ("...\n.3.\n...\n...", 5), (".2.\n1..\n...\n...", 5)],
)
def test_the_second_look_plays_the_better_of_the_two_best_one_move_further(text, mines):
    """In positions where the second look changes the deeper look's move, it plays the deeper look's second
    best, whose brute-force value one move further again beats the first's, and ranks them so."""
    board = Board.from_text(text)
    off = {"endgame_layouts": 0, "endgame_compiled": 0, "influence": 0}  # the scores decide
    deep = TwoStepPlayer(second=False, **off).explain(board, mines)  # the deeper look alone
    second = TwoStepPlayer(second=True, **off).explain(board, mines)  # the defaults
    assert deep.reason == "deeper look" and second.reason == "second look"
    assert second.move.cell == deep.ranked[1].cell != deep.move.cell
    assert (
        min(_four_step_oracles(board, mines, second.move.cell))
        > max(_four_step_oracles(board, mines, deep.move.cell)) + 1e-9
    )
    first, runner = second.ranked[:2]
    assert (first.cell, runner.cell) == (deep.ranked[1].cell, deep.ranked[0].cell)
    assert first.further is not None and runner.further is not None and first.further > runner.further
    assert all(r.further is None for r in second.ranked[2:])
    assert [r.cell for r in second.ranked[2:]] == [r.cell for r in deep.ranked[2:]]


@pytest.mark.parametrize(
    "text, mines",
    [("....\n....\n..2.", 4), ("..2.\n....\n....", 4), ("....\n2...\n....", 4), ("....\n.3..\n....", 5)],
)
def test_a_wider_second_look_plays_the_best_one_move_further_of_the_deeper_looks_best_four(text, mines):
    """With ``second_width=4`` the second look takes the deeper look's best four (here three or four), not
    two: in these positions it plays one the deeper look ranked third or fourth, whose brute-force value one
    move further again beats both of the two best's, and ranks those it looked at by that value (ties, as in
    the last position, in the deeper look's order)."""
    board = Board.from_text(text)
    off = {"endgame_layouts": 0, "endgame_compiled": 0, "influence": 0}  # the scores decide
    deep = TwoStepPlayer(**off).explain(board, mines)
    wide = TwoStepPlayer(second=True, second_width=4, **off).explain(board, mines)
    assert wide.reason == "second look" and len(deep.ranked) >= 3
    looked = [r for r in wide.ranked if r.further is not None]
    assert {r.cell for r in looked} == {r.cell for r in deep.ranked[: len(looked)] if r.deeper is not None}
    assert len(looked) >= 3 and wide.ranked[: len(looked)] == looked
    deep_order = [r.cell for r in deep.ranked]
    assert [(-r.further, deep_order.index(r.cell)) for r in looked] == sorted(  # ties: the deeper look's order
        (-r.further, deep_order.index(r.cell)) for r in looked
    )
    assert wide.move.cell in [r.cell for r in deep.ranked[2:4]]
    best = min(_four_step_oracles(board, mines, wide.move.cell))
    assert all(best > max(_four_step_oracles(board, mines, r.cell)) + 1e-9 for r in deep.ranked[:2])
    assert [r.cell for r in wide.ranked[len(looked) :]] == [r.cell for r in deep.ranked[len(looked) :]]


def test_what_a_decision_worked_out_is_kept_without_changing_a_move(monkeypatch):
    """The looks further meet a position by several paths (A then B, B then A), the second look scores again
    what the deeper look scored, and a guess's position may have been looked at in the last decision: each is
    worked out once (``TwoStepRun._memo``). The first expert games with the second look are played move for
    move as when each is worked out anew, and a tenth or more of what they asked was met again."""
    from minelib import experiments as ex
    from minelib.twostep import BOOK, TwoStepRun

    setting = ex.record_setting("expert", "safe", "0,0", 6, options="second=1")
    kept, hits = TwoStepRun._memo, []

    def counted(self, key, work):
        hits.append(key in self._seen or key in self._last)
        return kept(self, key, work)

    played = {}
    for memo in (counted, lambda self, key, work: work()):
        monkeypatch.setattr(TwoStepRun, "_memo", memo)
        BOOK.clear()  # (each way works out its own guesses, those of the first positions too)
        for i in range(6):
            game, first = ex.setting_game(setting, i)
            record = make_player(setting.player, setting.options).play(game, first, log=True)
            played.setdefault(i, []).append((record.won, record.moves))
    assert all(with_it == anew for with_it, anew in played.values())
    assert sum(hits) > len(hits) // 10  # (a tenth at least: the test compares play where the memo answered)


def _corners_showing_one() -> Board:
    """Expert after a safe first click: the corner (0, 0) and the far corner (0, 29) each show a 1."""
    return Board.from_text("\n".join(["1" + "." * 28 + "1"] + ["." * 30] * 15))


def test_the_second_look_where_few_cells_are_open_and_nowhere_else():
    """``second_open``: the second look where at most that many cells are open, flags counted. After the corner's
    and the far corner's 1 (2 open) it plays the second look's move (the defaults'), where second=0 plays the
    deeper look's; in a position of 11 open cells and flags, where the second look too plays otherwise, from 11 on
    and not at 10; off (0), second=0's move, also on a board with no cell open."""
    rows = ["." * 30] * 16
    two = _corners_showing_one()
    eleven = Board.from_text(
        "\n".join(["001" + "." * 27, "122" + "." * 27, "F3F4" + "." * 26, ".5" + "." * 28] + rows[4:])
    )
    for board, opened in ((two, 2), (eleven, 11)):
        looked, plain = TwoStepPlayer().explain(board, 99), TwoStepPlayer(second=False).explain(board, 99)
        assert looked.reason == "second look" and plain.reason == "deeper look" and looked.move != plain.move
        assert TwoStepPlayer(second=False, second_open=opened).explain(board, 99) == looked
        assert TwoStepPlayer(second=False, second_open=opened - 1).explain(board, 99) == plain
        assert TwoStepPlayer(second=False, second_open=0).explain(board, 99) == plain
    nothing_open = Board.from_text("\n".join(["." * 9] * 9))  # (the second look would rank it)
    assert TwoStepPlayer(second=False, second_open=0).explain(nothing_open, 10).reason == "deeper look"


def test_the_book_plays_as_each_guess_worked_out_anew(monkeypatch):
    """The book (``twostep.BOOK``): expert games played with it, twice (the second time most first guesses are
    looked up), move for move as without it (``BOOK_OPENED = 0``), with the deeper look alone (second=0) and with
    the defaults (the second look); and it was asked, and answered, where few cells are open."""
    from minelib import experiments as ex
    from minelib import twostep

    worked, looked_up = [], []
    plain_guess, plain_work = twostep.TwoStepRun.guess, twostep.TwoStepRun._guess
    monkeypatch.setattr(twostep.TwoStepRun, "_guess", lambda run, *a: worked.append(1) or plain_work(run, *a))
    monkeypatch.setattr(twostep.TwoStepRun, "guess", lambda run, *a: looked_up.append(1) or plain_guess(run, *a))

    def play(setting: ex.Setting) -> list:
        player = make_player(setting.player, setting.options)
        return [player.play(*ex.setting_game(setting, i), log=True).moves for i in range(setting.games)]

    for options, games in (("second=0", 12), ("", 4)):
        setting = ex.record_setting("expert", "safe", "0,0", games, options=options)
        monkeypatch.setattr(twostep, "BOOK_OPENED", 0)
        without = play(setting)
        monkeypatch.setattr(twostep, "BOOK_OPENED", 8)
        worked.clear(), looked_up.clear()
        assert play(setting) == without
        assert play(setting) == without
        assert len(worked) < len(looked_up) and twostep.BOOK  # answered from the book at times


def test_the_book_keeps_a_guess_by_position_mines_and_settings_with_what_decided_it(monkeypatch):
    """Looked up, a guess comes with its reason and ranking as worked out, by the position, the mines and the
    player's settings: the corner's and the far corner's 1 with 99 mines, with 60, without the second look, without
    the deeper look. A ranking handed out and changed does not change the book's. At most ``BOOK_SIZE``
    positions, the least recently used dropped first."""
    from minelib import twostep

    board = _corners_showing_one()
    players = {"defaults": TwoStepPlayer(), "deeper": TwoStepPlayer(second=False), "deep=0": TwoStepPlayer(deep=0)}
    monkeypatch.setattr(twostep, "BOOK_OPENED", 0)
    anew = {(name, m): p.explain(board, m) for name, p in players.items() for m in (99, 60)}
    assert len({(e.move.cell, e.reason) for e in anew.values()}) >= 3 and not twostep.BOOK
    monkeypatch.setattr(twostep, "BOOK_OPENED", 8)
    for _ in range(2):  # worked out, then looked up
        for (name, m), explained in anew.items():
            assert players[name].explain(board, m) == explained, (name, m)
            players[name].explain(board, m).ranked.clear()
    assert len(twostep.BOOK) == len(anew)
    monkeypatch.setattr(twostep, "BOOK_SIZE", 2)
    twostep.BOOK.clear()
    for m in (99, 60, 99):  # 99 used last: 60 the oldest
        assert players["defaults"].explain(board, m) == anew["defaults", m]
    players["deeper"].explain(board, 99)
    assert [key[2] for key in twostep.BOOK] == [99, 99] and players["defaults"].explain(board, 99) == anew[
        "defaults", 99
    ]


def test_the_deeper_look_takes_only_sensible_options():
    with pytest.raises(ValueError, match="deep"):
        TwoStepPlayer(deep=-1)
    with pytest.raises(ValueError, match="deep_margin"):
        TwoStepPlayer(deep_margin=Fraction(-1, 2))
    with pytest.raises(ValueError, match="second must be 0 or 1"):
        TwoStepPlayer(second=2)


def test_two_step_play_skips_dead_cells_while_a_living_one_is_near():
    """Along seeded expert games, every guess the player makes is a living cell (it may show two
    numbers or more) whenever a living candidate exists; with dead=False it sometimes is not."""
    from minelib.analysis import Analyzer
    from minelib.twostep import TwoStepPlayer, TwoStepRun

    chosen = {True: [], False: []}
    for dead in (True, False):
        # The scores decide every guess; without dead cells last, the deeper look alone shows a dead guess below.
        alone = {} if dead else {"second": False}
        player = TwoStepPlayer(dead=dead, endgame_cells=100, forced=False, influence=0, **alone)
        for seed in range(6):
            rng = np.random.default_rng([21, seed])
            game = Game(BoardSize(16, 30), 99, "safe", seed=rng)
            run = TwoStepRun(game, True, player)
            guess = run.guess

            def watched(board, mines, result, guess=guess, run=run, dead=dead):
                move = guess(board, mines, result)
                candidates = run.candidates(board, result)[1]
                alive = {c: len(Analyzer(mines).what_if(board, c)) > 1 for c in candidates}
                chosen[dead].append((alive[move.cell], any(alive.values())))
                return move

            run.guess = watched
            run.play((0, 0))
    assert chosen[True] and all(living or not any_living for living, any_living in chosen[True])
    assert any(any_living and not living for living, any_living in chosen[False])  # seed 0, cell (0, 22)


def test_two_step_guesses_off_the_frontier_even_when_told_to_look_only_on_it():
    from minelib.players import TwoStepPlayer

    board = Board.from_text("\n".join(["....."] * 5))  # no number yet: every cell is off the frontier
    for player in (TwoStepPlayer(), TwoStepPlayer(off_frontier=0)):
        move = player.recommend(board, 5)
        assert move.kind == "open" and not move.certain and move.mine_probability == Fraction(1, 5)
    assert TwoStepPlayer().recommend(board, 5).cell in {(0, 0), (0, 4), (4, 0), (4, 4)}  # fewest neighbours


def test_two_step_weighs_off_the_frontier_the_cells_with_fewest_unopened_neighbours():
    """A 1 in the corner of 9x9 with 30 mines: its three cells are safe at 2/3, every other cell at
    1 - 29/77, within the cut. Off the frontier the player weighs ``off_frontier`` cells (3 by
    default), those with fewest unopened neighbours: the other corners."""
    from minelib.players import TwoStepPlayer

    board = Board.from_text("\n".join(["1" + "." * 8] + ["." * 9] * 8))
    frontier = {(0, 1), (1, 0), (1, 1)}
    assert set(TwoStepPlayer().scores(board, 30)) == frontier | {(0, 8), (8, 0), (8, 8)}
    assert set(TwoStepPlayer(off_frontier=1).scores(board, 30)) == frontier | {(0, 8)}
    assert set(TwoStepPlayer(off_frontier=0).scores(board, 30)) == frontier


def _candidates_cell_by_cell(player, board: Board, result):
    """``TwoStepRun.candidates`` as ``TwoStepPlayer``'s docstring reads, one cell at a time: the slow reference."""
    risk = result.risks()
    lowest = min(risk.values())
    limit = 1 - player.cut * (1 - lowest)
    ranks = sorted({p for p in risk.values() if p <= limit})
    values, size = board.values, board.size

    def unopened(c):
        return sum(values[n] == UNOPENED for n in size.neighbours(c))

    def two_from_a_number(c):
        y, x = c
        straight = ((y - 2, x), (y + 2, x), (y, x - 2), (y, x + 2))
        return any(n in size and values[n] >= 0 for n in straight)

    near = [c for c, p in risk.items() if p <= limit]
    frontier = [c for c in near if any(values[n] >= 0 for n in size.neighbours(c))]
    interior = [c for c in near if c not in frontier]
    frontier.sort(key=lambda c: (ranks.index(risk[c]), unopened(c), c))
    interior.sort(key=lambda c: (unopened(c), not two_from_a_number(c), c))
    chosen = (interior[: player.off_frontier] + frontier)[: player.lookahead] or interior[:1]
    return lowest, sorted(chosen, key=lambda c: (risk[c], c))


@pytest.mark.parametrize("options", ["", "off_frontier=6,cut=1/2,candidates=40", "off_frontier=0,candidates=3"])
def test_two_step_candidates_equal_the_cell_by_cell_reference(options):
    """The candidates are found group by group on whole arrays; at every guess of seeded games on
    expert and on a small dense board, they are those of the reference, in its order."""
    from minelib.twostep import TwoStepRun

    player = make_player("twostep", options)
    compared = 0
    for size, mines, rule, first in ((BoardSize(16, 30), 99, "safe", (0, 0)), (BoardSize(12, 12), 36, "zero", (5, 5))):
        for seed in range(4):
            run = TwoStepRun(Game(size, mines, rule, seed=np.random.default_rng([31, seed])), False, player)
            guess = run.guess

            def watched(board, mines, result, guess=guess, run=run):
                nonlocal compared
                assert run.candidates(board, result) == _candidates_cell_by_cell(player, board, result)
                compared += 1
                return guess(board, mines, result)

            run.guess = watched
            run.play(first)
    assert compared >= 10  # guesses were made: the test compared something


def _expert_guess(series: int, low: int, high: int, player) -> Board:
    """The first position where ``player`` guesses with more than ``low`` and at most ``high`` layouts
    left, in seeded expert games (safe, first click (0, 0); game i seeded by (series, i))."""
    from minelib.twostep import TwoStepRun

    found = []
    for seed in range(60):
        run = TwoStepRun(Game(BoardSize(16, 30), 99, "safe", seed=np.random.default_rng([series, seed])), False, player)
        guess = run.guess

        def watched(board, mines, result, guess=guess):
            if low < result.count <= high:
                found.append(board)
            return guess(board, mines, result)

        run.guess = watched
        run.play((0, 0))
        if found:
            return found[0]
    raise AssertionError("no such position in 60 games")


def test_the_exact_endgame_plays_on_an_expert_board_when_allowed():
    """A late expert position with few layouts: the two-step player makes an optimal move and says
    its exact win probability; told to search boards of at most 100 cells only, it does not."""
    from minelib.optimal import OptimalSolver
    from minelib.players import TwoStepPlayer

    board = _expert_guess(5, 2, 24, TwoStepPlayer(endgame_cells=100))
    values = OptimalSolver(board.size, 99, engine="python", symmetry=False).position(board).move_values
    move = TwoStepPlayer().recommend(board, 99)
    assert move.win_probability == values[move.cell] == max(values.values())
    assert TwoStepPlayer(endgame_cells=100).recommend(board, 99).win_probability is None


def test_the_compiled_endgame_reaches_positions_of_hundreds_of_layouts_on_expert():
    """With ``endgame_compiled`` (by default) the exact endgame decides positions of more layouts than
    ``endgame_layouts`` when their undecided cells fit the compiled engine; without it, the scores do."""
    from minelib.layouts import Geometry, consistent_layouts
    from minelib.optimal import OptimalSolver
    from minelib.players import TwoStepPlayer

    board = _expert_guess(6, 100, 400, TwoStepPlayer(endgame_compiled=0))
    layouts = consistent_layouts(board, 99, Geometry.of(board.size))
    assert 100 < len(layouts) <= 400
    values = OptimalSolver(board.size, 99, engine="python", symmetry=False).position(board).move_values
    for player in (TwoStepPlayer(endgame_compiled=400), TwoStepPlayer()):
        move = player.recommend(board, 99)
        assert move.win_probability == values[move.cell] == max(values.values())
    assert TwoStepPlayer(endgame_compiled=0).recommend(board, 99).win_probability is None


def test_an_endgame_search_past_its_budget_is_given_up_for_the_guess_without_it():
    """With ``endgame_budget`` on every search (``endgame_budget_above=0``), the compiled endgame decides when its
    search needs at most that much work (``EndgameSearch.work``), and otherwise the player guesses as it does without
    the compiled endgame."""
    from minelib.endgame import EndgameSearch
    from minelib.players import TwoStepPlayer

    board = _expert_guess(6, 100, 400, TwoStepPlayer(endgame_compiled=0))
    search = EndgameSearch(99)
    search.values(board, best=True)
    without = TwoStepPlayer(endgame_compiled=0).recommend(board, 99)
    exact = TwoStepPlayer().recommend(board, 99)
    assert exact.win_probability is not None and search.work > 1
    every = {"endgame_budget_above": 0}
    assert TwoStepPlayer(endgame_budget=search.work, **every).recommend(board, 99) == exact
    assert TwoStepPlayer(endgame_budget=search.work - 1, **every).recommend(board, 99) == without
    with pytest.raises(ValueError, match="endgame_budget must be at least 0, got -1"):
        TwoStepPlayer(endgame_budget=-1)


def test_a_budget_spares_the_searches_of_at_most_endgame_budget_above_layouts():
    """``endgame_budget_above``: a position of at most that many layouts is searched to the end whatever the
    budget; one of more is given up past it, as without the option."""
    from minelib.analysis import analyze
    from minelib.players import TwoStepPlayer

    board = _expert_guess(6, 100, 400, TwoStepPlayer(endgame_compiled=0))
    count = analyze(board, 99).count
    without = TwoStepPlayer(endgame_compiled=0).recommend(board, 99)
    exact = TwoStepPlayer().recommend(board, 99)
    assert exact != without
    assert TwoStepPlayer(endgame_budget=1, endgame_budget_above=count).recommend(board, 99) == exact
    assert TwoStepPlayer(endgame_budget=1, endgame_budget_above=count - 1).recommend(board, 99) == without
    assert TwoStepPlayer(endgame_budget=1, endgame_budget_above=0).recommend(board, 99) == without
    assert count <= 50_000 and TwoStepPlayer(endgame_budget=1).recommend(board, 99) == exact  # spared by default
    with pytest.raises(ValueError, match="endgame_budget_above must be at least 0, got -1"):
        TwoStepPlayer(endgame_budget_above=-1)


@pytest.mark.parametrize("rule", ["safe", "zero"])
def test_a_budget_too_small_for_any_compiled_search_plays_as_the_player_without_one(rule):
    """A budget of 1 on every search (``endgame_budget_above=0``) stops every compiled endgame search at its first
    move (past ``endgame_layouts`` layouts it splits more than one), so the games are the player's without the compiled
    endgame, move for move; a budget no search reaches, or one that spares every search (``endgame_budget_above``, as
    the default of 50,000 does in these games), plays the games without a budget."""
    from minelib.players import TwoStepPlayer

    players = [
        TwoStepPlayer(endgame_layouts=4, endgame_budget=1, endgame_budget_above=0),
        TwoStepPlayer(endgame_layouts=4, endgame_compiled=0),
        TwoStepPlayer(endgame_layouts=4, endgame_budget=10**15, endgame_budget_above=0),
        TwoStepPlayer(endgame_layouts=4, endgame_budget=0),
        TwoStepPlayer(endgame_layouts=4, endgame_budget=1, endgame_budget_above=10**9),
        TwoStepPlayer(endgame_layouts=4, endgame_budget=1),
    ]
    searched = 0
    for seed in range(40):
        moves = []
        for player in players:
            game = Game(BoardSize(9, 9), 14, rule, seed=seed)
            record = player.play(game, (4, 4), log=True)
            moves.append([(m.kind, m.cell, m.win_probability) for m in record.moves])
        assert moves[0] == moves[1] and moves[2] == moves[3] == moves[4] == moves[5]
        searched += moves[0] != moves[3]
    assert searched  # the compiled endgame decided something in some game


def test_two_step_scores_stay_finite_when_counts_pass_the_range_of_a_float():
    from minelib.players import TwoStepPlayer

    board = Board.from_text("\n".join(["1" + "." * 39] + ["." * 40] * 39))  # ~10^340 layouts of 320 mines
    assert analyze(board, 320).count > 10**308
    scores = TwoStepPlayer().scores(board, 320)
    assert scores and all(0 < score < 1 for score in scores.values())


def test_latent_fifty_fifties_weigh_in_when_counts_pass_the_range_of_a_float():
    from dataclasses import replace

    from minelib import experiments as ex

    # game 16 of article 003's 40x40 with 320 mines met a latent 50/50 among ~10^300 layouts
    setting = replace(ex.article_setting("twostep", 40, 0.2, 17), options="influence=9/10")
    assert ex.play_one(setting, 16)["guesses"] > 0


def _forced_pair(board: Board, mines: int):
    from minelib.twostep import TwoStepPlayer, TwoStepRun

    run = TwoStepRun(Game.showing(board, mines), False, TwoStepPlayer(forced=True))
    result = run.analyzer.analyze(board)
    return run.forced_pair(board, result)


def _never_told_apart(board: Board, mines: int, a, b) -> bool:
    """Brute force: every layout has exactly one mine on a and b, and its twin (the mine on the other)
    fits too and shows the same number on every other cell."""
    return _halves_never_told_apart(board, mines, [a], [b])


def _halves_never_told_apart(board: Board, mines: int, half_a, half_b) -> bool:
    """Brute force: every layout has all of one half mines and all of the other safe, and its twin (the
    halves swapped) fits too and shows the same number on every other cell."""
    from minelib.layouts import Geometry, consistent_layouts

    geometry = Geometry.of(board.size)
    layouts = set(consistent_layouts(board, mines, geometry))
    a, b = sum(geometry.bit(c) for c in half_a), sum(geometry.bit(c) for c in half_b)
    pair = a | b
    others = [i for i in range(geometry.n) if not pair >> i & 1]
    for mask in layouts:
        twin = mask ^ pair
        if (mask & pair) not in (a, b) or twin not in layouts:
            return False
        for i in others:
            if (
                not mask >> i & 1
                and (mask & geometry.neighbours[i]).bit_count() != (twin & geometry.neighbours[i]).bit_count()
            ):
                return False
    return True


def test_a_forced_guess_is_found_and_played_first():
    """Two cells on the bottom edge walled by a known mine: a 50/50 nothing can resolve. The two-step
    player (``forced``, by default) guesses it at once; the pair is checked by brute force."""
    from minelib.players import TwoStepPlayer

    board = Board.from_text("..111\n2.2..\n.4F4.\n..F.1")
    pair = _forced_pair(board, 7)
    assert pair == ((3, 0), (3, 1)) and _never_told_apart(board, 7, *pair)
    assert not _never_told_apart(board, 7, (0, 0), (0, 1))  # the oracle can say no
    move = TwoStepPlayer(endgame_layouts=0, endgame_compiled=0).recommend(board, 7)
    assert move.cell in pair and move.mine_probability == Fraction(1, 2)
    without = TwoStepPlayer(forced=False, influence=0, endgame_layouts=0, endgame_compiled=0)  # nor latent 50/50s
    assert without.recommend(board, 7).cell not in pair


@pytest.mark.parametrize("forced", [1, 0], ids=["forced-pair", "pseudo-fifty-fifty"])
def test_with_ties_the_fifty_fifties_are_ranked_by_the_rounded_score(forced):
    """The walled pair of the test above, its two cells of equal score, the second's nudged up by
    1e-12 (a float sum done in another order): ``ties`` keeps the first cell (rounded to 1e-9 they
    tie, and ties go by order), without it the nudge decides. Both routes: the forced pair, and
    the "50/50 or safe" cells of the latent 50/50s (forced pairs off)."""
    from minelib.twostep import TwoStepPlayer, TwoStepRun

    class Nudged(TwoStepRun):
        def score(self, board, result, cell):
            living, score, progress = super().score(board, result, cell)
            return living, score + (1e-12 if cell == (3, 1) else 0.0), progress

    class Player(TwoStepPlayer):
        def _run(self, game, log):
            return Nudged(game, log, self)

    board = Board.from_text("..111\n2.2..\n.4F4.\n..F.1")
    plain = TwoStepPlayer(forced=forced, endgame_layouts=0, endgame_compiled=0)
    run = TwoStepRun(Game.showing(board, 7), False, plain)
    result = run.analyzer.analyze(board)
    assert run.score(board, result, (3, 0)) == run.score(board, result, (3, 1))  # a tie, as computed
    for ties, expected in ((1, (3, 0)), (0, (3, 1))):
        move = Player(forced=forced, ties=ties, endgame_layouts=0, endgame_compiled=0).recommend(board, 7)
        assert move.cell == expected, ties
    with pytest.raises(ValueError, match="ties must be 0 or 1"):
        TwoStepPlayer(ties=2)


def _forced_chain(board: Board, mines: int):
    from minelib.twostep import TwoStepPlayer, TwoStepRun

    run = TwoStepRun(Game.showing(board, mines), False, TwoStepPlayer(chains=True))
    result = run.analyzer.analyze(board)
    return run.forced_chain(board, mines, result)


def _halves(board: Board, mines: int, cells):
    """The cells of a chain split by where one layout has its mines."""
    from minelib.layouts import Geometry, consistent_layouts

    geometry = Geometry.of(board.size)
    mask = consistent_layouts(board, mines, geometry)[0]
    mined = [c for c in cells if mask & geometry.bit(c)]
    return mined, [c for c in cells if c not in mined]


# Four cells along the top edge between two known mines, each pair joined by the 1 between them: a
# 50/50 nothing but opening one of them can resolve (JSMinesweeper's chained 50/50s).
CHAIN = "F..1..F\nF31113F\n1100011"


def test_a_forced_chain_is_found_and_played_first():
    board = Board.from_text(CHAIN)
    chain = _forced_chain(board, 6)
    assert chain == [(0, 1), (0, 2), (0, 4), (0, 5)]
    assert _halves(board, 6, chain) in (([(0, 1), (0, 4)], [(0, 2), (0, 5)]), ([(0, 2), (0, 5)], [(0, 1), (0, 4)]))
    assert _halves_never_told_apart(board, 6, *_halves(board, 6, chain))
    assert not _halves_never_told_apart(board, 6, [(0, 1), (0, 2)], [(0, 4), (0, 5)])  # the oracle can say no
    # the mine next to (0, 1) need not be flagged: a certain mine never shows a number
    assert _forced_chain(Board.from_text("." + CHAIN[1:]), 6) == chain
    # opened at one end, the chain can be told apart: (1, 6) is next to (0, 5) alone
    open_end = Board.from_text("F..1...\nF3111..\n110001.")
    assert _forced_chain(open_end, 6) is None
    assert not _halves_never_told_apart(open_end, 6, [(0, 1), (0, 4)], [(0, 2), (0, 5)])
    explained = TwoStepPlayer(endgame_layouts=0, endgame_compiled=0).explain(board, 6)  # the defaults
    assert explained.move.cell in chain and explained.move.mine_probability == Fraction(1, 2)
    assert explained.reason == "forced 50/50"
    assert TwoStepPlayer(chains=0, endgame_layouts=0, endgame_compiled=0).explain(board, 6).reason != "forced 50/50"
    with pytest.raises(ValueError, match="chains must be 0 or 1"):
        TwoStepPlayer(chains=2)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.sampled_from([(y, x) for y in range(3) for x in range(7) if y or x in (0, 3, 6)]), max_size=4))
def test_a_chain_is_found_exactly_when_brute_force_says_so(hidden):
    """The chain above with some of the other cells hidden again (a number or a flag back to unopened: the
    layouts stay the chain's two): found exactly when no layout can be told from its twin."""
    rows = [list(row) for row in CHAIN.split("\n")]
    for y, x in hidden:
        rows[y][x] = "."
    board = Board.from_text("\n".join("".join(row) for row in rows))
    chain = [(0, 1), (0, 2), (0, 4), (0, 5)]
    assert (_forced_chain(board, 6) == chain) == _halves_never_told_apart(board, 6, chain[::2], chain[1::2])


@settings(max_examples=150, deadline=None)
@given(positions(max_height=4, max_width=5))
def test_every_forced_pair_or_chain_found_is_one_by_brute_force(position):
    board, mines = position
    try:
        pair, chain = _forced_pair(board, mines), _forced_chain(board, mines)
    except ImpossiblePosition:
        return
    assert pair is None or _never_told_apart(board, mines, *pair)
    assert chain is None or _halves_never_told_apart(board, mines, *_halves(board, mines, chain))


def test_regrets_along_the_games_add_up_to_the_distance_from_optimal_play():
    """What benchmarks/regret.py stands on: summed over every layout, a player's guess regrets are
    exactly what it loses against optimal play (here every guess is the heuristic's: no endgame); where
    the two-step score ranked a guess, the regrets of the cells it ranked start with the one opened."""
    from itertools import combinations

    from minelib.endgame import EndgameSearch
    from minelib.guesses import guess_regrets

    size, mines, first = BoardSize(4, 4), 3, (0, 0)
    player = TwoStepPlayer(endgame_layouts=0, endgame_compiled=0)
    optimal, won, regrets, games, ranked = Fraction(0), 0, Fraction(0), 0, 0
    for layout in combinations(range(1, size.n_cells), mines):  # the first cell is safe
        rows = [["*" if y * 4 + x in layout else "." for x in range(4)] for y in range(4)]
        picture = "\n".join("".join(row) for row in rows)
        game = Game.from_picture(picture)
        game.open(first)
        values = EndgameSearch(mines).values(game.board)
        optimal += max(values.values()) if values else 1  # no cell left to open: won at the first click
        record, found = guess_regrets(player, Game.from_picture(picture), first, (0, 10**9), work=True)
        won += record.won
        regrets += sum((r.regret for r in found), Fraction(0))
        games += 1
        for r in found:
            assert not r.ranked or (r.ranked[0] == r.regret and min(r.ranked) >= 0)
            assert r.work >= r.layouts  # the player's search splits every layout at its first move at least
            ranked += len(r.ranked) > 1 and min(r.ranked) < r.regret  # a better cell among those it ranked
    assert ranked > 0
    assert regrets > 0  # the heuristic is not optimal everywhere on this board: the identity is not 0 = 0
    assert optimal / games - Fraction(won, games) == regrets / games


def test_regrets_within_a_budget_are_the_full_searches_regrets_where_their_search_fits():
    """``guess_regrets(within=W)``: a guess whose search of the best cells needs more than W is given up (None),
    every other has the regret the search of every cell gives it; within a budget no search needs, none is given up."""
    from minelib import experiments as ex
    from minelib.guesses import guess_regrets

    player = TwoStepPlayer(endgame_layouts=0, endgame_compiled=0)
    setting = ex.Setting("twostep", "4x5", 4, 40, 7, "safe", "0,0")
    given_up = kept = nonzero = 0
    for index in range(setting.games):
        full = guess_regrets(player, *ex.setting_game(setting, index), (0, 10**9), work=True)[1]
        for within in (10**12, 200):
            found = guess_regrets(player, *ex.setting_game(setting, index), (0, 10**9), within=within)[1]
            assert [r.layouts for r in found] == [r.layouts for r in full]
            for r, f in zip(found, full):
                assert r.ranked == () and r.work > 0
                if r.regret is None:
                    assert within < 10**12 and r.work > within
                    given_up += 1
                else:
                    assert r.regret == f.regret and r.work == f.work <= within
                    kept += within < 10**12
                    nonzero += r.regret > 0
    assert given_up and kept and nonzero  # both kinds met, and some regret to compare
    with pytest.raises(ValueError, match="within must be at least 0"):
        guess_regrets(player, *ex.setting_game(setting, 0), within=-1)


def test_guess_positions_describe_the_guesses_the_player_makes():
    """What benchmarks/phases.py stands on: one entry per guess after the first click, the same cells
    and probabilities as the player's own log, the last one a mine exactly when the game is lost."""
    from itertools import pairwise

    from minelib import experiments as ex
    from minelib.guesses import guess_positions

    setting = ex.record_setting("intermediate", "safe", "0,0", 40)
    player = TwoStepPlayer()
    seen = {"won": 0, "lost": 0, "exact": 0, "heuristic": 0}
    for index in range(setting.games):
        game, first = ex.setting_game(setting, index)
        record, found = guess_positions(player, game, first)
        again, first = ex.setting_game(setting, index)
        logged = [m for m in player.play(again, first, log=True).moves if not m.certain][1:]  # after the first click
        assert [(g.cell, g.mine_probability) for g in found] == [(m.cell, m.mine_probability) for m in logged]
        assert len(found) == record.guesses - 1
        layout = game.layout()
        mines_hit = [g for g in found if layout[g.cell]]
        assert mines_hit == ([] if record.won else found[-1:])
        assert all(a.layouts >= b.layouts and a.unopened > b.unopened for a, b in pairwise(found))
        for g in found:
            assert 0 < g.mine_probability < 1
            if g.exact:
                assert g.layouts <= player.endgame_compiled
        seen["won" if record.won else "lost"] += 1
        seen["exact"] += sum(g.exact for g in found)
        seen["heuristic"] += sum(not g.exact for g in found)
    assert all(seen.values()), seen  # both outcomes and both kinds of guess were checked


def test_forced_guesses_are_the_players_own_with_their_pairs_and_chains():
    """What notebook 06's chain example stands on: the same game as the player's, and at each forced 50/50 it
    guessed, the position, the cells (each a mine with probability 1/2) and the move among them."""
    from minelib import experiments as ex
    from minelib.guesses import forced_guesses

    setting = ex.record_setting("expert", "safe", "0,0")
    kinds = {True: 0, False: 0}  # chains, pairs
    for index in (85, 147, 187):  # a forced pair, and two games that chains play otherwise
        for options in ("", "chains=0"):
            player = TwoStepPlayer(chains=not options)
            record, found = forced_guesses(player, *ex.setting_game(setting, index))
            again = player.play(*ex.setting_game(setting, index), log=True)
            assert (record.won, record.guesses) == (again.won, again.guesses)
            guesses = [m for m in again.moves if not m.certain]
            for board, cells, move in found:
                assert move in guesses and move.cell in cells and move.mine_probability == Fraction(1, 2)
                result = analyze(board, 99)
                assert all(result.probability(c) == Fraction(1, 2) for c in cells)
                assert len(cells) == 2 or not options  # chains only with chains on
                kinds[len(cells) > 2] += 1
    assert all(kinds.values()), kinds  # both a chain and a pair were met


def test_a_runner_up_game_is_the_players_own_up_to_the_guess_it_changes():
    """What benchmarks/runner_up.py stands on: the same moves as the player's own game until its
    ``guess``-th heuristic guess, where another candidate is opened; the game unchanged if none."""
    from minelib import experiments as ex
    from minelib.guesses import guess_positions, play_runner_up

    setting = ex.record_setting("intermediate", "safe", "0,0", 30)
    player = TwoStepPlayer()
    forks = 0
    for index in range(setting.games):
        game, first = ex.setting_game(setting, index)
        own = player.play(game, first, log=True)
        heuristic = [g.cell for g in guess_positions(player, *ex.setting_game(setting, index))[1] if not g.exact]
        for guess in (1, 2):
            record, forked = play_runner_up(player, *ex.setting_game(setting, index), guess, log=True)
            if forked is None:
                assert (record.won, record.moves) == (own.won, own.moves)
                continue
            forks += 1
            mine, instead = forked
            assert mine == heuristic[guess - 1] and instead != mine
            at = next(i for i, (a, b) in enumerate(zip(own.moves, record.moves)) if a != b)
            assert record.moves[:at] == own.moves[:at]
            assert (own.moves[at].cell, record.moves[at].cell) == (mine, instead)
            assert not record.moves[at].certain
    assert forks >= 10  # enough games reach a first and a second guess with two candidates


def test_a_rollout_on_the_hidden_layout_with_the_players_choice_is_the_players_own_game():
    """What benchmarks/rollouts.py stands on: from any ranked decision of a game, the position's cells
    opened on the game's own layout, then the player's choice, and the player playing on, end as the
    game did; and the decisions come from the player's own game."""
    from minelib import experiments as ex
    from minelib.guesses import ranked_decisions, rollout_wins

    setting = ex.record_setting("intermediate", "safe", "0,0", 20)
    player = TwoStepPlayer()
    decisions = losses = 0
    for index in range(setting.games):
        record, found = ranked_decisions(player, *ex.setting_game(setting, index))
        game, first = ex.setting_game(setting, index)
        assert player.play(game, first).won == record.won
        for decision in found:
            decisions += 1
            cells = list(decision.ranked[:2])
            wins = rollout_wins(player, "safe", first, decision.board, setting.mines, cells, [game.layout()])
            assert wins.shape == (1, 2) and wins[0, 0] == record.won
            mines = [c for c in decision.ranked if game.layout()[c]]  # a candidate that is a mine loses at once
            if mines:
                losses += 1
                assert not rollout_wins(
                    player, "safe", first, decision.board, setting.mines, mines, [game.layout()]
                ).any()
    assert decisions >= 10 and losses >= 3


@pytest.mark.parametrize(
    "size, mines, rule, first, player, baseline, breaks",
    [
        ("3x3", 3, "safe", (0, 0), "optimal", "safest", True),
        ("4x3", 3, "safe", (0, 0), "optimal", "safest", True),
        ("4x3", 3, "safe", (0, 0), "safest", "optimal", True),
        ("4x4", 3, "safe", (0, 0), "twostep", "lookahead", False),
    ],
)
def test_advantages_along_the_games_add_up_to_the_difference_of_the_win_rates(
    size, mines, rule, first, player, baseline, breaks, monkeypatch
):
    """What benchmarks/advantage.py stands on (the performance difference lemma): over every layout, a
    player's advantages over a baseline, each with every layout of its position, sum exactly to the
    difference of their won games; and the games are the player's own. With the rollouts continued by
    the wrong player (the player's play after the first step, not the baseline's), the optimal/safest
    boards break the identity (on 4x4 the two play on alike there)."""
    from itertools import combinations

    from minelib import guesses
    from minelib.guesses import guess_advantages

    made = {
        "optimal": LookaheadPlayer(endgame_layouts=10**6, endgame_cells=None),  # the exact move everywhere
        "safest": LookaheadPlayer(endgame_layouts=0, lookahead=0),
        "lookahead": LookaheadPlayer(endgame_layouts=0),
        "twostep": TwoStepPlayer(endgame_layouts=0, endgame_compiled=0),
    }
    one, other = made[player], made[baseline]
    board = BoardSize.parse(size)
    cells = [c for c in board.cells() if c != first]
    masks = []
    for layout in combinations(cells, mines):
        mask = np.zeros((board.height, board.width), dtype=bool)
        mask[tuple(np.array(layout).T)] = True
        masks.append(mask)

    def advantages() -> tuple[Fraction, int]:
        total, parted = Fraction(0), 0
        for mask in masks:
            record, found = guess_advantages(one, other, Game(board, mines, rule, layout=mask), first)
            own = one.play(Game(board, mines, rule, layout=mask), first)
            assert (record.won, record.guesses) == (own.won, own.guesses)
            assert all(a.cell != a.other and a.samples == a.layouts and a.control == 0 for a in found)
            total += sum((a.advantage for a in found), Fraction(0))
            parted += len(found)
        return total, parted

    difference = sum(
        int(one.play(Game(board, mines, rule, layout=m), first).won)
        - int(other.play(Game(board, mines, rule, layout=m), first).won)
        for m in masks
    )
    advantage, parted = advantages()
    assert parted > 0 and difference != 0  # the two part somewhere and differ in the sum: not 0 = 0
    assert advantage == difference
    plain = guesses.rollout_wins
    monkeypatch.setattr(guesses, "rollout_wins", lambda _, *rest: plain(one, *rest))
    assert (advantages()[0] != difference) == breaks


def test_sampled_advantages_are_reproducible_and_none_where_the_players_agree():
    """``guess_advantages`` with drawn layouts: the same seed, the same advantages (each a multiple of
    1 / samples); a player against itself parts nowhere."""
    from minelib import experiments as ex
    from minelib.guesses import guess_advantages

    setting = ex.record_setting("intermediate", "safe", "0,0", 30)
    player, baseline = TwoStepPlayer(), LookaheadPlayer(endgame_layouts=0, lookahead=0)
    parted = 0
    for index in range(setting.games):
        first_run = guess_advantages(player, baseline, *ex.setting_game(setting, index), samples=6, seed=index)[1]
        again = guess_advantages(player, baseline, *ex.setting_game(setting, index), samples=6, seed=index)[1]
        assert first_run == again
        assert all(a.samples == 6 and (a.advantage * 6).denominator == 1 for a in first_run)
        parted += len(first_run)
        assert guess_advantages(player, TwoStepPlayer(), *ex.setting_game(setting, index), samples=6)[1] == []
    assert parted >= 3


def _independent_parts(board: Board, mines: int) -> int:
    """The frontier's independent parts, as the counting splits it (``structure``: each number's row less
    those inside it), checked: never fewer than the parts joined by a number touching two of their cells (a
    union-find), and, where at most 16 cells are next to a number, the frontier's layouts are exactly the
    product of the parts' own (brute force over every way to place mines there)."""
    from itertools import product

    from minelib.reference import structure

    found = structure(board, mines)
    parts = [[found.cells[j] for group in c.columns for j in group] for c in found.components]
    frontier = board.cells_where(board.frontier_mask())
    parent = {cell: cell for cell in frontier}

    def root(cell):
        while parent[cell] != cell:
            cell = parent[cell]
        return cell

    numbers = board.number_cells()
    for number in numbers:
        touching = [n for n in board.size.neighbours(number) if board.values[n] == UNOPENED]
        for cell in touching[1:]:
            parent[root(cell)] = root(touching[0])
    assert len(parts) >= len({root(cell) for cell in frontier})
    if len(frontier) <= 16:
        index = {cell: i for i, cell in enumerate(frontier)}
        layouts = np.array(list(product((0, 1), repeat=len(frontier))), dtype=np.int64)
        fits = np.ones(len(layouts), dtype=bool)
        for number in numbers:
            around = board.size.neighbours(number)
            wanted = board.values[number] - sum(board.values[n] < UNOPENED for n in around)  # less its flags
            fits &= layouts[:, [index[n] for n in around if n in index]].sum(axis=1) == wanted
        layouts = layouts[fits]
        columns = [[index[c] for c in part] for part in parts]
        columns += [[i] for i in range(len(frontier)) if not any(i in part for part in columns)]
        ways = [len({tuple(row) for row in layouts[:, part]}) for part in columns]
        assert len(layouts) == int(np.prod(ways))
    return len(parts)


def test_an_advantages_control_is_its_layouts_safety_difference_less_the_exact_one(monkeypatch):
    """``Advantage.control``: on the layouts drawn where the two part, how much more often the player's cell
    is safe than the baseline's, less the difference of their exact mine probabilities (the baseline's less
    the player's); the rollouts' wins do not enter it (here they are coin flips). And the position's features:
    the cells open, the frontier's parts, the mine probability next to no number (one for every such cell)."""
    from minelib import experiments as ex
    from minelib import guesses
    from minelib.guesses import guess_advantages

    coins, expected, opened, regions, away = np.random.default_rng(7), [], [], [], []

    def flips(player, rule, first, board, mines, cells, masks):
        result, (mine, other) = analyze(board, mines), cells
        safer = Fraction(sum(int(m[other]) - int(m[mine]) for m in masks), len(masks))
        expected.append(safer - (result.probability(other) - result.probability(mine)))
        opened.append(int((board.values != UNOPENED).sum()))
        regions.append(_independent_parts(board, mines))
        lonely = {
            result.probability(c)
            for c in board.unopened_cells()
            if all(board.values[n] < 0 for n in board.size.neighbours(c))
        }
        assert len(lonely) <= 1
        away.append(lonely.pop() if lonely else None)
        return coins.random((len(masks), len(cells))) < 0.5

    monkeypatch.setattr(guesses, "rollout_wins", flips)
    setting = ex.record_setting("intermediate", "safe", "0,0", 30)
    player, baseline = TwoStepPlayer(), LookaheadPlayer(endgame_layouts=0, lookahead=0)
    found = []
    for index in range(setting.games):
        found += guess_advantages(player, baseline, *ex.setting_game(setting, index), samples=6, seed=index)[1]
    assert len(found) >= 3 and [a.control for a in found] == expected and [a.opened for a in found] == opened
    assert any(a.control for a in found) and any(a.control != a.advantage for a in found)
    assert [a.regions for a in found] == regions and [a.away for a in found] == away
    assert len(set(regions)) > 1 and None not in away[:1]  # the features vary over these guesses


def test_explain_names_what_decided_the_move_and_ranks_the_guesses_weighed():
    """``explain``: the move of ``recommend``, the reason for it, and, when a ranking decided, every
    guess ranked with its exact probability, the move first, in the player's order of preference."""
    from minelib.lookahead import LookaheadPlayer, SafestPlayer
    from minelib.twostep import TwoStepPlayer

    walled = Board.from_text("..111\n2.2..\n.4F4.\n..F.1")
    centre = Board.from_text("......\n......\n..1...\n......\n......\n......")
    no_endgame = {"endgame_layouts": 0, "endgame_compiled": 0}
    cases = [
        (TwoStepPlayer(), Board.from_text("..1F\n..11\n..00"), 3, "one number"),
        (TwoStepPlayer(), Board.from_text("...\n121"), 2, "exact analysis"),  # no one number settles a cell
        (TwoStepPlayer(), Board.from_text("1...\n....\n...."), 3, "exact endgame"),
        (TwoStepPlayer(**no_endgame), walled, 7, "forced 50/50"),
        (TwoStepPlayer(forced=0, **no_endgame), walled, 7, "50/50 or safe"),
        (TwoStepPlayer(deep=0), centre, 6, "best score"),  # 645,840 layouts: beyond the exact endgame's 200,000
        (TwoStepPlayer(second=False), centre, 6, "deeper look"),  # four cells tie on the best score
        (TwoStepPlayer(), centre, 6, "second look"),  # and the deeper look's two best are looked at again
        (LookaheadPlayer(), centre, 6, "most progress"),
        (SafestPlayer(), centre, 6, "safest"),
    ]
    for player, board, mines, reason in cases:
        explained = player.explain(board, mines)
        assert explained.reason == reason, (player.name, reason, explained.reason)
        assert explained.move == player.recommend(board, mines)
        assert (explained.move.win_probability is not None) == (reason == "exact endgame")
        assert bool(explained.ranked) == (reason in ("best score", "deeper look", "second look", "most progress"))
        if explained.ranked:
            analysis = analyze(board, mines)
            assert explained.ranked[0].cell == explained.move.cell
            assert all(r.mine_probability == analysis.probability(r.cell) for r in explained.ranked)
            keys = [(r.living, round(r.score, 9)) for r in explained.ranked]
            assert keys == sorted(keys, reverse=True) or reason == "deeper look"  # (it ranks the near-best first)
    ranked = TwoStepPlayer().explain(centre, 6).ranked  # no 50/50 here: the scores are the two-step scores
    scores = TwoStepPlayer().scores(centre, 6)
    assert len(ranked) > 1 and all(abs(r.score - scores[r.cell]) < 1e-9 for r in ranked)


def test_candidates_rank_probabilities_exactly_where_floats_cannot_tell_them_apart():
    """Three groups whose probabilities round to the same float as 1/3 (one just under, one just
    over), and one ratio not in lowest terms: the candidates come safest first by their exact
    values, equal values share a rank, and the cut is exact too."""
    from minelib.analysis import Analysis
    from minelib.twostep import TwoStepRun

    board = Board.from_text("1.\n..")  # (0, 1), (1, 0), (1, 1) all next to the 1
    big = 2**60
    ratios = [(big + 1, 3 * big), (1, 3), (big, 3 * big + 1)]  # over, equal to, under 1/3
    assert len({a / b for a, b in ratios}) == 1 and len({Fraction(a, b) for a, b in ratios}) == 3
    groups = np.array([-1, 0, 1, 2])

    def order(cut: Fraction, ratios: list[tuple[int, int]]) -> tuple[Fraction, list]:
        result = Analysis(board, 1, 3, groups, [a for a, _ in ratios], [b for _, b in ratios])
        run = TwoStepRun(Game.showing(board, 1), False, TwoStepPlayer(cut=cut))
        return run.candidates(board, result)

    lowest, cells = order(Fraction(1, 2), ratios)
    assert lowest == Fraction(big, 3 * big + 1)
    assert cells == [(1, 1), (1, 0), (0, 1)]  # exactly safest first, not by cell
    # with a cut of 1 only the safest is near enough: the limit is the lowest probability itself
    assert order(Fraction(1), ratios)[1] == [(1, 1)]
    # 2/6 is 1/3: the same rank as (1, 3), so the two come by cell, after the safest
    assert order(Fraction(1, 2), [(2, 6), (1, 3), (big, 3 * big + 1)])[1] == [(1, 1), (0, 1), (1, 0)]


@given(positions(max_height=5, max_width=6))
def test_the_cells_at_one_half_are_those_whose_probability_is_one_half(position):
    from minelib.forced import _half_cells

    board, mines = position
    result = analyze(board, mines)
    expected = [board.size.cell_id(c) for c in board.unopened_cells() if result.probability(c) == Fraction(1, 2)]
    assert _half_cells(result) == expected


def _two_layout_positions(wanted: int = 30):
    """Positions of exactly two layouts with no certain cell, from real layouts of small boards, some cells
    opened and some mines flagged at random (seeded): [(board, mines), ...]."""
    rng, found = np.random.default_rng(13), []
    while len(found) < wanted:
        height, width = rng.integers(2, 5), rng.integers(2, 6)
        layout = rng.random((height, width)) < rng.uniform(0.15, 0.5)
        opened, flagged = rng.random((height, width)) < 0.6, rng.random((height, width)) < 0.5
        values = np.full((height, width), UNOPENED)
        values[opened & ~layout] = neighbour_sums(layout)[opened & ~layout]
        values[flagged & layout] = MINE
        board = Board(values)
        result = analyze(board, int(layout.sum()))
        if result.count == 2 and not result.decides:
            found.append((board, int(layout.sum())))
    return found


def test_a_two_layout_endgame_plays_the_search_s_move_without_searching():
    """Two layouts, no certain cell: the player plays the move the exact search would choose (the safest of its
    best cells, then row order), with the optimal solver's win probability, one half."""
    from minelib.endgame import EndgameSearch
    from minelib.optimal import OptimalSolver

    for board, mines in _two_layout_positions():
        values = EndgameSearch(mines).values(board, best=True)
        risk = analyze(board, mines).probability
        searched = min(values, key=lambda c: (risk(c), c))
        for player in (LookaheadPlayer(), TwoStepPlayer()):
            move = player.recommend(board, mines)
            assert (move.cell, move.mine_probability) == (searched, risk(searched))
            assert move.win_probability == values[searched]
        optimal = OptimalSolver(board.size, mines, engine="python", symmetry=False).position(board).move_values
        assert values[searched] == max(optimal.values()) == Fraction(1, 2) == optimal[searched]
