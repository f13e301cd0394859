"""Deterministic solvers of causalcheck (z3 checks, Markov equivalence, equation algebra).

Each solver lives in its own module and imports its heavy dependency lazily; import the
module you need, e.g. ``from causalcheck.solvers.equivalence import imec_size``.
"""
