"""Mutation strategies and a guarded runner for tests/test_fuzz.py."""
