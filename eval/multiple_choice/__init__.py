"""Multiple choice: mapping an answer to a letter, grading it against the shown order, and the
section, table and plot of accuracy beside chance.

May import: run, report, analysis and everything below them.
"""
