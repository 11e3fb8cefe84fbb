"""What the stored runs say: record rows, paired comparisons, where games are lost (minelib.strength)."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minelib.experiments as experiments
import minelib.results as results
from minelib import strength
from minelib.experiments import Setting, run
from minelib.game import Game
from minelib.moves import Luck, Move, luck
from minelib.player_value import allowed_layouts
from minelib.players import PLAYERS, make_player
from minelib.results import Games
from tests.test_experiments import outcomes

ROOT = Path(__file__).resolve().parents[1]


def test_paired_rows_compare_variants_game_by_game(tmp_path):
    path = tmp_path / "ideas.sqlite"
    settings = [
        Setting("safest", "9x9", 10, games=12, seed=4, first_click="safe", first="0,0"),
        Setting("twostep", "9x9", 10, games=12, seed=4, first_click="safe", first="0,0", options="blend=0"),
    ]
    for setting in settings:
        run(setting, path, parallel=False, progress=False)
    base, variant = strength.paired_rows(path, settings)
    won = [outcomes(path, s) for s in settings]
    only = sum(won[1][i][0] and not won[0][i][0] for i in range(12))
    assert variant["player"] == "twostep (blend=0)" and variant["games"] == 12
    assert variant["won only here"] == only and variant["wins"] - base["wins"] == only - variant["lost only here"]
    assert base["vs base"] == "+0.000% [+0.000%, +0.000%]"
    assert settings[0].key() == Setting("safest", "9x9", 10, games=1, seed=4, first_click="safe", first="0,0").key()
    assert "options" not in settings[0].key() and '"options": "blend=0"' in settings[1].key()
    # the same comparison from a file per setting (as the long runs keep them), and a clear error
    apart = [tmp_path / "base.sqlite", tmp_path / "variant.sqlite"]
    for setting, where in zip(settings, apart):
        run(setting, where, parallel=False, progress=False)

    def untimed(rows):  # the games' seconds differ from one run to the next
        return [{k: v for k, v in row.items() if k != "median ms"} for row in rows]

    assert untimed(strength.paired_rows(apart, settings)) == untimed([base, variant])
    with pytest.raises(ValueError, match="3 results files for 2 settings"):
        strength.paired_rows(apart + [path], settings)
    # the games kept their luck: the difference with it taken out, each game's values and controls differenced
    kept = [experiments.load_games(path, s) for s in settings]
    diff = [b - a for a, b in zip(kept[0].value.tolist(), kept[1].value.tolist())]
    control = [b - a for a, b in zip(kept[0].control.tolist(), kept[1].control.tolist())]
    assert any(control) and variant["luck out"] == strength.controlled_text(diff, control)
    assert base["luck out"] == "+0.000% [+0.000%, +0.000%]"
    unkept = [Games.of({k: e[k] for k in ("index", "won", "guesses", "seconds")} for e in g.entries().values())
              for g in kept]  # fmt: skip
    assert "luck out" not in strength.stored_paired_rows(unkept, settings)[1]  # games stored before they kept it


def test_a_players_worth_over_another_on_the_games_both_hold_by_hand():
    def games(index, won, values=None):
        n = len(index)
        values = [float("nan")] * n if values is None else values
        return Games(np.array(index), np.array(won, bool), np.ones(n, np.int64), np.zeros(n), np.array(values, float),
                     np.zeros(n))  # fmt: skip

    # games 1, 2, 3 in common: won 1, 1, 0 against 0, 1, 1 (games 0 and 4 are one run's alone)
    base, other = games([0, 1, 2, 3], [1, 0, 1, 1]), games([1, 2, 3, 4], [1, 1, 0, 0])
    assert strength.paired_worth(base, other) == ("won games", strength.paired_difference([1, 1, 0], [0, 1, 1]))
    # every game of both kept its luck: values 1, 0.5, 0 against 0.25, 0.5, 1 (controls zero: the values' difference)
    base, other = games([1, 2, 3], [0, 1, 1], [0.25, 0.5, 1]), games([1, 2, 3], [1, 1, 0], [1, 0.5, 0])
    how, (mean, half) = strength.paired_worth(base, other)
    assert how == "luck out" and mean == pytest.approx((0.75 + 0 - 1) / 3) and half > 0
    with pytest.raises(ValueError, match="no game in common"):
        strength.paired_worth(games([0], [1]), games([1], [1]))


def test_independent_estimates_pooled_by_hand():
    # two of the same width: their mean, the width over the root of two; one four times as precise weighs 16 times
    mean, half = strength.pooled([(0.40, 0.02), (0.42, 0.02)])
    assert mean == pytest.approx(0.41) and half == pytest.approx(0.02 / 2**0.5)
    mean, half = strength.pooled([(0.40, 0.04), (0.42, 0.01)])
    assert mean == pytest.approx((0.40 + 16 * 0.42) / 17) and half == pytest.approx(0.04 / 17**0.5)
    assert strength.pooled([(0.3, 0.1)]) == (0.3, 0.1)
    for bad in ([], [(0.4, 0.0)]):
        with pytest.raises(ValueError, match="pooling needs one estimate or more"):
            strength.pooled(bad)


def test_a_difference_with_the_luck_out_by_hand():
    def games(values, controls):
        n = len(values)
        return Games(np.arange(n), np.zeros(n, bool), np.ones(n, np.int64), np.zeros(n), np.array(values, float),
                     np.array(controls, float))  # fmt: skip

    # differences of values 3, -1, 1, 0 and of controls 1, -1, 0, 0 (controlled_difference by hand, above)
    changed, base = games([3.5, 0, 1, 1], [1, 0, 2, 0]), games([0.5, 1, 0, 1], [0, 1, 2, 0])
    mean, half, slope = strength.luck_difference(changed, base)
    assert (mean, slope) == (0.75, 2) and half == pytest.approx(1.959964 * (3 / 16) ** 0.5 / 2)
    assert strength.luck_difference(games([1, 0], [0.5, 0]), games([1, float("nan")], [0.5, float("nan")])) is None
    assert strength.luck_difference(games([], []), games([], [])) is None
    other = games([1, 0, 1], [0, 0, 0])
    with pytest.raises(ValueError, match="not the same games"):
        strength.luck_difference(other, replace(other, index=np.array([0, 1, 3])))


@given(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60))
def test_a_difference_from_its_counts_is_the_difference_of_the_games(plus, minus, zeros):
    """``counted_difference`` (what the paired rows of a million games use) against ``mean_difference``
    of every game's difference: the same mean, and the same interval to the last bit or so."""
    diff = [1] * plus + [-1] * minus + [0] * zeros
    if not diff:
        with pytest.raises(ValueError, match="no paired games"):
            strength.counted_difference(0, 0, 0)
        return
    mean, half = strength.counted_difference(plus, minus, len(diff))
    assert mean == strength.mean_difference(diff)[0]
    assert half == pytest.approx(strength.mean_difference(diff)[1], rel=1e-15, abs=0)
    assert strength.counted_text(plus, minus, len(diff)) == strength.difference_text(diff)


def test_paired_difference_by_hand():
    # differences +1, 0, -1, +1: mean 1/4, population spread sqrt(11/16), over sqrt(4) games
    mean, half = strength.paired_difference([True, True, False, True], [False, True, True, False])
    assert mean == 0.25 and half == pytest.approx(1.959964 * (11 / 16) ** 0.5 / 2)
    assert strength.paired_difference([True, False], [True, False]) == (0.0, 0.0)
    with pytest.raises(ValueError, match="no paired games"):
        strength.paired_difference([], [])
    # as text, to a thousandth of a point: 9 more wins in 1,000 paired games, 11 games differing
    won, base = [True] * 10 + [False] * 990, [False] * 10 + [True] + [False] * 989
    half = 1.959964 * (11 / 1000 - (9 / 1000) ** 2) ** 0.5 / 1000**0.5
    assert strength.paired_text(won, base) == f"+0.900% [{0.009 - half:+.3%}, {0.009 + half:+.3%}]"
    assert strength.paired_text(won, base) == "+0.900% [+0.252%, +1.548%]"


def test_a_control_variate_keeps_the_mean_and_takes_out_what_moves_with_it():
    # differences 1/2 plus twice a control: the control's share is taken out, 1/2 stays, no spread left
    control = [0.1, -0.3, 0.2, 0.0, -0.1]
    mean, half, slope = strength.controlled_difference([0.5 + 2 * c for c in control], control)
    assert slope == pytest.approx(2) and mean == pytest.approx(0.5) and half == pytest.approx(0, abs=1e-12)
    # by hand: controls 1, -1, 0, 0 and differences 3, -1, 1, 0: slope 4/2, residuals 1, 1, 1, 0
    mean, half, slope = strength.controlled_difference([3, -1, 1, 0], [1, -1, 0, 0])
    assert slope == 2 and mean == 0.75 and half == pytest.approx(1.959964 * (3 / 16) ** 0.5 / 2)
    text = strength.controlled_text([3, -1, 1, 0], [1, -1, 0, 0])
    assert text == f"+75.000% [{0.75 - half:+.3%}, {0.75 + half:+.3%}]"
    # controls that never move: the plain mean and interval
    assert strength.controlled_difference([1, 0, 0, 1], [0.0] * 4)[:2] == strength.mean_difference([1, 0, 0, 1])
    with pytest.raises(ValueError, match="one of each per game"):
        strength.controlled_difference([1, 0], [0.0])
    with pytest.raises(ValueError, match="no paired games"):
        strength.controlled_difference([], [])


def test_record_rows_show_each_record_setting_beside_its_records(tmp_path):
    path = tmp_path / "records.sqlite"
    games = {"beginner": 6, "intermediate": 4, "expert": 4}
    summary = run(experiments.record_setting("beginner", "zero", "2,2", 6), path, parallel=False, progress=False)
    rows = {(r["level"], r["first click"]): r for r in strength.record_rows(path, games)}
    assert list(rows) == [
        ("expert", "safe (0,0)"),
        ("expert", "zero (3,3)"),
        ("intermediate", "safe (0,0)"),
        ("intermediate", "zero (2,2)"),
        ("beginner", "safe (0,0)"),
        ("beginner", "zero (2,2)"),
    ]
    played = rows["beginner", "zero (2,2)"]
    assert played["games"] == "6" and played["wins"] == str(summary.wins)
    assert played["published"] == "97.17% PSEQ-D256"
    assert rows["expert", "safe (0,0)"]["games"] == "0 of 4" and rows["expert", "safe (0,0)"]["ours"] == ""
    assert rows["expert", "safe (0,0)"]["published"] == "41.13% JSMinesweeper, 40.05% PSEQ-D256"
    only = strength.record_rows(path, games, [("beginner", "zero", "2,2")])  # one setting: a longer run's file
    assert only == [played]
    # the games kept their luck: the rate with it taken out, of the whole blocks stored (none reach past 6 games)
    luck = results.open_results(path).luck(experiments.record_setting("beginner", "zero", "2,2", 6))
    mean, half, _ = luck.rate()
    low, high = max(0, mean - half), min(1, mean + half)
    assert played["luck out"] == str(luck) == f"{mean:.2%} [{low:.2%}-{high:.2%}] of 6"
    assert rows["expert", "safe (0,0)"]["luck out"] == ""
    later = experiments.record_setting("beginner", "zero", "2,2", 500, start=500)  # a next part (blocks of 500)
    assert later.key() == experiments.record_setting("beginner", "zero", "2,2", 6).key()
    run(replace(later, games=3), path, parallel=False, progress=False)
    (next_part,) = strength.record_rows(path, {"beginner": 500}, [("beginner", "zero", "2,2")], start=500)
    assert next_part["games"] == "3 of 500 from game 500" and next_part["luck out"].endswith(" of 3")
    committed = [
        strength.record_rows(ROOT / f"results/{file}.sqlite", None, [("beginner", "zero", "2,2")], options)[0]
        for file, options in (
            ("records_2026-11", "endgame_compiled=5000"),
            ("records_2026-11-29", "endgame_compiled=20000"),
            ("records", "endgame_compiled=50000"),
            ("records", ""),
        )
    ]  # the defaults before 2026-11-29 and of 2026-11-29 (each kept in a file of their own), of 2026-12-01, today's
    assert "luck out" not in committed[0] and committed[0]["games"] == "50,000"  # stored before games kept it
    assert all(row["games"] == "50,000" and row["luck out"].endswith(" of 50,000") for row in committed[1:])  # since


# thousandths from -3 to 3 (a game's control is a sum of mine probabilities, less one for a mine), and a few
# values that sums cannot hold exactly (a run of them: controls that never move)
CONTROLS = st.one_of(st.integers(-3000, 3000).map(lambda k: k / 1000), st.sampled_from([0.1, 1 / 3]))


@given(st.lists(st.tuples(st.sampled_from([0.0, 1.0, 0.25, 0.6]), CONTROLS), min_size=1, max_size=60), st.data())
def test_the_controlled_rate_from_sums_is_the_controlled_difference_of_the_games(games, data):
    """``LuckSums.rate`` (from a run's sums, merged from blocks as a file keeps them) against
    ``controlled_difference`` (from its games, one by one), controls that never move included."""
    entries = [{"value": v, "control": c} for v, c in games]
    cuts = sorted(data.draw(st.lists(st.integers(1, len(games) - 1), max_size=3)) if len(games) > 1 else [])
    blocks = [entries[a:b] for a, b in zip([0, *cuts], [*cuts, len(entries)]) if b > a]
    sums = [results.LuckSums.of(block) for block in blocks]
    merged = sum(sums[1:], sums[0])
    assert merged.games == len(games)
    expected = strength.controlled_difference([v for v, _ in games], [c for _, c in games])
    assert merged.rate() == pytest.approx(expected, rel=1e-6, abs=1e-6)


def test_phase_rows_count_guesses_and_deaths_by_band_and_by_order():
    from fractions import Fraction

    from minelib.guesses import Guess

    def guess(layouts, p, exact=False, unopened=40):
        return Guess((0, 0), layouts, unopened, Fraction(p), exact)

    games = [
        (True, [guess(5, Fraction(1, 2), exact=True)]),
        (False, [guess(10**7, Fraction(1, 5), unopened=400), guess(50, Fraction(1, 3), exact=True)]),
        (False, []),  # lost on the first click: no guess after it, no death counted in a row
    ]
    by_layouts = strength.phase_rows(games, "layouts")
    assert [row[""] for row in by_layouts] == ["0 < n <= 100, <= 63 cells", "more than 1,000,000"]
    endgame, early = by_layouts
    assert endgame["guesses a game"] == "0.667" and endgame["by the exact search"] == "100%"
    assert endgame["deaths a game, predicted"] == f"{(1 / 2 + 1 / 3) / 3:.4f}" and endgame["found"] == "0.3333"
    assert endgame["share of losses"] == "50.0%" and early["share of losses"] == "0.0%"
    assert early["by the exact search"] == "0%" and early["deaths a game, predicted"] == "0.0667"
    assert strength.layout_band(guess(3000, Fraction(1, 2), unopened=64)) == "2,000 < n <= 20,000, > 63 cells"
    first, second = strength.phase_rows(games, "order")
    assert (first[""], first["guesses a game"], first["by the exact search"], first["found"]) == (
        "guess  1",
        "0.667",
        "50%",
        "0.0000",
    )
    assert (second[""], second["found"], second["share of losses"]) == ("guess  2", "0.3333", "50.0%")
    assert strength.guess_order(6) == "guess 7+"
    with pytest.raises(ValueError, match="'layouts' or 'order'"):
        strength.phase_rows(games, "cells")
    with pytest.raises(ValueError, match="no games"):
        strength.phase_rows([], "order")


def test_first_number_rows_split_the_stored_games_by_the_first_number(tmp_path):
    """Every game lands in the row of the number its first cell shows on its layout, and the rows'
    games and wins add up to the stored run's."""
    path = tmp_path / "runs.jsonl"
    setting = Setting("safest", "9x9", 20, games=30, seed=5, first_click="safe", first="0,0")
    run(setting, path, parallel=False, progress=False)
    rows = strength.first_number_rows(path, setting, 30)
    stored = experiments.load(path, setting)
    assert sum(r["games"] for r in rows) == 30 and sum(r["wins"] for r in rows) == sum(
        g["won"] for g in stored.values()
    )
    shown = []
    for index in range(30):
        game, first = experiments.setting_game(setting, index)
        game.open(first)
        layout = game.layout()  # the mines placed at the first click
        shown.append(int(layout[:2, :2].sum()))  # the corner's neighbours: the 2x2 block but the corner, safe
    assert [r["first click shows"] for r in rows] == sorted(set(shown))
    assert [r["games"] for r in rows] == [shown.count(n) for n in sorted(set(shown))]
    with pytest.raises(ValueError, match="10 of the first 40 games are not stored"):
        strength.first_number_rows(path, setting, 40)


@pytest.mark.parametrize(
    ("board", "mines", "rule", "first"),
    [("4x4", 3, "safe", (0, 0)), ("4x4", 4, "safe", (1, 1)), ("4x4", 4, "zero", (0, 0)), ("4x4", 2, "none", (0, 0))],
)
def test_a_games_luck_has_the_means_it_claims_over_every_layout(board, mines, rule, first):
    """Over every layout the rule allows (each as likely, as the game deals them): the controls sum to zero
    exactly, with the endgame search (values: its win probabilities) and without (values: the outcomes), and
    the values sum to the games won. Not vacuously: without the search some controls are not zero, with it some
    values lie strictly between 0 and 1."""
    size = experiments.BoardSize.parse(board)
    layouts = allowed_layouts(size, mines, rule, size.cell_id(first))
    for options in ("endgame_layouts=0,endgame_compiled=0", ""):
        player = make_player("twostep", options)
        lucks, won = [], 0
        for layout in layouts:
            record = player.play(
                Game(size, mines, rule, layout=layout.reshape(size.height, size.width)), first, log=True
            )
            lucks.append(luck(record.moves, record.won))
            won += record.won
        assert sum(g.control for g in lucks) == 0
        assert sum(g.value for g in lucks) == won
        # without the search every guess counts, with it (on these boards) none: every first guess is the search's
        assert any(g.control for g in lucks) == (options != "")
        assert any(0 < g.value < 1 for g in lucks) == (options == "")


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_every_players_luck_has_its_means_over_every_layout(name):
    """As above for every registered player (their guesses' mine probabilities are all exact), on 4x4 with 3 mines."""
    size = experiments.BoardSize.parse("4x4")
    player, control, values, won = make_player(name), 0, 0, 0
    for layout in allowed_layouts(size, 3, "safe", 0):
        record = player.play(Game(size, 3, "safe", layout=layout.reshape(4, 4)), (0, 0), log=True)
        game = luck(record.moves, record.won)
        control, values, won = control + game.control, values + game.value, won + record.won
    assert control == 0 and values == won


def test_luck_by_hand():
    """A logged game's luck: the guesses before the endgame search's first, each its mine probability less 1
    if it was the mine that ended the game; the first click (no probability) and certain moves count nothing."""
    from fractions import Fraction as F

    first = Move("open", (0, 0), False)
    guess = Move("open", (0, 5), False, F(1, 5))
    sure = Move("open", (0, 1), True, F(0))
    flag = Move("flag", (1, 1), True, F(1))
    endgame = Move("open", (2, 2), False, F(1, 3), F(3, 5))
    assert luck([first, sure, guess, flag, sure], True) == Luck(F(1), F(1, 5))
    assert luck([first, sure, guess, guess], False) == Luck(F(0), F(1, 5) + F(1, 5) - 1)
    assert luck([first, guess, endgame, guess], False) == Luck(F(3, 5), F(1, 5))
    assert luck([first], False) == Luck(F(0), F(0))  # a mine at the first click: no guess
