"""Self-awareness (MM-SAP): the forced re-ask of refused questions and the kk/ku/sa scores, with
their section and table.

May import: run, report, analysis and everything below them.
"""
