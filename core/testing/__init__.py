"""Testing kit for scoring rules: property suites, regression snapshots, a pytest plugin.

(placeholder; filled below)
"""
