# niclab: the two commands are `make demo` and `make test`; both set everything up
# on a fresh machine (Debian packages, .venv, build) first.
SHELL := /bin/bash
VENV  := .venv
PY    := $(VENV)/bin/python
BUILD := build
JOBS  ?= 2

.PHONY: all setup build demo gui test test-cpp test-python bench bench-table clean

all: build

$(BUILD)/.apt-ok: scripts/install-system-deps.sh
	@mkdir -p $(BUILD)
	scripts/install-system-deps.sh
	@touch $@

$(VENV)/.ok: requirements-dev.txt $(BUILD)/.apt-ok
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt
	@# The package is used in place: python/ on the path, the module built by CMake next to it.
	$(PY) -c 'import site,sys; open(site.getsitepackages()[0]+"/niclab-dev.pth","w").write(sys.argv[1]+"\n")' $(CURDIR)/python
	printf '#!/usr/bin/env bash\nexec "%s" -m niclab "$$@"\n' "$(CURDIR)/$(PY)" > $(VENV)/bin/niclab && chmod +x $(VENV)/bin/niclab
	@touch $@

setup: $(VENV)/.ok

build: setup
	cmake -S . -B $(BUILD) -G Ninja -DNICLAB_PYTHON=ON -DNICLAB_GUI=ON \
	  -DPython_EXECUTABLE=$(CURDIR)/$(PY) \
	  -Dpybind11_DIR=$$($(PY) -m pybind11 --cmakedir) > $(BUILD)/configure.log || { cat $(BUILD)/configure.log; exit 1; }
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(VENV)/bin/niclab demo

# The Qt workbench (gui/): built with everything else when Qt 6 is installed.
gui: build
	@test -x $(BUILD)/gui/niclab-gui || { echo "the GUI was not built: Qt 6 Widgets/Charts missing (see $(BUILD)/configure.log)"; exit 1; }
	$(BUILD)/gui/niclab-gui

# A test that hangs (a broken core can loop forever) fails after TEST_TIMEOUT seconds
# instead of holding the run until CI's own limit (ctest's default is 25 minutes a test,
# pytest has none); the slowest test, the validation of every system, takes about 80 s.
TEST_TIMEOUT ?= 600

test-cpp: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) --timeout $(TEST_TIMEOUT)

test-python: build
	$(PY) -m pytest -q --timeout $(TEST_TIMEOUT) tests/python

test: test-cpp test-python

bench: build
	$(BUILD)/cpp/bench/bench_iss
	$(BUILD)/cpp/bench/bench_kernel
	$(BUILD)/cpp/bench/bench_net
	$(BUILD)/cpp/bench/bench_transfer
	$(BUILD)/cpp/bench/bench_portals
	$(BUILD)/cpp/bench/bench_sweep
	$(BUILD)/cpp/bench/bench_startx
	$(BUILD)/cpp/bench/bench_scale
	@# The GUI's refresh cost, where the GUI is built (Qt 6).
	if [ -x $(BUILD)/gui/bench_snapshot ]; then $(BUILD)/gui/bench_snapshot; fi

# The speed and scale figures as a table: each benchmark in interleaved rounds, medians
# against their targets (scripts/bench_table.py --help for its options).
bench-table: build
	$(PY) scripts/bench_table.py

clean:
	rm -rf $(BUILD) python/niclab/_niclab*.so
