# The two commands of the README:
#   make serve   build the site if needed and serve it on http://127.0.0.1:$(PORT)
#   make test    run every test (ruff, library, CLI, corpus, dead positions, browsers)
# Both create the virtual environment and install what they need first.
# For day-to-day work on the library:
#   make test-quick  ruff (lint and format check) and the unit tests (no browser, no corpus, no packaging)
#   make docs        the API reference into docs/api/ (and docs/contract.md, web/src/contract.js from the TypedDicts)
#   make contract    only docs/contract.md and web/src/contract.js, after a change to a contract TypedDict
#   make catalogs    after a change to a sentence: update the .po catalogs from the sources, compile the .mo
#   make native      the optional compiled search (native/: mypyc, needs a C compiler), into the venv
#   make test-full   make test with the corpora and random-game samples whole (PYCHESSDRAW_FULL=1; over an hour on 2 cores)

PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
PORT   ?= 8000

.PHONY: serve test test-full test-quick lint docs contract catalogs site venv bench clean native

# What ruff checks (pyproject.toml's [tool.ruff]): the package, the tests, the benchmarks, the docs' build, the native build.
RUFF_PATHS := pychessdraw tests e2e web benchmarks docs native

# __init__.py holds the version: reinstall so that the metadata follows it.
$(VENV)/.installed: pyproject.toml pychessdraw/__init__.py
	@command -v $(PYTHON) >/dev/null || { echo "Python 3.11+ is needed: install python3 (with venv)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet -e '.[test,audit]'
	@touch $@

venv: $(VENV)/.installed

site: venv
	$(VPY) web/build.py

serve: site
	$(VPY) web/serve.py --port $(PORT)

# The compiled search is rebuilt whenever the search or its build changes
# (a stale one is never used: pychessdraw checks the sources' hash).
NATIVE_INPUTS := $(wildcard pychessdraw/deadposition/*.py) native/generate.py native/setup.py native/pyproject.toml native/walk.c

native: venv
	$(VPY) native/build.py
	@touch $(VENV)/.native

# make test builds it where the machine can (else its tests skip and say why).
$(VENV)/.native: $(VENV)/.installed $(NATIVE_INPUTS)
	$(VPY) native/build.py --if-possible
	@touch $@

# The library's tests on up to four cores (a file stays on one worker: its
# fixtures are module-wide); the browser tests after them, one page at a time.
test: site lint $(VENV)/.native
	$(VPY) -m pytest tests -n auto --maxprocesses=4 --dist loadfile $(PYTEST_ARGS)
	$(VPY) -m pytest e2e $(PYTEST_ARGS)

lint: venv
	$(VENV)/bin/ruff check $(RUFF_PATHS)
	$(VENV)/bin/ruff format --check $(RUFF_PATHS)

test-full:
	PYCHESSDRAW_FULL=1 $(MAKE) test

test-quick: lint
	$(VPY) -m pytest tests -m "not slow" -q $(PYTEST_ARGS)

docs: venv
	$(VPY) docs/build.py

contract: venv
	$(VPY) docs/build.py --contract

# New sentences come in untranslated: the check that follows lists them (translate them in each .po, then run it again).
catalogs: venv
	$(VPY) docs/catalogs.py --update --compile

bench: venv
	$(VPY) benchmarks/bench_scan.py
	$(VPY) benchmarks/bench_deadposition.py
	$(VPY) benchmarks/web_bench.py

clean:
	rm -rf $(VENV) web/dist build dist docs/api *.egg-info native/src native/build native/*.egg-info
