"""Models and strategies: model backends (`models`), prompts, answer parsing, the strategy registry
and one LangGraph graph per strategy (`strategies`), and retrieval as graph steps (`rag`, with the
search supplied by the run).

May import: factprobe.eval.core and factprobe.eval.store only.
"""
