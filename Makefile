# Set-up and everyday commands. Every target creates or updates the virtualenv itself.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DOCS_STAMP := $(VENV)/.docs-installed

RLLIB_VENV ?= .venv-rllib
RLLIB_PY := $(RLLIB_VENV)/bin/python
RLLIB_STAMP := $(RLLIB_VENV)/.installed

.PHONY: demo agent test test-all test-rllib lint bench soak docs clean serve browser

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[train,test,web]'
	touch $(STAMP)

## Train MaskablePPO on Jungle Sweep for a few minutes and compare it with the heuristic.
demo: $(STAMP)
	$(PY) -m training.demo

## One table's agent by its game's config: train, select on validation games, ship into
## runs/train/<GAME>-<PLAYERS>p/shipped, each stage timed (AGENT_ARGS="--ship" replaces
## the package's agent), e.g. make agent GAME=JungleSweep PLAYERS=2.
GAME ?= JungleSweep
PLAYERS ?= 4
agent: $(STAMP)
	$(PY) -m training.agent --game $(GAME) --players $(PLAYERS) $(AGENT_ARGS)

## The test suite (what CI runs): lint, compile the games' kernels once (two at a time),
## then every test not marked slow; the browser tests drive Debian's Chromium (below).
test: $(STAMP) browser
	$(PY) -m ruff check .
	$(PY) -m jungle_envs warmup
	$(PY) -m pytest -n 2 -q

## Debian's Chromium for the browser tests, which Playwright drives (its own browser
## download is never used); without it they are skipped and say why.
browser:
	@command -v chromium >/dev/null 2>&1 || apt-get install -y -q chromium >/dev/null 2>&1 \
		|| sudo -n apt-get install -y -q chromium >/dev/null 2>&1 \
		|| echo "no chromium (Debian's package): the browser tests will be skipped"

## Play in the browser: the table and replays at http://127.0.0.1:8000/ (Ctrl+C stops it).
serve: $(STAMP)
	$(PY) -m jungle_envs serve

$(RLLIB_STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(RLLIB_VENV)
	$(RLLIB_PY) -m pip install --quiet --upgrade pip
	$(RLLIB_PY) -m pip install --quiet -c constraints.txt -e '.[train,test,rllib]'
	touch $(RLLIB_STAMP)

## The Ray RLlib tests, in a virtualenv with the rllib extra (Ray pins its own Gymnasium).
test-rllib: $(RLLIB_STAMP)
	$(RLLIB_PY) -m pytest -q -m rllib

## Every test, the slow ones included: a ten times deeper property search of saved states
## (fresh examples each run) and a larger soak slice on two workers.
test-all: $(STAMP) browser
	$(PY) -m jungle_envs warmup
	$(PY) -m pytest -n 2 -q -m ''

## The documentation site into build/site/ (MkDocs, warnings are errors; CI builds it too).
docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --quiet

$(DOCS_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -c constraints.txt -e '.[docs]'
	touch $(DOCS_STAMP)

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

## Steps per second of every registered env.
bench: $(STAMP)
	$(PY) -m benchmarks.step_speed

## The soak: a million random masked games on every game, player count and path, every
## error reported (benchmarks/soak/; flags through SOAK_ARGS, e.g. SOAK_ARGS="--seconds 600").
soak: $(STAMP)
	$(PY) -m jungle_envs warmup
	$(PY) -m benchmarks.soak $(SOAK_ARGS)

clean:
	rm -rf $(VENV) $(RLLIB_VENV) build *.egg-info .pytest_cache .ruff_cache
