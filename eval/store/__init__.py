"""Files on disk: the run directory (manifest, results.jsonl, summary, lock), slim rows read from it,
and the cache directory's stores (JSON values in sqlite, content-addressed media).

May import: core.
"""
