"""Video evidence: did a question about a video reach the model with it, and Video SimpleQA's own
F as its metrics code computes it.

May import: run, report, analysis and everything below them.
"""
