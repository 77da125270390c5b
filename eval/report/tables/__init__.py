"""The terminal tables every run prints: scores and gains, input settings, retrieval."""
