"""The browsable report: one self-contained report.html per run, and one across runs."""
