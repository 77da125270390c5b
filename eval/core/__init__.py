"""The core every layer stands on: the data model (schema), the one extension-registry mechanism,
errors of bad input, text normalisation, input-setting names, number formatting, JSONL reading and
the one retry policy; and every speed trick, behind one switch (`speedups`).

Owns no I/O beyond reading input files. Imports nothing of factprobe outside `core`.
"""
