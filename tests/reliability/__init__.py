"""The acceptance suite of issue 11: every case of the reliability findings, run in a
child process and judged like the findings did (see tests/test_findings.py)."""
