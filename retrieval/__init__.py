"""Retrieval: passages from a local corpus (BM25, dense, hybrid), Wikipedia or the web.

`base` holds the retriever protocol, `registry.build_retriever` turns a `--retriever` value into a
retriever, `entities` turns a question into queries, and `node` is the graph step that composes
retrieval in front of any strategy (`X+rag`).
"""
