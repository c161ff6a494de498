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

run: $(STAMP)
	$(BIN)/gamut serve --host 127.0.0.1 --port 8080 --db gamut.sqlite3

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
