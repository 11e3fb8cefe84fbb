"""The benchmark helpers and byte-stable figures."""

import time

import numpy as np
import pytest

from minelib.counters import CutCounter, FrontierCounter
from minelib.plotting import new_figure, save_figure
from minelib.timing import (
    Measurement,
    TimeCapExceeded,
    Timer,
    check_agreement,
    counts_by_problem,
    format_article_table,
    run_benchmark,
    speed_ratio,
    summary,
    time_cap,
)


def test_timer_measures_a_block_and_reports_it():
    reported = []
    with Timer(reported.append) as timer:
        time.sleep(0.01)
    assert timer.seconds >= 0.01 and reported == [timer.seconds]


def test_time_cap_interrupts_a_long_block():
    for seconds in (0, -1):  # the timer itself would refuse them with an itimer_error
        with pytest.raises(ValueError, match="a time cap must be a positive number of seconds"), time_cap(seconds):
            pass
    with pytest.raises(TimeCapExceeded), time_cap(0.05):
        while True:
            pass


def test_benchmark_records_skipped_runs_and_prints_the_article_format():
    class Slow:
        def count(self, X, y):
            time.sleep(5)

    X, y = np.ones((1, 3), dtype=int), np.array([1])
    rows = run_benchmark([FrontierCounter(), Slow()], [(X, y)], cap=0.1)
    assert rows[0].count == 3 and rows[1].count is None and rows[1].seconds is None
    text = format_article_table(rows, cap=0.1)
    assert "1x3 (#=3) FrontierCounter:" in text and "Slow: skipped (over the 0.1 s cap)" in text


def test_summary_gives_ratios_to_the_reference():
    rows = [
        Measurement(0, "a", "Ref", 1, 1.0),
        Measurement(0, "a", "Other", 1, 4.0),
        Measurement(1, "b", "Ref", 2, 2.0),
        Measurement(1, "b", "Other", None, None),
    ]
    table = {entry["counter"]: entry for entry in summary(rows, "Ref")}
    assert table["Other"]["median_ratio"] == 4.0 and table["Other"]["skipped"] == 1
    assert table["Ref"]["median_s"] == 1.5


def test_check_agreement_catches_disagreeing_counters():
    with pytest.raises(AssertionError, match="disagree"):
        check_agreement([Measurement(0, "a", "A", 1, 0.1), Measurement(0, "a", "B", 2, 0.1)])
    check_agreement(run_benchmark([CutCounter(), FrontierCounter()], [(np.ones((1, 4), int), [2])]))


def test_saved_figures_are_byte_stable(tmp_path):
    def draw():
        fig, ax = new_figure()
        ax.semilogy([1, 2, 3], [1e-3, 1e-2, 1], marker="o", label="x")
        ax.legend()
        return fig

    first = [p.read_bytes() for p in save_figure(draw(), "plot", tmp_path)]
    second = [p.read_bytes() for p in save_figure(draw(), "plot", tmp_path)]
    assert first == second
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plot.png", "plot.svg"]
    assert repr(save_figure(draw(), "plot", tmp_path)) == "saved plot.png, plot.svg"
    assert b"<dc:date>" not in first[1] and b"Matplotlib v" not in first[1]


@pytest.mark.parametrize("name", ["", "../x", "a/b", ".hidden"])
def test_save_figure_rejects_bad_names(name, tmp_path):
    fig, _ = new_figure()
    with pytest.raises(ValueError, match="plain file stem"):
        save_figure(fig, name, tmp_path)


def test_counts_by_problem_keeps_every_problem():
    rows = [
        Measurement(0, "2x3", "A", 5, 0.1),
        Measurement(0, "2x3", "B", None, None),
        Measurement(1, "2x3", "A", 7, 0.1),
        Measurement(2, "1x1", "A", None, None),
    ]
    assert counts_by_problem(rows) == {"2x3": 5, "2x3 #1": 7, "1x1": None}


def test_figures_folder_follows_the_environment_or_the_nearest_figures(tmp_path, monkeypatch):
    from minelib.plotting import figures_dir

    (tmp_path / "figures").mkdir()
    (tmp_path / "notebooks").mkdir()
    monkeypatch.delenv("MINELIB_FIGURES", raising=False)
    assert figures_dir(tmp_path / "notebooks") == tmp_path / "figures"
    monkeypatch.setenv("MINELIB_FIGURES", str(tmp_path / "elsewhere"))
    assert figures_dir(tmp_path / "notebooks") == tmp_path / "elsewhere"


def test_text_table_aligns_columns_and_names_a_row_with_other_keys():
    from minelib.report import text_table

    rows = [{"board": "9x9", "wins": 3, "rate": 0.5}, {"rate": 0.25, "board": "16x30", "wins": None}]
    assert text_table(rows).splitlines() == ["board  wins   rate", "9x9       3  0.500", "16x30     -  0.250"]
    assert text_table([]) == "(no rows)"
    with pytest.raises(ValueError, match=r"row 1 has the keys \['board'\], not those of the first row"):
        text_table([{"board": "9x9", "wins": 3}, {"board": "16x30"}])


def test_speed_ratio_of_a_player_twice_as_fast_on_every_game_is_two_everywhere():
    reference = [0.1, 0.4, 0.2, 0.8, 0.3]
    ratio = speed_ratio(reference, [t / 2 for t in reference])
    assert (ratio.totals, ratio.medians, ratio.low, ratio.high) == pytest.approx((2, 2, 2, 2))


def test_speed_ratio_gives_the_totals_the_medians_and_an_interval_around_them():
    rng = np.random.default_rng(5)
    reference = rng.exponential(8.0, 400).tolist()
    ours = (rng.exponential(1.0, 400) + [30.0 if i % 50 == 0 else 0.0 for i in range(400)]).tolist()
    ratio = speed_ratio(reference, ours)
    assert ratio.totals == pytest.approx(sum(reference) / sum(ours))
    assert ratio.medians == pytest.approx(np.median(reference) / np.median(ours))
    assert ratio.totals < ratio.low < ratio.medians < ratio.high  # a few long games weigh on the totals only
    assert speed_ratio(reference, ours) == ratio  # the same draws: the same interval
    assert speed_ratio(reference, ours, seed=1) != ratio


def test_speed_ratio_refuses_games_that_are_not_paired_or_not_timed():
    with pytest.raises(ValueError, match="must be the same"):
        speed_ratio([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="positive"):
        speed_ratio([1.0, 0.0], [1.0, 1.0])
