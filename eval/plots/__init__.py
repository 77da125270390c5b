"""PNG plots drawn into the run directory, one module each (see eval.report.REPORT_MODULES)."""
