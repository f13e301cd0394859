"""Deterministic solvers of causalcheck (z3 checks, Markov equivalence, equation algebra).

Each solver lives in its own module and imports its heavy dependency lazily; import the
module you need, e.g. ``from causalcheck.solvers.equivalence import imec_size``.

Checks used by ``causalcheck check`` (each returns diagnostics and never raises on a bad
hypothesis): :mod:`~causalcheck.solvers.acyclicity` (minimal cycle cores with z3),
:mod:`~causalcheck.solvers.contradictions` (edges asserted both ways or against a
reference), :mod:`~causalcheck.solvers.equations` (equation vs. parents, undetermined
coefficients), :mod:`~causalcheck.solvers.data_consistency` (equation vs. recorded data,
minimal conflicting points, smallest reconciling tolerance).
"""
