# APIXAGON smart board — every entry point installs what it needs itself.
VENV    ?= .venv
PYTHON  ?= python3
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.installed-stamp
JOBS    ?= auto

.PHONY: all test test-fast bench run lint fmt mpy clean

all: test

$(STAMP): requirements.txt pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	$(PY) -m pip install --disable-pip-version-check -q --no-deps -e .
	@touch $(STAMP)

# The whole suite: CPython tests plus the core suite under the real
# MicroPython unix port with a capped heap.
test: $(STAMP)
	$(VENV)/bin/ruff check firmware host tests tools
	$(PY) -m pytest -q -n $(JOBS)

bench: $(STAMP)
	$(PY) tools/bench_core.py
	$(PY) tools/bench_board.py
	$(PY) tools/bench_link.py

# The simulated board: the firmware (.mpy) under the MicroPython unix port
# with a 96 wK heap, the 61 LEDs on the terminal, typed hands (help).
# PROFILE=B for reed sensors and the action pad.
PROFILE ?= A
run: $(STAMP)
	@$(PY) tools/build_mpy.py build/mpy >/dev/null
	$(VENV)/bin/micropython -X heapsize=96wK tools/simboard.py build/mpy --profile $(PROFILE)

lint: $(STAMP)
	$(VENV)/bin/ruff check firmware host tests tools
	$(VENV)/bin/ruff format --check firmware host tests tools

fmt: $(STAMP)
	$(VENV)/bin/ruff format firmware host tests tools

# Compile the firmware package to .mpy (what goes on the board).
mpy: $(STAMP)
	$(PY) tools/build_mpy.py build/mpy

clean:
	rm -rf build .pytest_cache
