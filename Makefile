# splendor: the two commands a fresh machine needs are `make play` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
ARGS ?=

.PHONY: setup system-deps play serve lint format messages docs docs-serve test test-fast test-nojit bench clean

setup: $(STAMP)

# Creates .venv if missing and installs the package with its test and lint dependencies.
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,lint]'
	@touch $(STAMP)

# A terminal game: you against bots (override with ARGS="--players 3 --seats human,greedy,random").
play: $(STAMP)
	$(VENV)/bin/splendor play $(ARGS)

# The web app (API, WebSockets, browser client) on http://127.0.0.1:8000/ (ARGS="--port 9000
# --database-url postgresql+psycopg://user@host/db"; default database: a SQLite file in your data dir).
serve: $(STAMP)
	$(VENV)/bin/splendor serve $(ARGS)

# System packages the tests need: PostgreSQL (server storage tests) and Chromium (browser tests),
# installed with apt-get (through sudo unless root) only when missing.
system-deps:
	@missing=""; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing="$$missing chromium"; \
	if [ -n "$$missing" ]; then \
	  if command -v apt-get >/dev/null 2>&1; then \
	    sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	    echo "installing:$$missing"; \
	    $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	  else \
	    echo "missing system packages:$$missing (install them; no apt-get here)" >&2; \
	  fi; \
	fi

# The checks (configured in pyproject.toml; the pre-commit hooks run the same): ruff's lint
# rules and formatting over every Python file, strict mypy over src/splendor. Changes nothing.
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/pre-commit validate-config .pre-commit-config.yaml

# Rewrites the files: ruff format, then ruff's safe automatic fixes (import order, pyupgrade).
format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# The message catalogues (splendor.i18n.DOMAINS: splendor, the rules' sentences; tui; server;
# web, the browser's JavaScript): each domain's messages into locale/<domain>.pot, merged into
# the catalogues of every language but English (fr nl de es it pt pl); translate what it adds (tests/test_i18n.py fails while a
# message is untranslated or unused). One domain: make messages MESSAGE_DOMAINS=tui.
LOCALE := src/splendor/locale
PYBABEL_EXTRACT = $(VENV)/bin/pybabel extract --project splendor --no-wrap --add-location file \
	  --sort-by-file --copyright-holder "the splendor project" \
	  --msgid-bugs-address "the splendor issue tracker" \
	  --version "$$($(PY) -c 'import importlib.metadata as m; print(m.version("splendor"))')"
MESSAGE_DOMAINS ?= splendor tui server web
messages: $(STAMP)
	for domain in $(MESSAGE_DOMAINS); do \
	  case $$domain in \
	    splendor) $(PYBABEL_EXTRACT) --ignore-dirs "tui server web" -o $(LOCALE)/splendor.pot src/splendor;; \
	    web) $(PYBABEL_EXTRACT) -F $(LOCALE)/web-mapping.cfg -k t -k tn:1,2 -o $(LOCALE)/web.pot src/splendor/web;; \
	    *) $(PYBABEL_EXTRACT) -o $(LOCALE)/$$domain.pot src/splendor/$$domain;; \
	  esac; \
	  for lang in fr nl de es it pt pl; do \
	    test -f $(LOCALE)/$$lang/LC_MESSAGES/$$domain.po || \
	      $(VENV)/bin/pybabel init -i $(LOCALE)/$$domain.pot -d $(LOCALE) -D $$domain -l $$lang --no-wrap; \
	  done; \
	  $(VENV)/bin/pybabel update -i $(LOCALE)/$$domain.pot -d $(LOCALE) -D $$domain --no-wrap \
	    --ignore-obsolete --no-fuzzy-matching; \
	done

# The documentation site (mkdocs.yml, pages in docs/, the API reference from the docstrings),
# built into site/ (git-ignored). --strict: a broken link or anchor, a page missing from the
# nav or a docstring mkdocstrings cannot read fails the build. No network needed.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict

# The same site served with live reload on http://127.0.0.1:8001/ (ARGS="--dev-addr ...").
docs-serve: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs serve --strict --dev-addr 127.0.0.1:8001 $(ARGS)

# The checks, the documentation's strict build, the whole suite (compiled), then the rule
# tests again as plain Python (NUMBA_DISABLE_JIT=1).
test: $(STAMP) system-deps lint docs
	$(PY) -m pytest -q -n 2
	NUMBA_DISABLE_JIT=1 $(PY) -m pytest -q -n 2 -m "not slow" tests/classic tests/duel

test-fast: $(STAMP)
	$(PY) -m pytest -q -n 2 -m "not slow"

bench: $(STAMP)
	$(PY) benchmarks/bench_engines.py $(ARGS)
	$(PY) benchmarks/bench_rl.py
	$(PY) benchmarks/bench_vector.py
	$(PY) benchmarks/bench_legal.py

clean:
	rm -rf $(VENV) build dist site src/*.egg-info .pytest_cache .hypothesis .mypy_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
