"""Speed measurements of the package's envs (run as modules, e.g. benchmarks.step_speed)."""
