# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install run browser test test-wire conformance engine-docs lint check-layers check-sizes bench soak schema clean fuzz lock

# Reproducible installs: requirements/*.txt pin every package with a hash for each of its files,
# written by `make lock`. Locked with `uv pip compile --universal --generate-hashes`: one
# resolution for every Python and platform pyproject allows (pip-tools resolves for the running
# interpreter only), written as pip requirement files that plain
# `pip install --require-hashes --no-deps` reads (the Dockerfile does). Installed with
# `uv pip sync`, an order of magnitude faster than pip (a second or two with a warm cache).
# runtime.txt is what `make run` needs and all the image holds; dev.txt adds what `make test`
# needs; uv.txt is uv itself, installed first by pip (the one the Python ships: upgrading it
# would double the set-up's time).
LOCKS := requirements
UV_STAMP := $(VENV)/.uv-installed
RUNTIME_STAMP := $(VENV)/.runtime-installed
DEV_STAMP := $(VENV)/.dev-installed
# sync: the venv holds what the locks name and nothing else (the project is installed after);
# `$(BIN)/uv pip list` (or `install`) does what the venv's pip would.
# Bytecode is compiled at install (--compile-bytecode, and compileall for arraygraph's own
# modules): where PYTHONDONTWRITEBYTECODE is set, nothing else would ever cache it, and every
# start would compile every module it imports again.
UV_SYNC := $(BIN)/uv pip sync --quiet --require-hashes --compile-bytecode --python $(BIN)/python
COMPILE_OWN := $(BIN)/python -m compileall -q -j 0 app.py cli.py settings web schema \
	runtime resolvers store embedded
# The lock holds setuptools: the project builds with it, fetching nothing unhashed.
UV_PROJECT := $(BIN)/uv pip install --quiet --no-deps --no-build-isolation --python $(BIN)/python -e .

# Set-up talks on stderr only, so that `make schema > schema.graphql` writes the schema alone.
# The venv is made without pip and the Python's own pip installs uv into it (`pip --python`,
# pip 22.3 and later): seeding pip into a venv took longer than all the rest. Where that pip is
# missing or older, the venv gets its own (ensurepip) and that installs uv.
$(UV_STAMP): $(LOCKS)/uv.txt
	@echo "setting up $(VENV) (python -m venv, then uv from $(LOCKS)/uv.txt)" >&2
	@$(PYTHON) -m venv --without-pip $(VENV) >&2
	@if $(PYTHON) -m pip --python $(BIN)/python --version >/dev/null 2>&1; \
		then pip="$(PYTHON) -m pip --python $(BIN)/python"; \
		else $(BIN)/python -m ensurepip --default-pip >&2 && pip="$(BIN)/python -m pip"; fi; \
		$$pip install --quiet --require-hashes --no-deps -r $(LOCKS)/uv.txt >&2
	@touch $@

# The runtime alone: a sync drops the development tools, so the dev stamp goes too.
$(RUNTIME_STAMP): $(UV_STAMP) $(LOCKS)/runtime.txt pyproject.toml
	@echo "installing $(LOCKS)/runtime.txt and arraygraph into $(VENV) (uv pip sync)" >&2
	@rm -f $(DEV_STAMP)
	@$(UV_SYNC) $(LOCKS)/runtime.txt $(LOCKS)/uv.txt >&2
	@$(UV_PROJECT) >&2
	@$(COMPILE_OWN) >&2
	@touch $@

# dev.txt holds every runtime pin too, so it satisfies the runtime stamp as well.
$(DEV_STAMP): $(UV_STAMP) $(LOCKS)/dev.txt $(LOCKS)/runtime.txt pyproject.toml
	@echo "installing $(LOCKS)/dev.txt and arraygraph into $(VENV) (uv pip sync)" >&2
	@$(UV_SYNC) $(LOCKS)/dev.txt $(LOCKS)/uv.txt >&2
	@$(UV_PROJECT) >&2
	@$(COMPILE_OWN) >&2
	@touch $@ $(RUNTIME_STAMP)

# Re-resolves the locks from pyproject.toml (after a change to its dependencies), keeping every
# pin that still fits: uv prefers what a lock already names. `make lock UPGRADE="starlette uvicorn"`
# moves those packages to the newest their bounds allow. dev.txt first; runtime.txt takes its pins
# (-c), so the two never disagree. 3.11 is pyproject's requires-python floor.
UPGRADE ?=
LOCK := $(BIN)/uv pip compile --quiet --universal --python-version 3.11 --generate-hashes \
	--custom-compile-command "make lock" $(foreach package,$(UPGRADE),--upgrade-package $(package))
lock: $(UV_STAMP)
	$(LOCK) pyproject.toml $(LOCKS)/build.in --extra dev -o $(LOCKS)/dev.txt
	$(LOCK) pyproject.toml $(LOCKS)/build.in -c $(LOCKS)/dev.txt -o $(LOCKS)/runtime.txt
	$(LOCK) $(LOCKS)/uv.in -o $(LOCKS)/uv.txt

install: $(DEV_STAMP)

# `make run PORT=8001` when 8000 is taken.
PORT ?= 8000
run: $(RUNTIME_STAMP)
	$(BIN)/arraygraph serve --demo --port $(PORT)

test: $(DEV_STAMP) browser
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/python tools/check_layers.py
	$(BIN)/python tools/check_sizes.py
	$(BIN)/pytest

# Every test again, through PyMongo's AsyncMongoClient against the embedded engine's wire front.
test-wire: $(DEV_STAMP) browser
	ARRAYGRAPH_TEST_ENGINE=wire $(BIN)/pytest

# MongoDB's CRUD conformance tests (the specifications repository's unified-format files, read in
# place from ../mongodb-specifications, or ARRAYGRAPH_MONGODB_SPECS), in process and over the wire
# front: pass, fail and skip by file, the failures by cause; exit 1 below a floor (tests/conformance).
conformance: $(DEV_STAMP)
	$(BIN)/python -m tests.conformance

# Rewrite the table of spec tests the engine does not support (tests/conformance/unsupported.toml)
# and the docs' list made from it (docs/embedded-engine.md), from what a conformance run finds.
engine-docs: $(DEV_STAMP)
	$(BIN)/python -m tests.conformance --write-unsupported

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

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/python tools/check_layers.py
	$(BIN)/python tools/check_sizes.py

check-layers: $(DEV_STAMP)
	$(BIN)/python tools/check_layers.py

check-sizes: $(DEV_STAMP)
	$(BIN)/python tools/check_sizes.py

# The bench's own environment (bench/peer_env.py), made on first use: Ariadne for the peer
# comparison (never a project dependency), pinned to the project's uvicorn, Starlette and
# graphql-core versions.
BENCH_VENV := .venv-bench
BENCH_STAMP := $(BENCH_VENV)/.installed
$(BENCH_STAMP): $(DEV_STAMP)
	@echo "setting up $(BENCH_VENV) (python -m venv, pip install ariadne)" >&2
	@$(PYTHON) -m venv $(BENCH_VENV) >&2
	@$(BENCH_VENV)/bin/python -m pip install --quiet --upgrade pip >&2
	@$(BENCH_VENV)/bin/python -m pip install --quiet ariadne $$($(BIN)/python -m bench.peer_env) >&2
	@touch $(BENCH_STAMP)

# The ratios (server CPU per request, interleaved rounds; bearer JWTs' alone: `.venv/bin/python
# -m bench.identity`), then a 20 s soak and the memory bound (bench/__main__.py); exit 1 if
# either of those two fails. Last, the costliest request of each root field (bench/costliest/;
# alone: `.venv/bin/python -m bench.costliest`). BENCH_ARGS: e.g.
# `make bench BENCH_ARGS="--seconds 3 --rounds 7"`.
BENCH_ARGS ?=
bench: $(DEV_STAMP) $(BENCH_STAMP)
	$(BIN)/python -m bench $(BENCH_ARGS)

# Mixed reads and writes over 64 connections for SOAK_SECONDS, every acknowledged write read
# back exactly once, /healthz latency and server RSS (bench/soak/).
SOAK_SECONDS ?= 60
soak: $(DEV_STAMP)
	$(BIN)/python -m bench.soak --seconds $(SOAK_SECONDS) --connections 64

schema: $(RUNTIME_STAMP)
	@$(BIN)/arraygraph schema

clean:
	rm -rf $(VENV) .venv-bench .pytest_cache .mypy_cache .ruff_cache *.egg-info

# The fuzz, long: FUZZ_EXAMPLES operations (10,000) from a random seed, printed first
# (`make fuzz FUZZ_SEED=<seed>` runs one again), and at the end a summary of what it tried.
# `make test` runs the same suite briefly, with a fixed seed.
FUZZ_EXAMPLES ?= 10000
fuzz: $(DEV_STAMP)
	@seed=$${FUZZ_SEED:-$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}; \
	echo "fuzz: $(FUZZ_EXAMPLES) operations, seed $$seed"; \
	ARRAYGRAPH_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/pytest tests/fuzz -p no:randomly -v \
		--hypothesis-seed=$$seed --hypothesis-show-statistics
