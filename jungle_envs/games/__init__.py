"""One package per game, each with the same modules (see docs/rules/ for the rules)."""
