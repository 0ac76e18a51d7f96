"""Collection rules for the test suite."""

from __future__ import annotations

import importlib.util

import pytest
from hypothesis import settings

import jungle_envs.core.env

# The RLlib tests need the rllib extra, which lives in a virtualenv of its own
# (`make test-rllib`); elsewhere they are not collected at all rather than skipped.
collect_ignore = [] if importlib.util.find_spec("ray") else ["test_rllib.py"]

# Property tests draw the same examples on every run and machine; `--hypothesis-profile=deep`
# draws fresh, ten times as many (docs/reliability.md).
settings.register_profile("default", max_examples=250, deadline=None, derandomize=True)
settings.register_profile("deep", max_examples=2500, deadline=None)
settings.load_profile("default")


@pytest.fixture(params=["compiled", "reference"])
def each_engine(request, monkeypatch):
    """Run a test once on the compiled twin and once on the Python reference engine: what
    ``engine="auto"`` (every ``gymnasium.make`` without an engine) picks."""
    monkeypatch.setattr(jungle_envs.core.env, "AUTO_ENGINE", request.param)
    return request.param
