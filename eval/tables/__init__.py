"""Terminal tables, one module each (listed in factprobe.eval.report.TABLES)."""
