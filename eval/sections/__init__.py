"""summary.json sections, one module each (see eval.summary.SECTION_MODULES)."""
