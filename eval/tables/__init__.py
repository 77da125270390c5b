"""Terminal tables, one module each (see eval.report.REPORT_MODULES)."""
