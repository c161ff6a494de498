# `make run` starts Gamut; `make test` proves it. Both create and reuse .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test lint typecheck unit bench clean

# The install also builds Connect Five's compiled search, so its sources count too.
$(STAMP): pyproject.toml $(wildcard engine/gamut_engine/native/connect5/*)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# `make run PORT=9000` serves on port 9000; without PORT, GAMUT_PORT (else 8080) decides.
PORT ?=
DB ?= gamut.sqlite3

run: $(STAMP)
	$(BIN)/gamut serve --host 127.0.0.1 $(if $(PORT),--port $(PORT)) --db $(DB)

test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -q

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
