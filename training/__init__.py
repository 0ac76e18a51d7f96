"""Training and evaluation scripts for MaskablePPO agents on the package's envs."""
