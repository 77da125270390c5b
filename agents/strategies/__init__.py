"""Strategy modules; each registers one strategy graph (declared in the `factprobe.strategies`
entry-point group, pyproject.toml)."""
