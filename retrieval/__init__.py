"""Retrieval: passages from a local corpus (BM25, dense, hybrid), Wikipedia or the web.

`base` holds the retriever protocol, `registry.build_retriever` turns a `--retriever` value into a
retriever, and `pipeline` searches one question's queries in the right corpus (the graph steps
that use it are factprobe.agents.rag).

May import: factprobe.eval.core and factprobe.eval.store only.
"""

if __name__ != "factprobe.retrieval":   # one import path; a second would make a second copy of every class
    raise ImportError(f"import factprobe.retrieval, not {__name__}: the folder retrieval/ is the package "
                      "factprobe.retrieval (README \"Layout\")")
