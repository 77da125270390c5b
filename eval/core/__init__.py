"""The core every layer stands on: the data model (schema), the one extension-registry mechanism,
errors of bad input, text normalisation, input-setting names, number formatting, JSONL reading and
the one retry policy.

Owns no I/O beyond reading input files. Imports nothing of factprobe outside `core`.
"""
