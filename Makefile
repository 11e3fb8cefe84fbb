# The two commands a new user runs: `make reproduce` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
NOTEBOOKS := $(sort $(wildcard notebooks/[0-9]*.ipynb))

.PHONY: install reproduce lint test test-unit test-notebooks test-browser browser-if-possible chromium screenshot explore lab benchmarks tables experiments records long-runs ideas clean

install: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall whenever pyproject.toml (the list of dependencies) changes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Execute every notebook headless, in place; the notebooks rewrite figures/ (and the browser test the
# explorer page's screenshot, where chromium is).
# nbconvert writes a notebook only after all its cells ran. No execution timestamps, no widget
# state and no widget views (notebooks/tidy.py) are kept: a rerun changes only what the computation changed.
reproduce: install
	@for nb in $(NOTEBOOKS); do \
		echo "executing $$nb"; \
		$(BIN)/jupyter nbconvert --to notebook --execute --inplace \
			--ExecutePreprocessor.timeout=1800 --ExecutePreprocessor.store_widget_state=False \
			--ExecutePreprocessor.record_timing=False "$$nb" || exit 1; \
		$(BIN)/python notebooks/tidy.py "$$nb" || exit 1; \
	done
	@$(MAKE) --no-print-directory screenshot

# ruff (lint and format) over the code, mypy over the package: a minute at most.
lint: install
	$(BIN)/ruff check minelib tests benchmarks notebooks/tidy.py notebooks/conftest.py
	$(BIN)/ruff format --check minelib tests benchmarks notebooks/tidy.py notebooks/conftest.py
	$(BIN)/mypy

test: lint test-unit test-notebooks browser-if-possible

# The unit tests and the notebooks run on every core (pytest-xdist; TEST_WORKERS=0: one process, no workers):
# the unit tests as each worker comes free, a notebook's cells together on one worker, in order.
TEST_WORKERS ?= auto
test-unit: install
	$(BIN)/python -m pytest tests -n $(TEST_WORKERS) --dist worksteal

# nbval re-executes the notebooks; their figures go to a temporary folder so
# that testing leaves the working tree as it was (make reproduce rewrites figures/).
test-notebooks: install
	MINELIB_FIGURES=$$(mktemp -d) $(BIN)/python -m pytest --nbval notebooks -n $(TEST_WORKERS) --dist loadfile \
		--nbval-sanitize-with notebooks/sanitize.cfg -p no:cacheprovider --durations=5

# Real-browser checks of the explorer page (python -m minelib explore) and of notebook 07 in
# JupyterLab: Playwright drives headless Debian chromium on localhost. Its screenshot goes to a
# temporary folder, as the notebooks' figures do (make reproduce rewrites figures/explorer.png).
test-browser: install chromium
	MINELIB_FIGURES=$$(mktemp -d) $(BIN)/python -m pytest tests/browser -m browser -p no:cacheprovider --durations=5

# figures/explorer.png, the explorer page's screenshot, taken by its browser test where Debian's
# chromium is (make reproduce installs nothing: without it the screenshot stays as committed).
screenshot: install
	@if [ -x /usr/bin/chromium ]; then \
		$(BIN)/python -m pytest tests/browser -m browser -p no:cacheprovider -q \
			-k test_clicking_a_cell_shows_numbers_and_probabilities; \
	else \
		echo "figures/explorer.png kept: no /usr/bin/chromium to take it (as root: make chromium)"; \
	fi

# Debian's chromium, installed when missing (needs root and apt-get, as on CI).
chromium:
	@test -x /usr/bin/chromium || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq chromium >/dev/null; }

# make test runs the browser tests wherever chromium is or can be installed. A user without root
# is told so in one line; under CI=true a browser that cannot be had fails the run.
browser-if-possible: install
	@if [ -x /usr/bin/chromium ] || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; }; then \
		$(MAKE) --no-print-directory test-browser; \
	elif [ "$$CI" = true ]; then \
		echo "CI: Debian's chromium is missing and cannot be installed here, so the browser tests cannot run" >&2; \
		exit 1; \
	else \
		echo "browser tests skipped: no /usr/bin/chromium and no root to install it (as root: make test-browser)"; \
	fi

# The explorer as a page on localhost: make explore EXPLORE_ARGS="--size 16x30 --mines 99"
EXPLORE_ARGS ?=
explore: install
	$(BIN)/python -m minelib explore $(EXPLORE_ARGS)

lab: install
	$(BIN)/jupyter lab notebooks

# The exhaustive tables of optimal play (long; resumable: interrupt and rerun).
TABLE_ARGS ?= --side 5 --strips 2x6,2x7,2x8,2x9,2x10,3x6,3x7,4x6,5x6,6x6 --cap 1800
tables: install
	$(BIN)/python -m minelib tables $(TABLE_ARGS)

# The auto-play experiments behind notebooks 05 and 06, all resumable: stop them at will and
# run them again. experiments: the players' speed on article 003's settings, and every player at
# the levels (results/levels.sqlite); records: the strongest player's record runs, 100,000 expert
# and 50,000 other games per setting (results/records.sqlite, about 70 minutes on two cores, 2.4 hours on the slow
# machine of 2026-12-01, by the time a game some two hours with the defaults of 2026-12-03; the record runs of the defaults before
# 2026-11-29 are kept in results/records_2026-11.sqlite and those of 2026-11-29 in results/records_2026-11-29.sqlite,
# so that each file stays under 10 MB);
# ideas: one guessing idea at a time on 20,000 paired expert games, and the settings that need more
# on the 100,000 games of the expert record run (results/ideas.sqlite).
EXPERIMENT_ARGS ?= --games 50 --level-games 1000
experiments: install
	$(BIN)/python benchmarks/players.py $(EXPERIMENT_ARGS)

records: install
	$(BIN)/python benchmarks/records.py

# Longer runs where the record runs cannot tell us from the record: a million games at both expert
# settings and at beginner with an opening, 500,000 at beginner with a safe first click; each in a
# file of its own (under 10 MB). About 80, 55, 10 and 10 minutes on two cores; resumable like the
# record runs. Played with the defaults before cut=4/5 and the endgame from 5,000 layouts (LONG_OPTIONS).
# Every run after them but _second was played with the endgame from 5,000 layouts, the defaults before
# 2026-11-29 (endgame_compiled=5000 in their options; "..." below). Then with the defaults since, before
# chained 50/50s (LONG_TODAY_RUNS, --options chains=0,deep=0,second=0,..., files named _2026-11): the expert
# settings again, intermediate (about 6 and 12 minutes) and beginner (about 3 minutes each). Then the same
# settings with chained 50/50s guessed first, before the deeper look (LONG_CHAINS_RUNS, --options
# deep=0,second=0,..., files named _chains; about 25 minutes each on expert, 1.5 to 4.5 on the others). Then
# the deeper look, before the second look (LONG_DEEP_RUNS, --options second=0,..., files named _deep; about 1.7
# hours each on expert, 5 to 20 minutes on the others). And a candidate for the defaults then: the second look
# with the endgame from 20,000 layouts, on expert with a safe first click (LONG_SECOND_RUNS, --options
# second=1,endgame_compiled=20000, file named _second; about 5 hours on two cores), measured game by game
# against the _deep run: stopped at 600,000 games, where its edge was a few hundredths of a point at 2.9 times
# the time (benchmarks/README.md). Its player is today's defaults (2026-11-29). Then the defaults of
# 2026-11-28 (the second look) on expert with a safe first click (LONG_LOOK_RUNS, --options ..., file named
# _2026-11-28; its first 100,000 games are their record run's; about 5 hours on two cores), and their next
# 750,000 games, games 1,000,000 on, in a file of its own (LONG_LOOK_NEXT_RUNS, file named _2026-11-29: the
# first would pass 10 MB; each game's luck kept, 11.4 bytes a game, so that 750,000 fill 8.5 MB; about 2.5
# hours on two cores), and the defaults before them on the same games (LONG_DEEP_NEXT_RUNS, --options
# second=0,..., file named _deep_2026-11-29; about an hour): the second look game by game with the luck out.
# Then the defaults of 2026-11-29 (the endgame from 20,000 layouts) on the same games (LONG_ENDGAME_RUNS, --options
# endgame_compiled=20000 since they were replaced, file named _endgame; about 3 hours on two cores; played in 35, 75
# and 106 minutes, done): the endgame game by game with the luck out. Then the defaults of 2026-12-01 (the endgame
# from 50,000 layouts) on the same games again (LONG_ENDGAME_50000_RUNS, --options endgame_compiled=50000, the
# options they were played with as a candidate, file named _endgame_50000; about 4 hours on two cores; its first
# 141,500 games played in 86 minutes on a busy machine, the next 236,500 in 124 minutes, the next 159,500 in 104, the
# next 62,500 in about 45, the last 150,000 in 54: done): +0.009 [+0.005, +0.013] points with the luck out on 750,000 games
# (benchmarks/README.md). Last, a candidate then: the endgame from 200,000 layouts within a budget of 400,000,000
# units of work on every search (LONG_ENDGAME_200000_RUNS, --options ...,endgame_budget_above=0 since the defaults of
# 2026-12-03 spare the searches of at most 50,000 layouts the budget; the file named _endgame_200000; 2026-12-02 on;
# about 1.8 times the defaults' time, some 12 hours on two cores; its first 302,000 games played in 72, 106, 31 and
# a few minutes), game by game against _endgame_50000.
# Then today's defaults (those of 2026-12-03, no options: their first games are their record runs', game by game)
# on the smaller levels, where their record runs of 50,000 games left beginner with an opening under PSEQ-D256's
# rate (LONG_DEFAULTS_RUNS, files named _2026-12-03; 2026-12-07: 11, 27, 11 and 34 minutes on two cores, in order).
# Then today's defaults on expert with a safe first click on new games, from game 1,750,000 past every game above
# (LONG_DEFAULTS_NEXT_RUNS, the file named _2026-12-03, each game's luck kept: 750,000 games fill about 8.5 MB; about
# 40 games a second on two cores, five hours; 2026-12-07: the first 300,500 in 130 minutes): their own rate pools with
# notebook 06's estimate from the runs before.
# When the defaults change, their options go here, as endgame_compiled=50000 did for the defaults of 2026-12-01.
LONG_RUNS := expert:safe:1000000 expert:zero:1000000 beginner:zero:1000000 beginner:safe:500000
LONG_OPTIONS := cut=9/10,endgame_compiled=2000,chains=0,deep=0,second=0
LONG_TODAY_RUNS := expert:safe:1000000 expert:zero:1000000 intermediate:safe:500000 intermediate:zero:1000000 \
	beginner:zero:1000000 beginner:safe:500000
LONG_TODAY_OPTIONS := chains=0,deep=0,second=0,endgame_compiled=5000
LONG_CHAINS_RUNS := $(LONG_TODAY_RUNS)
LONG_DEEP_RUNS := $(LONG_TODAY_RUNS)
LONG_SECOND_RUNS := expert:safe:600000
LONG_LOOK_RUNS := expert:safe:1000000
LONG_LOOK_NEXT_RUNS := expert:safe:750000
LONG_DEEP_NEXT_RUNS := $(LONG_LOOK_NEXT_RUNS)
LONG_ENDGAME_RUNS := $(LONG_LOOK_NEXT_RUNS)
LONG_ENDGAME_50000_RUNS := $(LONG_LOOK_NEXT_RUNS)
LONG_ENDGAME_200000_RUNS := $(LONG_LOOK_NEXT_RUNS)
LONG_DEFAULTS_RUNS := beginner:zero:1000000 intermediate:safe:500000 beginner:safe:500000 intermediate:zero:1000000
LONG_DEFAULTS_NEXT_RUNS := expert:safe:750000
comma := ,
# One set of long runs: $(1) runs (level:rule:games), $(2) the player's options, $(3) the files' suffix, $(4) the
# first game's number (none: 0).
define long_runs
	@for run in $(1); do level=$${run%%:*}; rest=$${run#*:}; rule=$${rest%%:*}; games=$${rest#*:}; \
		$(BIN)/python benchmarks/records.py --expert $$games --others $$games --levels $$level --rules $$rule \
			$(if $(2),--options $(2)) $(if $(4),--start $(4)) --results results/long/$${level}_$${rule}$(3).sqlite || exit 1; done
endef
long-runs: install
	@mkdir -p results/long
	$(call long_runs,$(LONG_RUNS),$(LONG_OPTIONS),)
	$(call long_runs,$(LONG_TODAY_RUNS),$(LONG_TODAY_OPTIONS),_2026-11)
	$(call long_runs,$(LONG_CHAINS_RUNS),deep=0$(comma)second=0$(comma)endgame_compiled=5000,_chains)
	$(call long_runs,$(LONG_DEEP_RUNS),second=0$(comma)endgame_compiled=5000,_deep)
	$(call long_runs,$(LONG_SECOND_RUNS),second=1$(comma)endgame_compiled=20000,_second)
	$(call long_runs,$(LONG_LOOK_RUNS),endgame_compiled=5000,_2026-11-28)
	$(call long_runs,$(LONG_LOOK_NEXT_RUNS),endgame_compiled=5000,_2026-11-29,1000000)
	$(call long_runs,$(LONG_DEEP_NEXT_RUNS),second=0$(comma)endgame_compiled=5000,_deep_2026-11-29,1000000)
	$(call long_runs,$(LONG_ENDGAME_RUNS),endgame_compiled=20000,_endgame,1000000)
	$(call long_runs,$(LONG_ENDGAME_50000_RUNS),endgame_compiled=50000,_endgame_50000,1000000)
	$(call long_runs,$(LONG_ENDGAME_200000_RUNS),endgame_compiled=200000$(comma)endgame_budget=400000000$(comma)endgame_budget_above=0,_endgame_200000,1000000)
	$(call long_runs,$(LONG_DEFAULTS_RUNS),,_2026-12-03)
	$(call long_runs,$(LONG_DEFAULTS_NEXT_RUNS),,_2026-12-03,1750000)

ideas: install
	$(BIN)/python benchmarks/guessing.py
	$(BIN)/python benchmarks/guessing.py --seed 2026 --games 100000 \
		twostep:off_frontier=6,influence=0,cut=9/10,endgame_compiled=2000,chains=0,deep=0,second=0 \
		twostep:influence=0,cut=9/10,endgame_compiled=2000,chains=0,deep=0,second=0 \
		twostep:off_frontier=2,influence=0,cut=9/10,endgame_compiled=2000,chains=0,deep=0,second=0 \
		twostep:blend=10,influence=0,cut=9/10,endgame_compiled=2000,chains=0,deep=0,second=0 \
		twostep:cut=9/10,endgame_compiled=2000,chains=0,deep=0,second=0 twostep:dead=0,cut=9/10,endgame_compiled=2000,chains=0,deep=0,second=0 \
		twostep:off_frontier=0,cut=9/10,endgame_compiled=2000,chains=0,deep=0,second=0 twostep:chains=0,deep=0,second=0,endgame_compiled=5000 \
		twostep:deep=0,second=0,endgame_compiled=5000 twostep:second=0,endgame_compiled=5000

# Every benchmark but the long runs (make records, make long-runs, make ideas).
benchmarks: install
	@for b in $(filter-out benchmarks/records.py benchmarks/guessing.py benchmarks/common.py,$(wildcard benchmarks/*.py)); do \
		echo "== $$b"; $(BIN)/python "$$b" || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
