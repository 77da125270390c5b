"""Files on disk: the run directory (manifest, results.jsonl, summary, lock), slim rows read from it,
the cache directory's stores (JSON values in sqlite, content-addressed media), and the one atomic
write of a file or folder.

May import: core.
"""
