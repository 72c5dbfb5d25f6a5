# The two commands of the README: `make serve` and `make test`. Everything else is optional.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed-stamp

.PHONY: setup serve test lint unit bench bench-tournaments bench-service bench-transparency bench-compare clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

## Start the service on the embedded default (SQLite in the data directory, docs/operations.md), http://127.0.0.1:8000/api/v1/docs
serve: setup
	$(BIN)/gameledger serve --host $${HOST:-127.0.0.1} --port $${PORT:-8000}

## Every test: lint, types, then the whole suite (needs PostgreSQL; see docs/operations.md),
## in two worker processes (pytest-xdist): every test keeps its own stores and schemas
test: setup lint
	$(BIN)/pytest -n 2

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

## The unit tests alone (no database server needed)
unit: setup
	$(BIN)/pytest tests/unit

## Benchmarks (run on demand, never in CI)
bench: setup
	$(BIN)/python bench/azul_engine.py
	$(BIN)/python bench/azul_application.py
	$(BIN)/python bench/carcassonne_engine.py
	$(BIN)/python bench/risk_engine.py
	$(BIN)/python bench/merkle.py
	$(BIN)/python bench/tournaments.py

## Tournaments through the aggregate: pairing speed, and the quality of 100 tournaments per format
## (about 2 minutes; QUICK=1: a smoke run of every path in about 20 s; docs/tournaments.md, "Measured")
bench-tournaments: setup
	$(BIN)/python bench/tournaments.py $(if $(QUICK),--quick)

## The service's benchmarks (needs PostgreSQL; several minutes each; docs/performance.md)
bench-service: setup
	$(BIN)/python bench/app_vs_engine.py
	$(BIN)/python bench/http_compare.py
	$(BIN)/python bench/moves_in_process.py
	$(BIN)/python bench/moves_in_process.py --store postgres
	$(BIN)/python bench/moves_in_process.py --follow
	$(BIN)/python bench/moves_in_process.py --follow --store postgres
	$(BIN)/python bench/moves_in_process.py --threads 8
	$(BIN)/python bench/pg_save.py
	$(BIN)/python bench/pg_lock.py
	$(BIN)/python bench/connections.py
	$(BIN)/python bench/memory.py factor
	$(BIN)/python bench/memory.py rss
	$(BIN)/python bench/versions.py
	$(BIN)/python bench/idempotency_ratelimit.py
	$(BIN)/python bench/scale.py
	$(BIN)/python bench/streams.py

## The transparency log at 10 million checkpoints, on SQLite and PostgreSQL (about 35 minutes and
## 9 GB of disk while it runs; QUICK=1: 100,000 entries in a minute; docs/performance.md)
bench-transparency: setup
	$(BIN)/python bench/transparency.py $(if $(QUICK),--quick)

## The engines of a base revision (BASE=rev) and the working tree in one run
bench-compare: setup
	$(BIN)/python bench/engines_compare.py --base $${BASE:-da2bfe8}

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
