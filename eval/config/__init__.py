"""A run's configuration: the options (`RunConfig`), how the command line and the Python API set them,
and the baseline rule.

May import: core, store, agents, retrieval, grading, datasets, media.
"""
