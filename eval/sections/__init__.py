"""summary.json sections, one module each (listed in factprobe.eval.summary.SECTIONS)."""
