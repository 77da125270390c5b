"""Test-time compute: accuracy, F and tokens at every N of best-of-N and every round of self-refine,
from one run. Holds its post step (the model picks for smaller N), section, table and plot.

May import: run, report, analysis and everything below them.
"""
