# fogkeeper: `make run` and `make test` set everything up themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
SHARED := ../shared

.PHONY: install engine run test check lint ruff bytecode conformance typecheck format bench bench-scale clean browser redis system

# uv installs the packages in a third of pip's time, compiled to bytecode as pip does (this
# machine sets PYTHONDONTWRITEBYTECODE: without, every process compiles them again); where uv
# cannot be had, pip installs them.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@if $(BIN)/python -m pip install --quiet uv && $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e '.[dev]'; then \
	  echo "installed fogkeeper and its packages in $(VENV) (uv)"; \
	else \
	  echo "uv could not install the packages; pip installs them" >&2; \
	  $(BIN)/python -m pip install --quiet --upgrade pip && $(BIN)/python -m pip install --quiet -e '.[dev]'; \
	fi
	@rm -f $(VENV)/.installed-*
	@touch $@

install: $(STAMP)

# The engine's checks compiled by mypyc (fogkeeper/rules/native.py), rebuilt when a source of
# the engine changes; without a C compiler it runs as plain Python, the same reports slower.
ENGINE := fogkeeper/rules/native.json
$(ENGINE): $(STAMP) scripts/build-engine $(wildcard fogkeeper/rules/*.py fogkeeper/rules/checks/*.py)
	@mkdir -p build
	@if $(BIN)/python scripts/build-engine >build/engine.log 2>&1; then tail -n 1 build/engine.log; \
	else tail -n 20 build/engine.log; echo "make engine: the engine runs as plain Python" >&2; fi

engine: $(ENGINE)

# pytest-xdist workers, each on its own database cloned from one migrated template
TEST_WORKERS ?= 2

HOST ?= 127.0.0.1
PORT ?= 8000

run: $(STAMP) $(ENGINE)
	@mkdir -p var
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py createcachetable
	$(BIN)/python manage.py demo --if-empty
	@echo "fogkeeper is starting at http://$(HOST):$(PORT)/  (sign in as shown above)"
	FOGKEEPER_DEBUG=$${FOGKEEPER_DEBUG:-true} $(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: $(STAMP) $(ENGINE) ruff

# The project's bytecode, written once for the tests' many processes (workers, commands,
# servers) where PYTHONDONTWRITEBYTECODE would have each compile every module it imports.
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q -j0 fogkeeper tests >/dev/null

ruff: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# mypy over fogkeeper/ with the Django plugin, the engine strictly ([tool.mypy] in
# pyproject.toml); its cache in .mypy_cache makes a second run take seconds.
typecheck: $(STAMP)
	$(BIN)/mypy

# The inner loop: lint, the type check, the conformance cases and every test that needs no
# database and no browser (the engine's among them), in about a minute.
check: lint typecheck
	$(BIN)/python $(SHARED)/tools/conformance.py --cmd "$(BIN)/fogkeeper evaluate" $(SHARED)/spec/cases
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --quick -q

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The browser tests (tests/browser) drive Debian's chromium, through its headless shell
# (tests/browser/conftest.py); `playwright install` is not used.
browser:
	@if command -v chromium >/dev/null 2>&1 && command -v chromium-headless-shell >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
	  if ! (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium chromium-headless-shell); then \
	    command -v chromium >/dev/null 2>&1 || exit 1; \
	    echo "make browser: chromium-headless-shell could not be installed; the browser tests drive chromium itself (slower)" >&2; \
	  fi; \
	else \
	  echo "make browser: chromium or its headless shell is not installed and this is not root, so it cannot be installed;" >&2; \
	  echo "  run 'sudo apt-get install chromium chromium-headless-shell' (the browser tests in tests/browser FAIL without chromium)" >&2; \
	fi

# The worker tests (tests/tasks) run real Celery workers against a throwaway Redis
# (scripts/with-redis), Debian's redis-server.
redis:
	@if command -v redis-server >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server; \
	else \
	  echo "make redis: redis-server is not installed and this is not root, so it cannot be installed;" >&2; \
	  echo "  run 'sudo apt-get install redis-server' (the worker tests in tests/tasks FAIL without it)" >&2; \
	fi

# chromium and Redis, one after the other (apt holds one lock at a time).
system:
	@$(MAKE) --no-print-directory browser
	@$(MAKE) --no-print-directory redis

# The shared conformance cases through `fogkeeper evaluate`, its engine read from the sources
# (FOGKEEPER_ENGINE=python) so that they run while the engine compiles; pytest runs every
# shared case through the compiled engine (tests/rules/test_conformance.py).
conformance: $(STAMP)
	@if [ -f $(SHARED)/tools/conformance.py ]; then \
	  echo "conformance cases in $(SHARED)/spec/cases:"; \
	  FOGKEEPER_ENGINE=python $(BIN)/python $(SHARED)/tools/conformance.py --cmd "$(BIN)/fogkeeper evaluate" $(SHARED)/spec/cases; \
	fi

# The engine's build, the type check, ruff, the conformance cases, the bytecode and the
# system's packages side by side (the build compiles on every core, the others keep one or
# wait on the network), then pytest.
test: $(STAMP)
	@$(MAKE) --no-print-directory -j4 --output-sync=target engine typecheck system ruff bytecode conformance
	# schemathesis explores new examples on every run (issue 15): tests/api/test_schema_*.py
	FOGKEEPER_SCHEMA_RANDOM=1 scripts/with-postgres scripts/with-redis \
	  $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup --durations=30

# bench.pages: one run with think time for each of USERS (comma separated), then 20 users with
# no wait; DURATION seconds of pages each.
bench: $(STAMP) $(ENGINE) redis
	$(BIN)/python -m bench.engine --count $${COUNT:-100000}
	scripts/with-postgres $(BIN)/python -m bench.sweep --establishments $${ESTABLISHMENTS:-25000} --years $${YEARS:-10}
	scripts/with-postgres $(BIN)/python -m bench.pages --establishments $${ESTABLISHMENTS:-25000} --years $${YEARS:-10} --users $${USERS:-20,100} --seconds $${DURATION:-60}
	scripts/with-postgres $(BIN)/python -m bench.forms --establishments $${ESTABLISHMENTS:-25000} --years $${YEARS:-10}
	scripts/with-postgres $(BIN)/python -m bench.exports --establishments $${ESTABLISHMENTS:-25000} --years $${YEARS:-10}
	scripts/with-postgres $(BIN)/python -m bench.onboard --establishments $${ESTABLISHMENTS:-25000} --years $${YEARS:-10}
	scripts/with-postgres scripts/with-redis $(BIN)/python -m bench.scale --agencies 1 --workers 2 --establishments $${ESTABLISHMENTS:-25000} --years $${YEARS:-10}
	$(BIN)/python -m bench.communications --establishments $${COMMUNICATION_ESTABLISHMENTS:-5000}

# Many agencies on one PostgreSQL, swept by 1 and by 2 worker processes (bench/scale.py).
bench-scale: $(STAMP) $(ENGINE) redis
	scripts/with-postgres scripts/with-redis $(BIN)/python -m bench.scale --agencies $${AGENCIES:-10} --establishments $${ESTABLISHMENTS:-25000} --years $${YEARS:-10}

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis build *.egg-info $(ENGINE)
	find fogkeeper/rules -name '*.so' -delete
