"""Foundations: what every other layer of causalcheck builds on, and that imports nothing above it.

* :mod:`~causalcheck.base.errors` — the one root exception, :class:`CausalCheckError`, and its
  few subclasses (also importable from ``causalcheck``, and under its former name ``causalcheck.errors``);
* :mod:`~causalcheck.base.codes` — the one registry of finding codes;
* :mod:`~causalcheck.base.files` — durable writes, run-folder locks, safe input, provenance;
* :mod:`~causalcheck.base.safejson` — decoding JSON that causalcheck does not control, safely;
* :mod:`~causalcheck.base.jsontext` — finding JSON in model text (also under its former name ``causalcheck.jsontext``);
* :mod:`~causalcheck.base.lazy` — lazy re-exports for package ``__init__`` modules;
* :mod:`~causalcheck.base.aio` — the one background event loop of the synchronous entry points;
* :mod:`~causalcheck.base.redaction` — keeping API keys out of everything causalcheck writes;
* :mod:`~causalcheck.base.escape` — escaping user strings for Markdown, CSV and the terminal;
* :mod:`~causalcheck.base.cmdline` — what every command module shares: exit codes, option types.

The grammars and their cached parsers are the other foundation package,
:mod:`causalcheck.grammar` (:mod:`causalcheck.grammar.parsers`).  Nothing is re-exported here:
import from the module that defines a name.
"""
