"""Benchmarks: `python -m benchmarks` prints JSON with ratios against baselines run alongside."""
