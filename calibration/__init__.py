"""Calibration: confidence methods (`methods`, scored in one post step from statistics computed
once), calibration metrics on raw confidences (`metrics`, `rows`), the summary sections, the
terminal table and the plots.

A measurement folder: may import factprobe.eval's run, report, analysis and everything below them.
"""
