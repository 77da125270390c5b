"""Grading an answer against the gold: the rule grader, the LLM judge and the cascade of the two, and
the grader audit.

May import: core, store, agents (the judge is a model).
"""
