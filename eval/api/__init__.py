"""The Python API's functions (`run`, `arun`, `load_run`, plots on the user's own axes); the
`factprobe` package re-exports them. May import every layer.
"""
