# APIXAGON smart board — every entry point installs what it needs itself.
VENV    ?= .venv
PYTHON  ?= python3
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.installed-stamp
EMU_STAMP := tools/rp2040/node_modules/.installed-stamp
JOBS    ?= auto

.PHONY: all test test-fast bench bench-long figures run web console lint fmt mpy firmware emu clean install uninstall hardware ladder docs i18n mo

all: test

# The virtual environment, made again when its python cannot run pip: a
# first run interrupted (Ctrl-C) while `python -m venv` was installing pip
# left a .venv with a python and no pip, and every later make failed on it
# ("No module named pip") until it was deleted by hand. Only a folder venv
# made (it holds pyvenv.cfg) is removed (tests/host/test_make_venv.py).
.PHONY: venv
venv:
	@"$(PY)" -m pip --version >/dev/null 2>&1 || { \
	  if [ -f "$(VENV)/pyvenv.cfg" ]; then \
	    echo "$(VENV) is incomplete (no pip: an interrupted first run?): making it again"; \
	    rm -rf "$(VENV)"; \
	  fi; \
	  $(PYTHON) -m venv "$(VENV)"; }

# CairoSVG (PNG pictures) needs the system's cairo library, the web
# companion's browser tests Debian's chromium (Playwright drives it; its own
# browser download cannot work offline), and the online play's tests
# Debian's mosquitto broker, rev A's antenna simulation Debian's ngspice:
# each installed from Debian's packages where missing and apt-get can
# (root, as in CI).
$(STAMP): requirements.txt requirements-nodeps.txt pyproject.toml
	@ldconfig -p 2>/dev/null | grep -q 'libcairo\.so\.2' \
	  || (command -v apt-get >/dev/null && apt-get install -y -q libcairo2 >/dev/null) \
	  || echo "warning: libcairo2 is missing: PNG pictures will not work (SVG will)"
	@command -v chromium >/dev/null \
	  || (command -v apt-get >/dev/null && apt-get install -y -q chromium >/dev/null) \
	  || echo "warning: chromium is missing: the web companion's browser tests will be skipped"
	@command -v mosquitto >/dev/null || test -x /usr/sbin/mosquitto \
	  || (command -v apt-get >/dev/null && apt-get install -y -q mosquitto >/dev/null) \
	  || echo "warning: mosquitto is missing: the online play's tests will be skipped"
	@command -v ngspice >/dev/null \
	  || (command -v apt-get >/dev/null && apt-get install -y -q ngspice >/dev/null) \
	  || echo "warning: ngspice is missing: rev A's antenna simulation (tests/hardware/test_antenna.py) will be skipped"
	@/usr/bin/python3 -c 'import pcbnew' 2>/dev/null && test -d /usr/share/kicad/footprints \
	  || (command -v apt-get >/dev/null && (apt-get install -y -q --no-install-recommends kicad kicad-footprints >/dev/null 2>&1 \
	      || (apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends kicad kicad-footprints >/dev/null))) \
	  || echo "warning: KiCad 6 is missing: rev B's PCB checks (KiCad's DRC, tests/hardware/test_pcb.py) will be skipped"
	@$(MAKE) --no-print-directory venv
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	$(PY) -m pip install --disable-pip-version-check -q --no-deps -r requirements-nodeps.txt
	$(PY) -m pip install --disable-pip-version-check -q --no-deps -e .
	@touch $(STAMP)

# The languages a person reads (docs/development/i18n.md): gettext
# catalogues, English and Italian. The .po files are the source and are
# committed; the .mo files gettext reads are compiled from them here and
# git-ignored, as projects using Babel and gettext do: a .mo is a build
# product, and one committed beside its .po can silently fall behind it.
# run, web, test and install depend on them, so a fresh clone has them
# (an install without make, pip install ., shows English until make mo).
LOCALE_DIR := host/apixagon_host/locale
LANGS      := en it
PO_FILES   := $(LANGS:%=$(LOCALE_DIR)/%/LC_MESSAGES/apixagon.po)
MO_FILES   := $(PO_FILES:.po=.mo)
POT        := build/i18n/apixagon.pot

mo: $(MO_FILES)

$(LOCALE_DIR)/%/LC_MESSAGES/apixagon.mo: $(LOCALE_DIR)/%/LC_MESSAGES/apixagon.po | $(STAMP)
	$(VENV)/bin/pybabel -q compile -l $* -D apixagon -i $< -o $@

# make i18n: every string marked in the code (_, N_, ngettext; gettext
# too, what a template's {% trans %} becomes; babel.cfg says where) extracted into build/i18n/apixagon.pot, both catalogues
# updated from it (new strings added untranslated, changed ones marked
# fuzzy, removed ones dropped), then compiled. Translate what it added in
# the Italian .po: tests/host/test_i18n.py fails on a string missing,
# empty or fuzzy there.
i18n: $(STAMP)
	@mkdir -p $(dir $(POT))
	$(VENV)/bin/pybabel -q extract -F babel.cfg --no-default-keywords -k _ -k N_ -k ngettext:1,2 -k gettext \
	  --add-location=file --no-wrap --project=APIXAGON --version=0.1.0 -o $(POT) host
	@for l in $(LANGS); do \
	  $(VENV)/bin/pybabel -q update -i $(POT) -d $(LOCALE_DIR) -D apixagon -l $$l \
	    --init-missing --ignore-obsolete --no-wrap || exit 1; \
	done
	@$(MAKE) --no-print-directory mo

# The whole suite: CPython tests plus the core suite under the real
# MicroPython unix port with a capped heap.
# worksteal: a worker out of tests takes the queued ones of a busy one (the
# emulated RP2040's tests, minutes each, otherwise queued on one worker).
test: $(STAMP) $(EMU_STAMP) firmware $(MO_FILES)
	$(VENV)/bin/ruff check firmware host tests tools
	$(PY) -m pytest -q -n $(JOBS) --dist worksteal

# The emulated RP2040's tests at their full size: the power cuts as written
# (24 in play, 16 in the packing, 12 in a deploy; make test runs 9, 6 and 6:
# every kind of cut still reached) and the tests marked long, whose cases
# make test checks on the simulated board (a thousand logs and matches, a
# pull then a deploy, the 2-player heap, a slow host and a trial that hangs
# on a ROMFS deploy) and 16 deploys killed of each kind.
.PHONY: test-long
test-long: $(STAMP) $(EMU_STAMP) firmware
	APIXAGON_LONG=1 $(PY) -m pytest -q -n $(JOBS) --dist worksteal tests/rp2040 tests/e2e/test_deploy_kills.py

# The board's circuit (tools/hardware/circuit.py, SKiDL): each revision's
# ERC, then its KiCad netlist, ERC report, BOM, pin table and the
# emulator's wiring in hardware/<rev>/, the firmware's pins.py, and
# hardware/README.md's pin, BOM and power tables and block diagram (the
# power table drives the simulated board through every LED mode: ~1 min).
# Exit 1 on an ERC error or warning. make test runs the ERC and the pin
# checks (tests/hardware).
hardware: $(STAMP)
	$(PY) tools/hardware/gen.py
	@$(MAKE) --no-print-directory pcb

# Rev B's PCB (tools/hardware/pcb.py: placed from the netlist, routed, its
# planes poured, KiCad's DRC) and its fabrication set (tools/hardware/fab.py:
# Gerbers and drill zipped, placement, assembly BOM; the layer pictures,
# made PNGs in docs/img/pcb by pcb_pictures.py): KiCad 6's pcbnew under
# Debian's python3. Routing takes a
# few minutes: only when the netlist or the generator changed.
PCB_SRC := hardware/rev_b/rev_b.net tools/hardware/pcb.py tools/hardware/pcb_place.py tools/hardware/pcb_route.py tools/hardware/sexpr.py
.PHONY: pcb
pcb: hardware/rev_b/fab/rev_b-gerbers.zip
hardware/rev_b/rev_b.kicad_pcb: $(PCB_SRC)
	/usr/bin/python3 tools/hardware/pcb.py
hardware/rev_b/fab/rev_b-gerbers.zip: hardware/rev_b/rev_b.kicad_pcb tools/hardware/fab.py tools/hardware/pcb_pictures.py hardware/rev_b/bom.csv
	/usr/bin/python3 tools/hardware/fab.py
	$(PY) tools/hardware/pcb_pictures.py

# The link fuzz and power cuts at length (tools/soak.py): 100 000 fuzzed
# frames and 1 000 power cuts with a match played between them, on the
# simulated board; prints its counts (frames, crashes, cuts, records
# checked, lost), exit 1 on any failure. FRAMES=, CUTS=, SEED= to change.
.PHONY: soak
FRAMES ?= 100000
CUTS   ?= 1000
SEED   ?= 20240611
soak: $(STAMP)
	$(PY) tools/soak.py --frames $(FRAMES) --cuts $(CUTS) --seed $(SEED)

# The computer's levels measured (tools/ladder.py): self-play matches of
# neighbouring levels and the random player, a Bradley-Terry fit with 95 %
# bootstrap intervals, each level's margin over the one below; exit 1 when
# a level is not above the one below with 95 % confidence. GAMES= per pair
# (default 400), JOBS= processes (default 2). tools/sprt.py tests a change
# to the engine against a git revision (kept only if not weaker).
GAMES ?= 400
LADDER_JOBS ?= 2
ladder: $(STAMP)
	$(PY) tools/ladder.py --games $(GAMES) --jobs $(LADDER_JOBS)

# The simulated board and its companion in one terminal: the firmware
# (.mpy) in the MicroPython unix port on a pseudo-terminal (its USB serial),
# flash in build/flash (kept: matches and settings survive a run), and
# `apixagon monitor` on it: the 61 LEDs and the cards drawn live, typed
# hands and pull/list/status/render (help); matches pulled go to the
# user's database, the one `apixagon logs list` reads (APIXAGON_DATA
# chooses another folder). quit, Ctrl-C or Ctrl-D ends both.
# PROFILE=B for reed sensors and the action pad.
PROFILE ?= A
run: $(STAMP) $(MO_FILES)
	@$(PY) tools/devboard.py --companion --profile $(PROFILE)

# The simulated board and the web companion (`apixagon serve`) on it,
# opened in the default browser: the live board, the library (matches
# pulled go to the user's database, as make run's), the board's page.
# Ctrl-C ends both. WEB_PORT=N serves on another port (default 8765).
# One simulated board per flash folder: a second make run / make web while
# one runs says which holds build/flash.
WEB_PORT ?= 8765
web: $(STAMP) $(MO_FILES)
	@$(PY) tools/devboard.py --web --profile $(PROFILE) --web-port $(WEB_PORT)

# `apixagon` on the user's PATH: a link in BINDIR (default ~/.local/bin,
# on PATH in most desktop set-ups) to the venv's console script, whose
# first line names the venv's Python; so the command keeps working with
# every dependency, and `git pull` changes it at once (an editable
# install). `make uninstall` removes only that link.
BINDIR ?= $(HOME)/.local/bin
install: $(STAMP) $(MO_FILES)
	@mkdir -p "$(BINDIR)"
	@ln -sfn "$(CURDIR)/$(VENV)/bin/apixagon" "$(BINDIR)/apixagon"
	@echo "installed: $(BINDIR)/apixagon -> $(CURDIR)/$(VENV)/bin/apixagon"
	@case ":$$PATH:" in *":$(BINDIR):"*) ;; \
	  *) echo "note: $(BINDIR) is not on your PATH: add it, or run $(BINDIR)/apixagon";; esac

uninstall:
	@if [ -L "$(BINDIR)/apixagon" ]; then rm "$(BINDIR)/apixagon" && echo "removed $(BINDIR)/apixagon"; \
	  else echo "nothing to remove: $(BINDIR)/apixagon is not a link"; fi

# The firmware's own terminal console (no serial link): the board loop
# under MicroPython with a 96 wK heap, typed hands, the LEDs as a hexagon.
console: $(STAMP)
	@$(PY) tools/build_mpy.py build/mpy >/dev/null
	$(VENV)/bin/micropython -X heapsize=96wK tools/simboard.py build/mpy --profile $(PROFILE)

# The manual (mkdocs.yml, docs/): MkDocs with the Material theme into
# build/site, offline; strict, so a broken link or a page left out of the
# nav is an error (make test builds it too: tests/test_docs.py). First
# the How to play pictures from their records (tools/rules_pictures.py,
# a fraction of a second: only a picture that changed is written).
docs: $(STAMP) screenshots
	$(PY) tools/rules_pictures.py
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir build/site

# The web page's pictures in the README and the manual (docs/img/web-*.png,
# and in Italian docs/img/it/), drawn by Chromium from the page itself on
# the simulated board (tools/screenshots.py, ~10 s): only a picture that
# changed beyond its tolerance is written. tests/web/test_screenshots.py
# fails while a committed one is not what the page draws now. Without
# chromium it says so and leaves the pictures as they are.
.PHONY: screenshots
screenshots: $(STAMP) $(MO_FILES)
	$(PY) tools/screenshots.py

lint: $(STAMP)
	$(VENV)/bin/ruff check firmware host tests tools
	$(VENV)/bin/ruff format --check firmware host tests tools

fmt: $(STAMP)
	$(VENV)/bin/ruff format firmware host tests tools

# Compile the firmware package to .mpy (what goes on the board).
mpy: $(STAMP)
	$(PY) tools/build_mpy.py build/mpy

# The emulated board (tools/rp2040): rp2040js pinned by its package-lock,
# on the machine's Node.js (Debian's nodejs and npm where there is none).
$(EMU_STAMP): tools/rp2040/package.json tools/rp2040/package-lock.json
	@command -v npm >/dev/null \
	  || (command -v apt-get >/dev/null && apt-get install -y -q nodejs npm >/dev/null) \
	  || (echo "error: npm is missing: install Node.js (it runs the emulated RP2040)"; exit 1)
	cd tools/rp2040 && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# An image on the emulated RP2040 with its parts modelled, hands typed on
# the terminal (put E4 B12, press confirm, leds, cut, on, quit); it prints
# its serial port for `apixagon monitor -p PORT` or mpremote. REV=rev_b.
REV ?= rev_a
emu: $(STAMP) $(EMU_STAMP) firmware
	@$(PY) tools/rp2040/emuboard.py --rev $(REV)

# The board's MicroPython images, one per board revision: build/firmware/
# apixagon-<rev>.uf2 (flash it from the RPI-RP2 drive) and .elf (symbols).
# MicroPython's source is the offline tarball in RP2040_DIR, or
# MICROPYTHON_DIR=<an upstream v1.28.0 checkout with its submodules>; the
# tool installs its Debian packages where missing (tools/build_firmware.py).
# Rebuilt only when a frozen file, the layout or the tool changes.
RP2040_DIR      ?= $(CURDIR)/../shared/rp2040
MICROPYTHON_DIR ?=
REVISIONS       := $(sort $(notdir $(wildcard firmware/boards/rev_*)))
FIRMWARE_UF2    := $(REVISIONS:%=build/firmware/apixagon-%.uf2)
FIRMWARE_SRC    := $(shell find firmware -name '*.py' -not -path 'firmware/smartboard/sim/*' \
                     -not -path '*/__pycache__/*') hardware/layout.json tools/build_firmware.py \
                   $(wildcard hardware/rev_*/rev_*.net) tools/hardware/power.py tools/hardware/parts.py

firmware: $(FIRMWARE_UF2)

$(FIRMWARE_UF2) &: $(FIRMWARE_SRC) | $(STAMP)
	@RP2040_DIR="$(RP2040_DIR)" MICROPYTHON_DIR="$(MICROPYTHON_DIR)" \
	  $(PY) tools/build_firmware.py $(REVISIONS)

# The board's figures and its budgets' verdicts (tools/bench, one entry
# point: python -m bench from tools/): the rules core and the whole
# firmware under the unix port, the CircuitPython strip adapter, then the
# images on the emulated RP2040 in the chip's own cycles
# (it installs rp2040js where it is missing, as the tests do). Each run is
# written as data to docs/figures/data/<set>.json (figures, units,
# budgets, verdicts, date, commit, machine) and docs/figures.md is
# generated from those files: commit both. make bench is the parts within
# 10 minutes on 2 cores; make bench-long the long ones (memory: each
# mode's match, frozen and deployed, ~30 min; capacity: the flash filled
# with real matches; engine: the computer's levels). BENCH_ARGS= passes
# more (--quick, --part NAME; --part unix-link: logs pull against mpremote
# cp on the unix port, three rounds). The benchmark's own image,
# build/firmware/bench/, is rev A with the simulator frozen in too
# (tools/build_firmware.py --sim): the firmware part runs
# tools/bench/firmware_device.py on it. It is never one to flash.
BENCH_UF2 := build/firmware/bench/apixagon-rev_a.uf2
BENCH_SRC := $(FIRMWARE_SRC) $(shell find firmware/smartboard/sim -name '*.py')
BENCH_ARGS ?=

bench: $(STAMP) $(EMU_STAMP) $(FIRMWARE_UF2) $(BENCH_UF2)
	cd tools && APIXAGON_RP2040_DIR="$(RP2040_DIR)" $(abspath $(PY)) -m bench $(BENCH_ARGS)
	cd tools && $(abspath $(PY)) -m bench.figures

# The parts that need no model of the board's parts (the calibration
# programs, the rules core, a reset to HELLO) on a real Pico flashed with
# build/firmware/apixagon-rev_a.uf2, over its USB serial port: the figures
# to send to the project (tools/bench/device.py; docs/development/bench.md).
.PHONY: bench-device
PORT ?=
bench-device: $(STAMP)
	@test -n "$(PORT)" || (echo "make bench-device PORT=/dev/ttyACM0 (the Pico's serial port)"; exit 2)
	cd tools && $(abspath $(PY)) -m bench.device --port "$(PORT)"

bench-long: $(STAMP) $(EMU_STAMP) $(FIRMWARE_UF2)
	cd tools && APIXAGON_RP2040_DIR="$(RP2040_DIR)" $(abspath $(PY)) -m bench --long $(BENCH_ARGS)
	cd tools && $(abspath $(PY)) -m bench.figures

# docs/figures.md from the committed data alone (tests/test_figures.py
# fails when the page differs from what this writes)
figures: $(STAMP)
	cd tools && $(abspath $(PY)) -m bench.figures

$(BENCH_UF2): $(BENCH_SRC) | $(STAMP)
	@RP2040_DIR="$(RP2040_DIR)" MICROPYTHON_DIR="$(MICROPYTHON_DIR)" \
	  $(PY) tools/build_firmware.py --sim rev_a

clean:
	rm -rf build .pytest_cache
