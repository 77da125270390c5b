# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
# llama-cpp-python compiles from source: use every core, and skip parts factprobe never loads.
export CMAKE_BUILD_PARALLEL_LEVEL ?= $(shell nproc 2>/dev/null || echo 2)
export CMAKE_ARGS ?= -DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF
RUN_ARGS ?=

.PHONY: run test install install-dev bench clean

$(PY):
	python3 -m venv $(VENV)

$(VENV)/.installed-local: pyproject.toml | $(PY)
	$(PY) -m pip install --disable-pip-version-check -qq -e ".[local]"
	touch $@

# ray: tests/eval/run/test_ray_executor.py runs `--executor ray` on a local Ray cluster (skipped without it)
$(VENV)/.installed-dev: pyproject.toml $(VENV)/.installed-local
	$(PY) -m pip install --disable-pip-version-check -qq -e ".[local,dev,ray]"
	touch $@

install: $(VENV)/.installed-local
install-dev: $(VENV)/.installed-dev

run: install
	$(VENV)/bin/factprobe run $(RUN_ARGS)

test: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy
	$(PY) -m pytest -q

bench: install-dev
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) runs
