"""PNG plots drawn into the run directory, one module each (listed in factprobe.eval.report.TABLES)."""
