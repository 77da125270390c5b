"""Benchmarks: timing measurements, not tests. `python -m benchmarks` runs every `bench_*` module.

Each module defines `run(console)`, which measures and prints its results; run one with
`python -m benchmarks NAME` (e.g. `retrieval` for bench_retrieval).
"""
