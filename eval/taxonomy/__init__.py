"""The error taxonomy: a judge sorts wrong answers into kinds, refusals counted by their grade
(`factprobe taxonomy`, kinds per benchmark as presets or from a file), with its section, table and plot.

May import: run, report, analysis and everything below them.
"""
