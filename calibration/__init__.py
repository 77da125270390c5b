"""Calibration: confidence methods (`methods`, scored in one post step from statistics computed
once), calibration metrics on raw confidences (`metrics`, `rows`), the summary sections, the
terminal table and the plots.

A measurement folder: may import factprobe.eval's run, report, analysis and everything below them.
"""

if __name__ != "factprobe.calibration":   # one import path; a second would make a second copy of every class
    raise ImportError(f"import factprobe.calibration, not {__name__}: the folder calibration/ is the package "
                      "factprobe.calibration (README \"Layout\")")
