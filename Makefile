# The two commands a new user needs: `make run` and `make test`. Everything else is a step of theirs.
VENV        := .venv
BIN         := $(VENV)/bin
PY          := $(BIN)/python
STAMP       := $(VENV)/.installed
HOST        ?= 127.0.0.1
PORT        ?= 8000
# pytest-xdist workers: one per core by default; each has its own test database.
WORKERS     ?= auto
# NO_BROWSER=1 leaves the browser tests (marked e2e) out, for a machine where Chromium cannot be
# installed; the run says so at its start. CI never sets it.
ifdef NO_BROWSER
NOT_BROWSER := and not e2e
endif

.PHONY: run serve loadtest test test-slow test-all setup lint typecheck pytest pytest-slow browser catalog check-catalog schema clean bench simulate scenarios mutants

run: setup ## set up, migrate, load the whole catalog and serve on $(HOST):$(PORT)
	$(PY) manage.py migrate --no-input
	$(PY) manage.py load_catalog
	$(PY) manage.py draw_faces
	@$(PY) manage.py validate_cards > /dev/null 2>&1 \
	  && echo "Validated every card (python manage.py validate_cards shows the report)" \
	  || echo "Some cards fail validation: python manage.py validate_cards shows which"
	$(PY) manage.py bulk_data
	@echo "Serving the card site on http://$(HOST):$(PORT)/ (Ctrl-C stops it)"
	$(PY) manage.py runserver $(HOST):$(PORT)

test: setup browser lint typecheck pytest ## lint, types and the test suite in parallel (the slow tier apart)

test-slow: setup browser pytest-slow ## the slow tier: fuzzing at full depth, hostile requests, the load test, the production server

test-all: test pytest-slow ## everything CI checks

setup: $(STAMP)

$(STAMP): pyproject.toml scripts/find-python
	@python=$$(scripts/find-python) || exit 1; \
	  if [ ! -x $(PY) ]; then echo "Creating $(VENV) with $$python"; "$$python" -m venv $(VENV) || exit 1; fi
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	@touch $(STAMP)

browser: ## Debian's chromium for the browser tests (installed when missing and allowed)
ifdef NO_BROWSER
	@echo "NO_BROWSER is set: the browser tests (marked e2e) are left out of this run." >&2
else
	@scripts/ensure-chromium
endif

lint: setup
	$(BIN)/ruff check --no-cache .
	$(BIN)/ruff format --no-cache --check .
	$(BIN)/lint-imports --no-cache

typecheck: setup
	$(BIN)/mypy .

pytest: setup
	$(BIN)/pytest -n $(WORKERS) --dist loadgroup -m "not slow $(NOT_BROWSER)" $(PYTEST_ARGS)

pytest-slow: setup
	$(BIN)/pytest -n $(WORKERS) --dist loadgroup -m "slow $(NOT_BROWSER)" $(PYTEST_ARGS)

catalog: setup ## load (or refresh) the catalog from fixtures/sets/
	$(PY) manage.py migrate --no-input
	$(PY) manage.py load_catalog

check-catalog: setup ## validate every fixture without writing
	$(PY) manage.py load_catalog --check

schema: setup ## regenerate the JSON Schemas of a card document and a pack (and the pack docs)
	$(PY) -m validator.engine.cards --write-schema
	$(PY) -m validator.engine.pack --write-schema --write-docs

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache

bench: setup ## engine, scenario and validation speed (figures, never asserted)
	$(PY) -m validator.engine.bench
	$(PY) manage.py migrate --no-input -v 0
	$(PY) manage.py load_catalog
	$(PY) manage.py bench_validation
	$(PY) manage.py bench_search
	@# The same search on PostgreSQL when one is given (it builds <name>_bench there).
	$(if $(BENCH_POSTGRES_URL),DATABASE_URL=$(BENCH_POSTGRES_URL) $(PY) manage.py bench_search,@echo "bench_search on PostgreSQL: set BENCH_POSTGRES_URL=postgres://... to run it")
	$(PY) manage.py bench_pack
	$(PY) manage.py bench_proxies
	$(PY) manage.py bench_faces
	$(BIN)/pytest tests/abuse -q --ignore=tests/abuse/test_cost_fuzzer.py  # each hostile request's CPU seconds and memory (issue 15)
	$(BIN)/pytest tests/abuse/test_cost_fuzzer.py -q  # the cost fuzzer, both tiers: the worst input per entry point (issue 34)

mutants: setup ## mutation testing of the rules engine: kill rates and every survivor (MUTANTS="--sample 50")
	$(PY) -m validator.mutants $(MUTANTS)

scenarios: setup ## run every scenario in fixtures/scenarios/ (no database needed)
	$(PY) -m validator.engine.scenario fixtures/scenarios

simulate: setup ## 1,000 seeded 4-player core games with the invariants checked after every move
	$(PY) manage.py migrate --no-input -v 0
	$(PY) manage.py load_catalog
	$(PY) manage.py simulate --sets munchkin-core --players 4 --games 1000 --seed 1

serve: setup ## production mode on this machine: collectstatic, migrate, gunicorn + a task worker
	@export DEBUG=$${DEBUG:-false} TASKS_BACKEND=$${TASKS_BACKEND:-database}; \
	  $(PY) manage.py collectstatic --no-input -v 0 && \
	  $(PY) manage.py migrate --no-input && \
	  $(PY) manage.py createcachetable && \
	  $(PY) manage.py load_catalog && \
	  $(PY) manage.py draw_faces --no-progress && \
	  exec $(PY) manage.py serve --bind $(HOST):$(PORT)

loadtest: setup ## concurrent clients against gunicorn on loopback (SQLite, or DATABASE_URL)
	$(PY) manage.py loadtest
