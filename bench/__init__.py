"""Benchmarks: hugelite beside raw sqlite3 (the limit) and PyPI peers, in one run."""
