"""The peer clients `python -m benchmarks peers` runs beside factprobe, each as its own process."""
