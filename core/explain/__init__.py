"""Explain: what-if answers → EDUs → causal graph → Process Metric, Rubric Metric and Final."""
