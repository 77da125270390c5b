"""What a person reads: terminal tables, PNG/SVG plots and the self-contained report.html (also
the comparison and sweep pages), all rebuilt from a run directory without model calls.

May import: analysis and everything below it.
"""
