"""Collection rules for the test suite."""

from __future__ import annotations

import importlib.util

import pytest

import jungle_envs.core.env

# The RLlib tests need the rllib extra, which lives in a virtualenv of its own
# (`make test-rllib`); elsewhere they are not collected at all rather than skipped.
collect_ignore = [] if importlib.util.find_spec("ray") else ["test_rllib.py"]


@pytest.fixture(params=["compiled", "reference"])
def each_engine(request, monkeypatch):
    """Run a test once on the compiled twin and once on the Python reference engine: what
    ``engine="auto"`` (every ``gymnasium.make`` without an engine) picks."""
    monkeypatch.setattr(jungle_envs.core.env, "AUTO_ENGINE", request.param)
    return request.param
