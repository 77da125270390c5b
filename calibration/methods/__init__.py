"""Confidence methods, one small module each: verbal, token_prob, consistency and p_true.

Each registers itself with `@register_confidence` (factprobe.eval.run.confidence, which says what a
method is and how a run checks `--confidence`).
"""
