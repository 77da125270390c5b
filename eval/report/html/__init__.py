"""report.html, compare.html and sweep.html: Jinja2 templates rendered into one self-contained file."""
