"""Grading an answer against the gold: the rule grader, the LLM judge and the cascade of the two,
the grading service every grade of a run goes through (one error policy), the judge loader, and
the grader audit.

May import: core, store, agents (the judge is a model).
"""
