"""A player's guesses under the lens: their exact regrets where the search reaches, the positions
they are made in, a game replayed with the runner-up opened at one of them, the candidates of a
guess played out on layouts drawn from its position, and a player's advantage over another where
their guesses part (notebook 06 and the benchmarks measure where games are lost with these).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from minelib.board import UNOPENED, Board, Cell
from minelib.endgame import EndgameSearch
from minelib.game import Game
from minelib.lookahead import LookaheadPlayer, LookaheadRun
from minelib.moves import Move, Record, at_least
from minelib.optimal import COMPILED_CELLS
from minelib.sampling import RankedLayouts
from minelib.twostep import SCORED_REASONS, TwoStepPlayer, TwoStepRun


@dataclass(frozen=True)
class Regret:
    """A heuristic guess in a position the exact search reaches: the layouts left, the best cell's
    win probability under optimal play less that of the cell opened, and the search's seconds; where
    the two-step score ranked the guess (``SCORED_REASONS``), the regret of each cell it ranked, in its
    order (the first is the cell opened): what an exact choice among its first few would leave. ``work``
    and ``best_seconds`` (when ``guess_regrets`` is asked for them, else 0): what the player's own question,
    the best cells alone (``best=True``), takes a fresh search (``EndgameSearch.work``: what a budget,
    ``endgame_budget``, counts) and its seconds. ``regret`` is None where that search was given up past
    ``guess_regrets``' ``within``."""

    layouts: int
    regret: Fraction | None
    seconds: float
    ranked: tuple[Fraction, ...] = ()
    work: int = 0
    best_seconds: float = 0.0


def guess_regrets(
    player: LookaheadPlayer,
    game: Game,
    first: Cell,
    layouts: tuple[int, int] = (0, 20_000),
    work: bool = False,
    within: int = 0,
) -> tuple[Record, list[Regret]]:
    """Play ``game`` from ``first`` and, at each guess of the player's heuristic (not its exact endgame
    moves) in a position of at most 63 unopened cells with ``low < layouts <= high``, the exact regret
    of the cell it opened (``EndgameSearch``). Layouts never grow as a game goes on, so a game once in
    reach stays there, and the value a player loses against optimal play from there is the expected
    sum of its regrets along its games: summed over games, an unbiased estimate of what the exact
    move would add to its win rate, without the noise of won and lost games. With ``work``, a second,
    fresh search of the best cells alone says what the player's search there takes (``Regret.work``).

    With ``within`` (a budget of work; ``work`` implied), that search of the best cells comes first and is
    given up past ``within`` (the regret None), and every cell is searched only where it ends and the cell
    opened is not among the best (else the regret is 0, and ``ranked`` is left empty): the regret a player
    with ``endgame_budget`` up to ``within`` would save, where a search of every cell takes minutes."""
    low, high = layouts
    at_least(0, within=within)
    found: list[Regret] = []

    def note(run: LookaheadRun, board: Board, mines: int, result, move: Move) -> None:
        if low < result.count <= high and len(board.unopened_cells()) <= COMPILED_CELLS:
            if within:
                search, began = EndgameSearch(mines), time.perf_counter()
                best_cells = search.values(board, best=True, count=result.count, budget=within)
                spent, worked = time.perf_counter() - began, search.work
                regret: Fraction | None = None if best_cells is None else Fraction(0)
                if best_cells is not None and move.cell not in best_cells:
                    values = search.values(board, count=result.count)  # on the memo of the search above
                    assert values is not None  # at most 63 unopened cells: the compiled search always answers
                    regret = max(best_cells.values()) - values[move.cell]
                found.append(Regret(result.count, regret, time.perf_counter() - began, (), worked, spent))
                return
            began = time.perf_counter()
            values = EndgameSearch(mines).values(board)
            assert values is not None  # at most 63 unopened cells: the compiled search always answers
            best = max(values.values())
            ranked = tuple(best - values[r.cell] for r in run.ranked) if run.reason in SCORED_REASONS else ()
            found.append(Regret(result.count, best - values[move.cell], time.perf_counter() - began, ranked))
            if work:
                search, began = EndgameSearch(mines), time.perf_counter()
                search.values(board, best=True, count=result.count)
                found[-1] = replace(found[-1], work=search.work, best_seconds=time.perf_counter() - began)

    return _watch(player, game, first, note), found


def forced_guesses(
    player: TwoStepPlayer, game: Game, first: Cell
) -> tuple[Record, list[tuple[Board, list[Cell], Move]]]:
    """Play ``game`` from ``first`` (the same moves as ``player.play``) and return each 50/50 the player
    guessed because nothing could ever resolve it: the position, the cells of its pair or chain
    (``TwoStepRun.forced_pair``, ``forced_chain``) and the move."""
    found: list[tuple[Board, list[Cell], Move]] = []

    def note(run: LookaheadRun, board: Board, mines: int, result, move: Move) -> None:
        if run.reason == "forced 50/50":
            assert isinstance(run, TwoStepRun)
            found.append((board, list(run.forced_cells), move))

    return _watch(player, game, first, note), found


def _watch(
    player: LookaheadPlayer, game: Game, first: Cell, note: Callable[..., None], endgame: bool = False
) -> Record:
    """Play ``game`` from ``first`` as ``player.play`` does, calling ``note(run, board, mines, result, move)`` after
    each of the heuristic's guesses and, with ``endgame``, each move of the exact endgame (this run only)."""
    start = time.perf_counter()
    run = player._run(game, False)
    plain_guess, plain_endgame = run.guess, run.endgame

    def guess(board: Board, mines: int, result) -> Move:
        move = plain_guess(board, mines, result)
        note(run, board, mines, result, move)
        return move

    def endgame_move(board: Board, result, cells: int | None = None, budget: int = 0) -> Move | None:
        move = plain_endgame(board, result, cells, budget)
        if move is not None:
            note(run, board, game.mines, result, move)
        return move

    run.guess = guess  # type: ignore[method-assign]  # this run only
    if endgame:
        run.endgame = endgame_move  # type: ignore[method-assign]
    run.play(first)
    return run.record(start)


@dataclass(frozen=True)
class Guess:
    """A guess a player made: the cell, the layouts left and the unopened cells in its position, the
    cell's mine probability, and whether the exact endgame search chose it (else the heuristic)."""

    cell: Cell
    layouts: int
    unopened: int
    mine_probability: Fraction
    exact: bool


def guess_positions(player: LookaheadPlayer, game: Game, first: Cell) -> tuple[Record, list[Guess]]:
    """Play ``game`` from ``first`` and describe the position of each of the player's guesses, in
    order: where in a game the guesses are made and the games lost (the last guess of a lost game
    found the mine). The same moves as ``player.play``."""
    found: list[Guess] = []

    def note(run: LookaheadRun, board: Board, mines: int, result, move: Move) -> None:
        assert move.mine_probability is not None  # a guess always carries its mine probability
        exact = move.win_probability is not None
        found.append(Guess(move.cell, result.count, len(board.unopened_cells()), move.mine_probability, exact))

    return _watch(player, game, first, note, endgame=True), found


def play_runner_up(
    player: TwoStepPlayer, game: Game, first: Cell, guess: int, log: bool = False
) -> tuple[Record, tuple[Cell, Cell] | None]:
    """Play ``game`` from ``first`` as ``player`` does, but at its ``guess``-th heuristic guess (from 1;
    not the exact endgame's moves; a forced or latent 50/50 it plays first counts as one) open its best
    other candidate by two-step score, influence not weighed, instead (ties: the candidates' order).
    The record, and the cell the player would have opened with the one opened instead; None when the
    game never came to that guess or it had a single candidate (then the game is the player's own).
    Played on the same game as the player's own run, it measures what the player's choice over its
    runner-up is worth at that point of a game."""
    run = TwoStepRun(game, log, player)
    plain = run.guess
    made, forked = 0, None

    def fork(board: Board, mines: int, result) -> Move:
        nonlocal made, forked
        move = plain(board, mines, result)
        made += 1
        if made != guess:
            return move
        candidates = run.candidates(board, result)[1]
        others = [c for c in candidates if c != move.cell]
        if not others:
            return move
        cell = max(others, key=lambda c: (run.score(board, result, c)[1], -candidates.index(c)))
        forked = (move.cell, cell)
        return Move("open", cell, False, result.probability(cell))

    start = time.perf_counter()
    run.guess = fork  # type: ignore[method-assign]  # this run only
    run.play(first)
    return run.record(start), forked


@dataclass(frozen=True)
class Decision:
    """A guess the two-step ranking decided: its position, the layouts left, and the candidates as ranked
    (the cell opened first)."""

    board: Board
    layouts: int
    ranked: tuple[Cell, ...]


def ranked_decisions(player: TwoStepPlayer, game: Game, first: Cell) -> tuple[Record, list[Decision]]:
    """Play ``game`` from ``first`` (the same moves as ``player.play``) and return each guess that the
    two-step score (or its deeper or second look) chose among two candidates or more."""
    found: list[Decision] = []

    def note(run: LookaheadRun, board: Board, mines: int, result, move: Move) -> None:
        if run.reason in SCORED_REASONS and len(run.ranked) > 1:
            found.append(Decision(board, result.count, tuple(r.cell for r in run.ranked)))

    return _watch(player, game, first, note), found


def rollout_wins(
    player: LookaheadPlayer, rule: str, first: Cell, board: Board, mines: int, cells: list[Cell], masks
) -> np.ndarray:
    """Per layout of ``masks`` (rows) and cell of ``cells`` (columns): whether ``player`` wins the game on
    that layout (first click ``first`` under ``rule``) when the cells open in ``board`` open first, then
    the cell, and it plays on: a cell's win rate over layouts drawn from the position
    (``minelib.sampling``) is its value under the player's own play."""
    opened = tuple(c for c in board.size.cells() if board.values[c] >= 0 and c != first)
    wins = np.zeros((len(masks), len(cells)), dtype=bool)
    for i, mask in enumerate(masks):
        for j, cell in enumerate(cells):
            if mask[cell]:  # the cell is a mine there: lost at once, no game to play
                continue
            game = Game(board.size, mines, rule, layout=mask)
            wins[i, j] = player.play(game, first, then=opened + (cell,)).won
    return wins


def safety_control(result, cell: Cell, other: Cell, masks) -> Fraction:
    """How much more often ``cell`` is safe than ``other`` on the layouts ``masks`` (boolean mine arrays of
    the position ``result`` analysed), less the exact difference, the mine probability of ``other`` less
    that of ``cell``: zero on average over layouts drawn uniformly from the position, exactly zero over
    every one. A cell that is a mine loses at once, so this moves with the difference of what the two
    cells win, and a multiple of it can be taken out of that difference (a control variate,
    ``strength.controlled_difference``)."""
    safer = Fraction(sum(int(m[other]) - int(m[cell]) for m in masks), len(masks))
    return safer - (result.probability(other) - result.probability(cell))


@dataclass(frozen=True)
class Advantage:
    """A guess where a player parts from a baseline: the layouts left, the player's cell, the baseline's,
    and the player's advantage there, the baseline's win rate playing on after the player's cell less
    after its own, over ``samples`` layouts of the position (drawn, or every one: then exact).

    ``control``: on the same layouts, how much more often the player's cell is safe than the baseline's,
    less what the position's exact probabilities say (``safety_control``): zero on average, and exactly
    zero with every layout. It moves with the advantage, which less a multiple of it has the same mean
    and, over many guesses, less noise. Three features of the whole position, to split the advantages
    by: ``opened``, the cells open or flagged; ``regions``, the frontier's independent parts (linked by
    the mines in all only); ``away``, the mine probability of a cell next to no number (None if every
    unopened cell is next to one)."""

    layouts: int
    cell: Cell
    other: Cell
    advantage: Fraction
    samples: int
    control: Fraction = Fraction(0)
    opened: int = 0
    regions: int = 0
    away: Fraction | None = None


def guess_advantages(
    player: LookaheadPlayer,
    baseline: LookaheadPlayer,
    game: Game,
    first: Cell,
    samples: int | None = None,
    seed: int = 0,
) -> tuple[Record, list[Advantage]]:
    """Play ``game`` from ``first`` as ``player`` does and, at each of its guesses (the exact endgame's
    moves too) where ``baseline`` would open another cell, the player's advantage there: both cells
    opened on the same layouts of the position, ``samples`` drawn uniformly (``seed``, then one more
    per guess) or, with None, every one, the baseline playing on (``rollout_wins``).

    Summed along a game, the advantages are an unbiased estimate of what the player wins more than
    the baseline, game for game (the performance difference lemma: a position's layouts are uniform
    given what it shows, so the baseline's win rate after a cell is its value there, and the sum of
    the player's steps' gains over it telescopes to the difference of the two win rates). It is spared
    the luck of the later guesses by which two players' won games differ, at the cost of the
    rollouts (``benchmarks/advantage.py``); with every layout it is exact (a test checks the identity
    on small boards). Each comes with its control (``Advantage.control``), from the same layouts."""
    found: list[Advantage] = []

    def note(run: LookaheadRun, board: Board, mines: int, result, move: Move) -> None:
        other = baseline.recommend(board, mines)
        if other.cell == move.cell:
            return
        layouts = RankedLayouts(board, mines)
        if samples is None:
            masks = [layouts.layout(rank) for rank in range(layouts.count)]
        else:
            masks = layouts.sample(samples, seed=seed + len(found))
        wins = rollout_wins(baseline, game.first_click, first, board, mines, [move.cell, other.cell], masks)
        advantage = Fraction(int(wins[:, 0].sum()) - int(wins[:, 1].sum()), len(masks))
        control = safety_control(result, move.cell, other.cell, masks)
        opened = int(np.count_nonzero(board.values != UNOPENED))
        regions = len(layouts.structure.components)
        away = board.cells_where(board.interior_mask())
        away_risk = result.probability(away[0]) if away else None
        found.append(
            Advantage(result.count, move.cell, other.cell, advantage, len(masks), control, opened, regions, away_risk)
        )

    return _watch(player, game, first, note, endgame=True), found


__all__ = [
    "Advantage",
    "Decision",
    "Guess",
    "Regret",
    "forced_guesses",
    "guess_advantages",
    "guess_positions",
    "guess_regrets",
    "play_runner_up",
    "ranked_decisions",
    "rollout_wins",
    "safety_control",
]
