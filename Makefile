# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run browser test test-wire lint check-layers check-sizes bench soak schema clean fuzz

# Set-up talks on stderr only, so that `make schema > schema.graphql` writes the schema alone.
$(STAMP): pyproject.toml
	@echo "setting up $(VENV) (python -m venv, pip install -e '.[dev]')" >&2
	@$(PYTHON) -m venv $(VENV) >&2
	@$(BIN)/python -m pip install --quiet --upgrade pip >&2
	@$(BIN)/python -m pip install --quiet -e '.[dev]' >&2
	@touch $(STAMP)

install: $(STAMP)

# `make run PORT=8001` when 8000 is taken.
PORT ?= 8000
run: $(STAMP)
	$(BIN)/arraygraph serve --demo --port $(PORT)

test: $(STAMP) browser
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/python tools/check_layers.py
	$(BIN)/python tools/check_sizes.py
	$(BIN)/pytest

# Every test again, through PyMongo's AsyncMongoClient against the embedded engine's wire front.
test-wire: $(STAMP) browser
	ARRAYGRAPH_TEST_ENGINE=wire $(BIN)/pytest

# Debian's Chromium for the browser tests (tests/support/browser.py), as root or through sudo;
# where it cannot be installed the build goes on and those tests skip, saying why.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo -n"; fi; \
		echo "installing chromium for the browser tests (apt-get)"; \
		{ $$sudo apt-get update -qq && $$sudo env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends chromium; } >/dev/null 2>&1 \
		&& command -v chromium >/dev/null 2>&1 \
		|| echo "chromium could not be installed: browser tests will be skipped"; \
	}

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

# The bench's own environment (bench/peer_env.py), made on first use: Ariadne for the peer
# comparison (never a project dependency), pinned to the project's uvicorn, Starlette and
# graphql-core versions.
BENCH_VENV := .venv-bench
BENCH_STAMP := $(BENCH_VENV)/.installed
$(BENCH_STAMP): $(STAMP)
	@echo "setting up $(BENCH_VENV) (python -m venv, pip install ariadne)" >&2
	@$(PYTHON) -m venv $(BENCH_VENV) >&2
	@$(BENCH_VENV)/bin/python -m pip install --quiet --upgrade pip >&2
	@$(BENCH_VENV)/bin/python -m pip install --quiet ariadne $$($(BIN)/python -m bench.peer_env) >&2
	@touch $(BENCH_STAMP)

# The ratios (server CPU per request, interleaved rounds), then a 20 s soak and the memory
# bound (bench/__main__.py); exit 1 if either of those two fails. Last, the costliest request
# of each root field (bench/costliest.py; alone: `.venv/bin/python -m bench.costliest`). BENCH_ARGS: e.g.
# `make bench BENCH_ARGS="--seconds 3 --rounds 7"`.
BENCH_ARGS ?=
bench: $(STAMP) $(BENCH_STAMP)
	$(BIN)/python -m bench $(BENCH_ARGS)

# Mixed reads and writes over 64 connections for SOAK_SECONDS, every acknowledged write read
# back exactly once, /healthz latency and server RSS (bench/soak.py).
SOAK_SECONDS ?= 60
soak: $(STAMP)
	$(BIN)/python -m bench.soak --seconds $(SOAK_SECONDS) --connections 64

schema: $(STAMP)
	@$(BIN)/arraygraph schema

clean:
	rm -rf $(VENV) .venv-bench .pytest_cache .mypy_cache .ruff_cache *.egg-info

# The fuzz, long: FUZZ_EXAMPLES operations (10,000) from a random seed, printed first
# (`make fuzz FUZZ_SEED=<seed>` runs one again), and at the end a summary of what it tried.
# `make test` runs the same suite briefly, with a fixed seed.
FUZZ_EXAMPLES ?= 10000
fuzz: $(STAMP)
	@seed=$${FUZZ_SEED:-$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}; \
	echo "fuzz: $(FUZZ_EXAMPLES) operations, seed $$seed"; \
	ARRAYGRAPH_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/pytest tests/fuzz -p no:randomly -v \
		--hypothesis-seed=$$seed --hypothesis-show-statistics
