"""A run: the pipeline (set-up checks, manifest, resume), the runner that answers, grades and records
every job, post steps, the confidence-method registry, the error-rate check, sweeps, and runs split
into shards (`--shard`, `--workers`, `--executor ray`) with their merge.

May import: report, analysis and everything below them; never a measurement folder (those
register themselves through the registries here and in analysis and report).
"""
