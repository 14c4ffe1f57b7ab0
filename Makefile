# Two commands for a newcomer: `make run` and `make test`. Everything else is set up here.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8080
CONF ?= conf
STAMP := $(VENV)/.installed

.PHONY: run test test-postgres install console init-store lint bench clean anchors anchors-stop compare compare-ci

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# The web console (issue 22): npm packages pinned by console/package-lock.json, bundled by esbuild
# into rest_adapter/console_dist/ (package data, not committed). Built when missing or older
# than its sources; needs node and npm, which a wheel's users do not.
CONSOLE_DIST := rest_adapter/console_dist/console.js
CONSOLE_SRC := $(wildcard console/src/*) console/build.mjs console/package-lock.json

# Without npm, `make run` still serves everything else (/console answers 503 saying how to build).
$(CONSOLE_DIST): $(CONSOLE_SRC)
	@if command -v npm >/dev/null; then \
	  cd console && npm ci --no-audit --no-fund --loglevel=error && npm run --silent build; \
	else echo "make: npm not found: the web console (/console) is not built; install Node.js, then make console"; fi

console: $(CONSOLE_DIST)

install: $(STAMP) $(CONSOLE_DIST)

init-store: install
	$(BIN)/hugelite init-store --conf $(CONF) --if-needed

run: init-store
	$(BIN)/hugelite serve --conf $(CONF) --host $(HOST) --port $(PORT)

test: install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The same suites on PostgreSQL-backed graphs (issue 24): storage, engine, REST, WebSocket,
# conformance, examples, the kill -9 trial and the scale-out rules. Starts a throw-away cluster
# from the machine's PostgreSQL binaries (initdb as the postgres user, a free loopback port, a
# temporary folder) and stops it; nothing is started by hand. `PYTEST_ARGS` picks other tests.
test-postgres: install
	$(BIN)/python -m tests.run_postgres $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python -m bench.run $(BENCH_ARGS)

# The real servers beside hugelite (issue 18): `make anchors` fetches Apache HugeGraph 1.7.0 and
# TinkerPop Gremlin Server 3.8.1 from Maven Central into ~/.cache/hugelite-anchors (once), starts
# both on 127.0.0.1:18720 / :18710; `make compare` runs the differential suite against them
# (not part of `make test`); `make anchors-stop` stops them.
ANCHORS ?= all
anchors: $(STAMP)
	$(BIN)/python -m compare.anchors start $(ANCHORS)

anchors-stop: $(STAMP)
	$(BIN)/python -m compare.anchors stop $(ANCHORS)

compare: $(STAMP)
	HUGELITE_DIFFERENTIAL=1 $(BIN)/python -m pytest tests/differential -p no:cacheprovider $(PYTEST_ARGS)

# for CI: starts the anchors, compares and stops them when they are cached; else one line, exit 0
compare-ci: $(STAMP)
	$(BIN)/python -m compare.anchors ci

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache console/node_modules rest_adapter/console_dist
