"""Strategy modules; each registers one strategy graph (see agents.registry.STRATEGY_MODULES)."""
