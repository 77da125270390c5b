"""Models and strategies: model backends (`models`), prompts, answer parsing, the strategy registry
and one LangGraph graph per strategy (`strategies`), and retrieval as graph steps (`rag`, with the
search supplied by the run).

May import: factprobe.eval.core and factprobe.eval.store only.
"""

if __name__ != "factprobe.agents":   # one import path; a second would make a second copy of every class
    raise ImportError(f"import factprobe.agents, not {__name__}: the folder agents/ is the package "
                      "factprobe.agents (README \"Layout\")")
