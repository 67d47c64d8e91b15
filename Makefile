# The two commands of the README:
#   make serve   build the site if needed and serve it on http://127.0.0.1:$(PORT)
#   make test    run every test (library, CLI, corpus, dead positions, browser)
# Both create the virtual environment and install what they need first.

PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
PORT   ?= 8000

.PHONY: serve test site venv bench clean

$(VENV)/.installed: pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "Python 3.11+ is needed: install python3 (with venv)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet -e '.[test,audit]'
	@touch $@

venv: $(VENV)/.installed

site: venv
	$(VPY) web/build.py

serve: site
	$(VPY) web/serve.py --port $(PORT)

test: site
	$(VPY) -m pytest $(PYTEST_ARGS)

bench: venv
	$(VPY) benchmarks/bench_scan.py
	$(VPY) benchmarks/bench_deadposition.py
	$(VPY) benchmarks/web_bench.py

clean:
	rm -rf $(VENV) web/dist build *.egg-info
