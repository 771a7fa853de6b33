# The two commands of the README: `make run` and `make test`. Everything else is a helper.
PY ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test venv clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/glyphline tests/data/sample.pdf

test: $(STAMP)
	$(VPY) -m pytest -q

clean:
	rm -rf $(VENV) dist build *.egg-info
