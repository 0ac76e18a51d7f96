"""Collection rules for the test suite."""

from __future__ import annotations

import importlib.util

# The RLlib tests need the rllib extra, which lives in a virtualenv of its own
# (`make test-rllib`); elsewhere they are not collected at all rather than skipped.
collect_ignore = [] if importlib.util.find_spec("ray") else ["test_rllib.py"]
