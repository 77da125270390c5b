"""The error taxonomy: a judge sorts wrong answers into kinds (`factprobe taxonomy`), with its
section and plot.

May import: run, report, analysis and everything below them.
"""
