"""The scripts in data/ are run by the cases, not imported by pytest."""

collect_ignore_glob = ["data/*"]
