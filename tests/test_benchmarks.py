"""The benchmark scripts run: each on a tiny input, as a user would start it (the measurements behind the
README are theirs, so a script that no longer starts is a claim that can no longer be checked)."""

import io
import runpy
import subprocess
import sys
from contextlib import redirect_stderr
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]

RECORDS = "results/records.sqlite"  # the record runs' first games (long_pair.py: beginner's against itself)

VARIANTS = ["zero:0", "small:30", "far:2", "deep50", "second:1/100", "third:8"]  # score_variants.py's, on 4 games

# every script of benchmarks/ but common.py, with arguments that make it quick (its results to tmp_path)
TINY = {
    "against_optimal.py": ["--boards", "3x4/3", "--against-variant", "safety:1/2", "--regrets", "1", "--workers", "1"],
    "advantage.py": ["--games", "4", "--samples", "2", "--workers", "1", "--player-options", "deep=0"],
    "analyze.py": ["--positions", "3", "--repeat", "1"],
    "counters.py": ["--games", "1", "--cap", "0.05", "--quiet"],
    "endgame.py": ["--games", "2", "--bands", "2-24"],
    "endgame_memo.py": ["--games", "2", "--seed", "8", "--bands", "2-24"],
    "endgame_cliques.py": ["--games", "2", "--seed", "8", "--bands", "2-24", "--switch", "siblings"],
    "float_ties.py": ["--side", "9", "--games", "4", "--workers", "1"],
    "guessing.py": ["--games", "4", "--level", "beginner", "--results", "{tmp}/ideas.sqlite", "twostep", "lookahead"],
    "kernel_share.py": ["--games", "2", "--sizes", "9", "--densities", "0.1"],
    "luck.py": [
        "--games",
        "3",
        "--workers",
        "1",
        "--stored",
        "results/long/expert_safe_2026-11-28.sqlite",
        "--options",
        "endgame_compiled=5000",
    ],
    "luck_controls.py": ["--games", "4", "--workers", "1"],
    "long_pair.py": [
        "--level",
        "beginner",
        "--games",
        "50000",
        "--base",
        RECORDS,
        "--base-options=",
        "--other",
        RECORDS,
        "--options=",
    ],
    "optimal.py": ["--skip-article", "--boards", "3x3/2", "--cap", "5", "--ideas-boards", ""],
    "option_time.py": ["--options", "deep=4", "--against", "deep=0", "--games", "2", "--article", "9/0.1"],
    "phases.py": ["--games", "4", "--workers", "1"],
    "players.py": ["--games", "2", "--sizes", "9", "--skip-levels", "--results", "{tmp}/games.jsonl"],
    "records.py": ["--expert", "2", "--others", "2", "--levels", "beginner", "--results", "{tmp}/records.sqlite"],
    "regret.py": [
        "--games",
        "2",
        "--workers",
        "1",
        "--options",
        "endgame_compiled=0",
        "--bands",
        "24,2000,20000",
        "--budgets",
        "1,1_000_000_000",
    ],
    "rollout_features.py": ["--games", "2", "--samples", "2", "--workers", "1", "--save", "{tmp}/rows.npz"],
    "rollouts.py": ["--games", "2", "--samples", "4", "--workers", "1"],
    "runner_up.py": ["--games", "2", "--workers", "1"],
    "score_variants.py": ["--games", "4", "--workers", "1", *VARIANTS],
    "second_click.py": ["--games", "4", "--workers", "1"],
    "shortcuts.py": ["floats", "--games", "2", "--level", "beginner"],
}


def run_in_benchmarks(code: str) -> str:
    """What ``code`` prints, run by Python in benchmarks/ (where the scripts import each other)."""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT / "benchmarks", capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def run_script(script: str, *arguments: str) -> subprocess.CompletedProcess:
    """A benchmark script run from the repository's root, as the docs run it."""
    command = [sys.executable, f"benchmarks/{script}", *arguments]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_every_script_has_its_tiny_run():
    scripts = {p.name for p in (ROOT / "benchmarks").glob("*.py")} - {"common.py"}
    assert scripts == set(TINY)


@pytest.mark.parametrize("script", sorted(TINY))
def test_the_script_runs_on_a_tiny_input(script, tmp_path):
    done = run_script(script, *[a.format(tmp=tmp_path) for a in TINY[script]])
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and done.stdout.strip()


def test_regret_within_a_budget_searches_only_what_fits_and_refuses_a_budget_above_it():
    """``regret.py --within W``: the table counts the guesses searched beside those met, and a budget above W (its
    search given up before) is a usage error."""
    tiny = ["--games", "2", "--workers", "1", "--options", "endgame_compiled=0", "--bands", "24,20000"]
    done = run_script("regret.py", *tiny, "--within", "1_000_000_000", "--budgets", "1,1_000_000_000")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "fits 1,000,000,000" in done.stdout and "searched" in done.stdout and "ranked" not in done.stdout
    done = run_script("regret.py", *tiny, "--within", "1000", "--budgets", "2000")
    assert done.returncode == 2 and "--within must be" in done.stderr


def test_shortcuts_times_the_endgame_memo_on_article_games_with_the_same_moves():
    """The grown memo as a shortcut (without: 20,000 states), on article 003's games (``--article``, shared with
    option_time.py): both play the same moves, or the script exits with the game that differs."""
    done = run_script("shortcuts.py", "memo", "--games", "2", "--article", "9/0.1")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "article 003's 9/0.1, games 0-1" in done.stdout and "with memo faster by" in done.stdout


def test_shortcuts_times_the_cliques_taken_from_the_parent_with_the_same_moves():
    """The search's states taking their parent's cliques as a shortcut (without: -1, each covers itself, as before),
    on expert games: both play the same moves, or the script exits with the game that differs."""
    done = run_script("shortcuts.py", "cliques", "--games", "2", "--options", "endgame_compiled=100000")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "games 0-1" in done.stdout and "with cliques faster by" in done.stdout


def test_luck_checks_its_games_against_the_stored_run_and_narrows_the_interval(tmp_path):
    """The games luck.py plays are the long run's of the defaults of 2026-11-28, game by game, and its controlled
    interval is narrower than the won games' on these 20; against a stored run where one of them went otherwise it
    says so and exits 1, against one that holds other games (another player's setting) it is a usage error."""
    from minelib import experiments as ex
    from minelib.results import open_results

    long_run, before = "results/long/expert_safe_2026-11-28.sqlite", "endgame_compiled=5000"
    games = ["--games", "20", "--workers", "1"]
    done = run_script("luck.py", *games, "--stored", long_run, "--options", before)
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"every game as {long_run} holds it" in done.stdout
    ratio = float(done.stdout.split("controlled over won games: ")[1].split(";")[0])
    assert 0 < ratio < 1
    setting = ex.record_setting("expert", "safe", "0,0", 20, before)
    stored = ex.load(ROOT / long_run, setting)
    stored[7] = {**stored[7], "won": not stored[7]["won"]}  # game 7 as it did not go
    open_results(tmp_path / "altered.jsonl").save(setting, [stored[i] for i in range(20)])
    altered = run_script("luck.py", *games, "--stored", str(tmp_path / "altered.jsonl"), "--options", before)
    assert altered.returncode == 1 and "1 games not as" in altered.stdout and "the first 7" in altered.stdout
    other = run_script("luck.py", *games, "--stored", long_run, "--options", "second=0")
    assert other.returncode == 2 and "does not hold game 0" in other.stderr


def test_luck_controls_fits_each_half_of_the_games_on_the_other(monkeypatch):
    """luck_controls.py's cross-fitted controls: values made of the controls and a constant are left with the
    constant alone, whichever half fits them; a value the controls do not hold keeps its spread."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    from luck_controls import cross_fitted

    from minelib import strength

    rng = np.random.default_rng(7)
    controls = rng.normal(size=(40, 2))
    mean, half, slopes = cross_fitted(0.4 + controls @ np.array([2.0, -1.0]), controls)
    assert mean == pytest.approx(0.4) and half == pytest.approx(0, abs=1e-9)
    assert slopes == pytest.approx([2.0, -1.0])
    noise = rng.normal(size=40)
    assert cross_fitted(noise, controls)[1] > 0.8 * strength.mean_difference(noise.tolist())[1]


def test_records_goes_on_from_a_game_where_a_block_starts(tmp_path):
    """``--start``: a long run's next part, in a file of its own; a first game where no block starts is a usage
    error, before any game is played."""
    results = str(tmp_path / "next.sqlite")
    arguments = ["--others", "2", "--levels", "beginner", "--rules", "zero", "--results", results]
    done = run_script("records.py", *arguments, "--start", "500")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "beginner  zero (2,2)   2 from game 500" in done.stdout
    odd = run_script("records.py", *arguments[:-1], str(tmp_path / "odd.sqlite"), "--start", "250")
    assert odd.returncode == 2 and "must start at a multiple of 500, not at game 250" in odd.stderr
    assert not (tmp_path / "odd.sqlite").exists()


def advantage_guesses(*bands: str) -> dict[str, int]:
    """advantage.py's guesses where safety:1 parts from the player on 20 expert games, row by row."""
    arguments = ["safety:1", "--games", "20", "--start", "200000", "--samples", "1", "--workers", "1", *bands]
    done = run_script("advantage.py", *arguments)
    assert done.returncode == 0, done.stderr[-2000:]
    parted = {}
    for line in done.stdout.splitlines():
        where, _, rest = line.partition("  ")
        if rest.split() and rest.split()[0] == "20":  # a row of the table: its games, then its guesses
            parted[where] = int(rest.split()[1])
    return parted


def test_advantage_bands_split_every_guess_where_the_players_part():
    """By the cells open, the frontier's parts, the density away from the numbers: each set of bands splits
    the guesses where the two players part exactly once (of the 6 when written, 5 had 11 to 100 cells open,
    3 had 3 or 4 parts, 4 had a density from 0.2 to 0.21)."""
    parted = advantage_guesses("--open-bands", "10,100", "--region-bands", "2,4", "--away-bands", "0.2,0.21")
    splits = {
        "cells open": ["at most 10 cells open", "11 to 100 cells open", "more than 100 cells open"],
        "parts": ["at most 2 frontier parts", "3 to 4 frontier parts", "more than 4 frontier parts"],
        "density": [
            "at most 0.2 mine density away from the numbers",
            "0.2 to 0.21 mine density away from the numbers",
            "more than 0.21 mine density away from the numbers",
            "no cell away from the numbers",
        ],
    }
    assert parted["every guess"] > 0
    for bands in splits.values():
        assert set(bands) <= set(parted) and sum(parted[b] for b in bands) == parted["every guess"]
        assert max(parted[b] for b in bands) < parted["every guess"]  # the guesses fall in two bands or more
    every_band = {b for bands in splits.values() for b in bands}
    assert set(advantage_guesses()) == set(parted) - every_band  # no bands unless asked


def test_advantage_says_when_the_stored_run_does_not_hold_its_games(tmp_path):
    arguments = ["--games", "2", "--samples", "1", "--workers", "1", "--player-options", "deep=0"]
    done = run_script("advantage.py", *arguments, "--stored", str(tmp_path / "none.sqlite"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"no won games compared: {(tmp_path / 'none.sqlite').resolve()} does not hold these games" in done.stdout
    assert "won games against results/long/expert_safe_deep.sqlite" in run_script("advantage.py", *arguments).stdout


def test_a_change_is_measured_against_the_stored_run_named_with_its_players_options():
    """``--stored`` and ``--stored-options``: the long run of the defaults of 2026-11-28, its games replayed as stored
    by variants that change nothing (score_variants.py ``zero:0``, ``third:0``) and not by one that changes a game
    (``third:inf``), and the advantages' won games compared with it."""
    today = ["--stored", "results/long/expert_safe_2026-11-28.sqlite", "--stored-options", "endgame_compiled=5000"]
    # game 100,042: a third look where it is allowed plays it otherwise (and wins it; the stored run lost it)
    slice_ = ["--start", "100041", "--games", "2", "--workers", "1"]
    done = run_script("score_variants.py", *slice_, *today, "zero:0", "third:0", "third:inf")
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.startswith(("zero", "third"))}
    for variant in ("zero:0", "third:0"):  # (a third look where no cell is open: nowhere)
        assert rows[variant][1:4] == ["2", rows[variant][3], rows[variant][3]]  # games, wins as stored
        assert rows[variant][-1] == "0"  # none played otherwise
    assert rows["third:inf"][1] == "2" and rows["third:inf"][-1] == "1"  # one played otherwise
    assert "luck out" not in done.stdout  # a run stored before its games kept their luck
    arguments = ["--games", "2", "--samples", "1", "--workers", "1", "--player-options", "deep=0", *today]
    done = run_script("advantage.py", *arguments)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "against the player with endgame_compiled=5000" in done.stdout
    assert "won games against results/long/expert_safe_2026-11-28.sqlite" in done.stdout


def test_the_second_look_weighed_by_a_latent_fifty_fifty_plays_as_the_player_at_zero_and_otherwise_at_one():
    """score_variants.py ``weighed:0`` replays today's defaults' long run as stored; ``weighed:1`` (the second look
    where a latent 50/50 weighs the deeper look's two best) plays game 1,000,677 otherwise (5 guesses, not 2)."""
    today = ["--stored", "results/long/expert_safe_endgame_50000.sqlite", "--stored-options", "endgame_compiled=50000"]
    slice_ = ["--start", "1000677", "--games", "1", "--workers", "1"]
    done = run_script("score_variants.py", *slice_, *today, "weighed:0", "weighed:1")
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.startswith("weighed")}
    assert rows["weighed:0"][-1] == "0" and rows["weighed:1"][-1] == "1"  # played otherwise: none, one


def test_a_change_is_measured_with_the_luck_out_against_a_stored_run_that_kept_each_games_luck(tmp_path):
    """Against a stored run whose games kept their luck (here a file of lines, float64), score_variants.py gives
    the difference with the luck out too: exactly nothing for a variant that plays every game as stored."""
    from minelib import experiments as ex

    stored = tmp_path / "stored.jsonl"
    ex.run(ex.record_setting("expert", "safe", "0,0", 3, start=100041), stored, parallel=False, progress=False)
    arguments = ["--start", "100041", "--games", "3", "--workers", "1", "--stored", str(stored), "--stored-options", ""]
    done = run_script("score_variants.py", *arguments, "zero:0", "third:inf")
    assert done.returncode == 0, done.stderr[-2000:]
    header = next(line for line in done.stdout.splitlines() if line.startswith("variant"))
    assert header.split()[6:8] == ["luck", "out"]  # after "difference"
    rows = {line.split()[0]: line for line in done.stdout.splitlines() if line.startswith(("zero", "third"))}
    assert rows["zero:0"].count("+0.000% [+0.000%, +0.000%]") == 2  # the won games' difference, and the luck out
    assert rows["third:inf"].split()[-1] == "1"  # (game 100,042 played otherwise)


def test_against_optimal_sums_the_distances_only_when_every_board_is_in_the_table():
    def sum_row(boards: str) -> list[str]:
        done = run_script("against_optimal.py", "--boards", boards, "--workers", "1")
        assert done.returncode == 0, done.stderr[-2000:]
        return next(line.split() for line in done.stdout.splitlines() if line.startswith("sum"))

    assert sum_row("3x4/3,3x3/1") == ["sum", "+0.000"]  # both boards in the table of optimal play
    assert sum_row("3x4/3,5x9/1") == ["sum"]  # 5x9 is not: the sum is left blank


def test_second_click_asks_of_the_third_click_after_a_given_second():
    arguments = ["--games", "40", "--workers", "1", "--after", "0,29", "--cells", "15,0"]
    done = run_script("second_click.py", *arguments)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "opened third, after (0, 29) second" in done.stdout
    bad = run_script("second_click.py", "--games", "4", "--after", "0,29;1,1")
    assert bad.returncode != 0 and "--after takes one cell" in bad.stderr


def test_score_variants_far_weighs_the_cells_two_straight_from_a_number():
    # after a corner's 1 the player's 3 cells away from the numbers are the other corners (fewest unopened
    # neighbours); far:2 adds (0, 2) and (2, 0), which score higher, so that the player opens one of them
    check = (
        "from score_variants import VariantPlayer, FarRun, parse_variant\n"
        "from minelib.board import Board\n"
        "from minelib.game import Game\n"
        "board = Board.from_text('1' + '.' * 29 + ('\\n' + '.' * 30) * 15)\n"
        "for k in (0, 2):\n"
        "    run = FarRun(Game.showing(board, 99), False, VariantPlayer(FarRun, k))\n"
        "    result = run.analyzer.analyze(board)\n"
        "    print(k, run.candidates(board, result)[1], run.guess(board, 99, result).cell)\n"
        "try:\n"
        "    parse_variant('deep50:3')\n"
        "except ValueError as e:\n"
        "    print(e)\n"
    )
    lines = run_in_benchmarks(check).splitlines()
    assert lines[0] == "0 [(0, 29), (15, 0), (15, 29), (0, 1), (1, 0), (1, 1)] (0, 29)"
    assert lines[1] == "2 [(0, 2), (0, 29), (2, 0), (15, 0), (15, 29), (0, 1), (1, 0), (1, 1)] (0, 2)"
    assert lines[2] == "the variant deep50 takes no number"


def test_against_optimal_plays_the_variant_it_names():
    # the heuristic alone (no exact endgame) on 3x5 with 3 mines: the player wins 287 of the 364 layouts, and the
    # score times the candidate's own safety (safety:1) wins one more; safety:0 is the player itself
    check = (
        "from against_optimal import player\n"
        "from minelib.player_value import player_value\n"
        "alone = 'endgame_compiled=0,endgame_layouts=0'\n"
        "for variant in ('', 'safety:0', 'safety:1'):\n"
        "    v = player_value(player(variant, alone), '3x5', 3, 'safe', (0, 0))\n"
        "    print(type(player(variant, alone)).__name__, v.wins, v.layouts)\n"
    )
    lines = run_in_benchmarks(check).splitlines()
    assert lines == ["TwoStepPlayer 287 364", "VariantPlayer 287 364", "VariantPlayer 288 364"]


def test_the_warm_up_loads_every_kernel_that_kernel_share_times():
    # kernel_share.py wraps the kernels in Python to time them: a kernel first compiled after that (as on a
    # fresh clone, nothing cached) would call a wrapper and fail to compile, so the warm-up must load them all
    check = (
        "import common, kernel_share\n"
        "common.warm_up()\n"
        "cold = [f'{m.__name__}.{n}' for m, names in kernel_share.KERNELS for n in names"
        " if not getattr(m, n).signatures]\n"
        "print(cold)\n"
    )
    assert run_in_benchmarks(check).strip() == "[]"


def test_rollout_features_judges_its_fit_on_the_games_it_was_not_made_on(monkeypatch):
    """The runner-up wins one more layout in ten exactly where its feature is higher: fitted on the even
    games and judged on the odd ones (and back), the switch is made there and nowhere else, and gains what
    those decisions hold. Where the odd games say the opposite of the even ones (what a fit of noise
    learns), each half's fit loses on the other half, though it would gain on its own."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    from rollout_features import cross_fitted

    games = list(range(40))
    game = np.repeat(games, 5)
    x = np.tile([[1.0], [-1.0], [1.0], [-1.0], [-1.0]], (40, 1))
    difference = np.where(x[:, 0] > 0, 0.1, -0.1)
    mean, width, share = cross_fitted(game, difference, x, games)
    assert share == 2 / 5 and mean == pytest.approx(20.0) and width == pytest.approx(0.0, abs=1e-9)
    opposite = np.where(game % 2 == 0, difference, -difference)
    mean, _, share = cross_fitted(game, opposite, x, games)
    assert share == 1 / 2 and mean == pytest.approx(-25.0)  # 2 switched a game on the odd, 3 on the even


@pytest.mark.parametrize(
    "command, message",
    [
        ("kernel_share.py --sizes 20,x", "--sizes takes numbers"),
        ("kernel_share.py --densities 0.1,1.5", "mine density must lie strictly between 0 and 1"),
        ("players.py --sizes 2 --skip-levels", "every side of --sizes at least 4"),
        ("analyze.py --positions 0", "--positions and --repeat must be positive"),
        ("counters.py --cap 0", "--games and --cap must be positive"),
        ("endgame.py --bands 24-2", "--bands takes layout counts as LOW-HIGH"),
        ("endgame_memo.py --bands 5-", "--bands takes layout counts as LOW-HIGH"),
        ("optimal.py --boards 3x3/10", "10 mines do not fit on a 3x3 board"),
        ("optimal.py --ideas-boards 4x5", "a board is written HxW/mines"),
        ("optimal.py --engines numba", "--engines: each of auto, compiled, python"),
        ("option_time.py --options deep=0 --start -2 --article 9/0.1", "--start not negative"),
        ("advantage.py --samples 0", "--samples: every number must be at least 1"),
        ("advantage.py --baseline-options deep=-1", "--baseline-options 'deep=-1'"),
        ("advantage.py --stored-options deep=-1", "--stored-options 'deep=-1'"),
        ("score_variants.py --stored-options deep=-1", "--stored-options 'deep=-1'"),
        ("advantage.py nonsense:1", "unknown variant 'nonsense'"),
        ("advantage.py --open-bands 100,10", "--open-bands takes increasing bounds, not '100,10'"),
        ("advantage.py --away-bands 0.2,x", "--away-bands takes numbers separated by commas, not '0.2,x'"),
        ("option_time.py --options deep=0 --against deep=0", "--options and --against are the same"),
        ("against_optimal.py --boards 3x4/3 --first 3,0", "--first (3, 0) is outside the 3x4 board"),
        ("against_optimal.py --boards 3x4/3 --rule sure", "unknown first-click rule 'sure'"),
        ("against_optimal.py --boards 3x4/3 --against-variant safe:1", "unknown variant 'safe'"),
    ],
)
def test_a_bad_argument_is_a_usage_error_that_names_it(command, message, monkeypatch):
    """Run in this process, as ``python benchmarks/SCRIPT`` would run it (its folder first on the path): a
    usage error is found before any work, so a new process a case would only load the engines again."""
    script, *arguments = command.split()
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    monkeypatch.setattr(sys, "argv", [f"benchmarks/{script}", *arguments])
    err = io.StringIO()
    with redirect_stderr(err), pytest.raises(SystemExit) as done:
        runpy.run_path(str(ROOT / "benchmarks" / script), run_name="__main__")
    assert done.value.code == 2 and message in err.getvalue() and "Traceback" not in err.getvalue()
