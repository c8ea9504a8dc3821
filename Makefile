# splendor: the two commands a fresh machine needs are `make play` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
ARGS ?=

.PHONY: setup play test test-fast test-nojit bench clean

setup: $(STAMP)

# Creates .venv if missing and installs the package with its test dependencies.
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

# A terminal game: you against bots (override with ARGS="--players 3 --seats human,greedy,random").
play: $(STAMP)
	$(VENV)/bin/splendor play $(ARGS)

# The whole suite (compiled), then the rule tests again as plain Python (NUMBA_DISABLE_JIT=1).
test: $(STAMP)
	$(PY) -m pytest -q -n 2
	NUMBA_DISABLE_JIT=1 $(PY) -m pytest -q -n 2 -m "not slow" tests/classic tests/duel

test-fast: $(STAMP)
	$(PY) -m pytest -q -n 2 -m "not slow"

bench: $(STAMP)
	$(PY) benchmarks/bench_engines.py $(ARGS)

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
