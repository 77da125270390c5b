# Two commands do all the set-up on a fresh machine: `make run` and `make test`. Both end by
# printing how to put the installed `factprobe` on PATH (`. .venv/bin/activate`). `make check` is
# the fast loop: it installs no llama.cpp build, Ray or Playwright and skips the tests that need them.
VENV ?= .venv
PY := $(VENV)/bin/python
# llama-cpp-python compiles from source: use every core, and skip parts factprobe never loads.
# PyPI has only its source: `pip download llama-cpp-python --only-binary=:all: --no-deps` finds no
# version with a wheel for Linux x86_64 and CPython 3.11 (nor for 3.12). Its author's CPU wheels are
# on a separate index (abetlen.github.io/llama-cpp-python/whl/cpu) that lags the releases, so it is
# compiled here once, and pip's cache keeps the wheel for later installs.
export CMAKE_BUILD_PARALLEL_LEVEL ?= $(shell nproc 2>/dev/null || echo 2)
# A portable x86-64 build (AVX2, not -march=native): built natively on a machine whose CPU offers AMX,
# llama-cpp-python 0.3.35 and 0.3.36 crashed at the first generation (a segmentation fault in decode).
export CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF
RUN_ARGS ?=
# pip is quiet (its compile step prints nothing for minutes), so a line every HEARTBEAT_S seconds
# says it is still at work; the loop's sleep writes nowhere, so `make run | tee log` ends with pip.
HEARTBEAT_S ?= 60
PIP_INSTALL = ( n=0; while sleep $(HEARTBEAT_S) </dev/null >/dev/null 2>&1; do n=$$((n + $(HEARTBEAT_S))); \
	echo "  ... pip is still installing ($$((n / 60)) min $$((n % 60)) s so far)"; done ) & beat=$$!; \
	$(PY) -m pip install --disable-pip-version-check -q
PIP_DONE = status=$$?; kill $$beat; exit $$status
# `make test` runs these in order, stopping at the first that fails
LINTS = "$(VENV)/bin/ruff check ." "$(VENV)/bin/lint-imports" "$(VENV)/bin/mypy"
CHECKS = $(LINTS) "$(PY) -m pytest -q"
# `make check` runs the lints and every test but those marked (pyproject.toml) as needing the heavy extras
LIGHT = not needs_llama and not needs_ray and not needs_browser and not bench
FAST_CHECKS = $(LINTS) "$(PY) -m pytest -q -m '$(LIGHT)'"
USAGE = echo; echo "factprobe is installed in $(VENV). Put the command on PATH in each new shell:"; \
	echo "    . $(VENV)/bin/activate"; \
	echo "and every README command (factprobe run ...) works as written; or call $(VENV)/bin/factprobe."

.PHONY: run test check install install-dev install-check bench clean

$(PY):
	python3 -m venv $(VENV)

$(VENV)/.installed-local: pyproject.toml | $(PY)
	@echo "Installing factprobe and the embedded model (.[local]) into $(VENV). The first time, pip compiles"
	@echo "llama-cpp-python from source: about 7 min on 2 cores, up to 20 on one (later installs reuse it)."
	@$(PIP_INSTALL) -e ".[local]"; $(PIP_DONE)
	@touch $@

# ray: tests/eval/run/test_ray_executor.py runs `--executor ray` on a local Ray cluster (skipped without it)
$(VENV)/.installed-dev: pyproject.toml $(VENV)/.installed-local
	@echo "Installing the test tools (.[local,dev,ray]) into $(VENV): usually 1 to 3 min."
	@$(PIP_INSTALL) -e ".[local,dev,ray]"; $(PIP_DONE)
	@touch $@

# `make check`: the package and the test tools, without the local, ray and Playwright extras
$(VENV)/.installed-check: pyproject.toml | $(PY)
	@echo "Installing factprobe and the test tools (.[check]) into $(VENV): no llama.cpp build, usually 1 to 3 min."
	@$(PIP_INSTALL) -e ".[check]"; $(PIP_DONE)
	@touch $@

install: $(VENV)/.installed-local
	@$(USAGE)

install-dev: $(VENV)/.installed-dev
	@$(USAGE)

install-check: $(VENV)/.installed-check
	@$(USAGE)

run: $(VENV)/.installed-local
	@echo "Running $(VENV)/bin/factprobe run $(RUN_ARGS) on the embedded model (about 3 min on 2 cores)."
	@$(VENV)/bin/factprobe run $(RUN_ARGS); status=$$?; $(USAGE); exit $$status

test: $(VENV)/.installed-dev
	@echo "Checking: ruff, the import-linter layer contracts, mypy, then the tests (15 to 20 min on 2 cores)."
	@status=0; for check in $(CHECKS); do echo "$$check"; $$check || { status=$$?; break; }; done; \
	$(USAGE); exit $$status

check: $(VENV)/.installed-check
	@echo "Checking fast: ruff, the import-linter layer contracts, mypy, then the tests that need no model build,"
	@echo "Ray or browser (a few minutes on 2 cores; \`make test\` runs them all)."
	@status=0; for check in $(FAST_CHECKS); do echo "$$check"; eval $$check || { status=$$?; break; }; done; \
	$(USAGE); exit $$status

bench: $(VENV)/.installed-dev
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) runs
