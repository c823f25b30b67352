# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test test-wire lint check-layers check-sizes bench schema clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/arraygraph serve --demo

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/python tools/check_layers.py
	$(BIN)/python tools/check_sizes.py
	$(BIN)/pytest

# Every test again, through PyMongo's AsyncMongoClient against the embedded engine's wire front.
test-wire: $(STAMP)
	ARRAYGRAPH_TEST_ENGINE=wire $(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/python tools/check_layers.py
	$(BIN)/python tools/check_sizes.py

check-layers: $(STAMP)
	$(BIN)/python tools/check_layers.py

check-sizes: $(STAMP)
	$(BIN)/python tools/check_sizes.py

bench: $(STAMP)
	$(BIN)/python -m bench

schema: $(STAMP)
	@$(BIN)/arraygraph schema

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache *.egg-info
