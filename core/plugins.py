"""Plug-ins: agents, judges, parsers and segmenters found by name — one lookup for ours and yours.

The pipelines are written against protocols — the lab's :class:`~causalcheck.lab.episode.Agent`, the
explain parser, judges and segmenter of :mod:`causalcheck.explain.judges`, the model clients of
:mod:`causalcheck.adapters`; the objects that satisfy them are *plug-ins*, looked up by name through
Python entry points.  This is the one registry of every kind, causalcheck's own included:

=================== ================================ ================== ===========================================
kind                entry-point group                protocol           the factory is called as
=================== ================================ ================== ===========================================
``agent``           ``causalcheck.agents``           ``Agent``          ``factory(seed=S, **options)``
``edge_judge``      ``causalcheck.edge_judges``      ``EdgeJudge``      ``factory()``
``criterion_judge`` ``causalcheck.criterion_judges`` ``CriterionJudge`` ``factory()``
``parser``          ``causalcheck.parsers``          ``AnswerParser``   ``factory()``
``segmenter``       ``causalcheck.segmenters``       ``Segmenter``      ``factory()``
``judge_backend``   ``causalcheck.judge_backends``   ``JudgeBackend``   ``factory()`` (``explain score``'s judges)
``llm_provider``    ``causalcheck.llm_providers``    ``LLM``            ``factory(model=M, base_url=U, api_key=K,
                                                                        timeout=T, env=E)`` (model strings ``name/M``)
``command``         ``causalcheck.commands``         (none)             ``factory(subparsers)`` adds the command
=================== ================================ ================== ===========================================

A *name* is either registered — an entry point of that group; causalcheck registers its own
built-ins there too (``planner``, ``offline``, ``rules``, … in its ``pyproject.toml``) — or
written out as ``package.module:factory`` (a dotted attribute path after the colon works too),
so an unpublished module on ``sys.path`` needs no packaging at all::

    causalcheck lab run --suite mini --agent mypkg.agents:make_agent --out runs/mine
    causalcheck explain score ... --edge-judge mypkg.judges:StrictJudge --segmenter mypkg.seg:Mine

To publish one, declare it in your package's ``pyproject.toml``::

    [project.entry-points."causalcheck.agents"]
    mine = "mypkg.agents:make_agent"

and ``--agent mine`` finds it.  The factory is usually the class itself.  What it returns is
checked against the protocol *before it is used*: every method must exist, be callable the way
the core calls it (``act(observation)``: one positional argument) and be synchronous.  A
plug-in that does not fit is a :class:`PluginError` (an input error: exit code 2 on the
command line) naming what is missing or which signature is wrong:

>>> class Half:                      # an agent without act()
...     def reset(self, task): ...
>>> problems = protocol_problems(Half(), "agent")
>>> problems
['missing method act(observation)']
>>> class Rude:
...     def reset(self): ...         # reset() that takes no task
...     async def act(self, observation): ...
>>> for p in protocol_problems(Rude(), "agent"): print(p)
reset() cannot be called as reset(task): too many positional arguments
act() is a coroutine function; the Agent protocol calls it synchronously
>>> is_target("mypkg.agents:make_agent"), is_target("planner"), is_target("parser:en_core_web_sm")
(True, False, True)

A ``command`` is registered, never created: ``causalcheck NAME`` calls its factory with the
command line's sub-parsers (:func:`load_factory`), as it does for its own commands.
:func:`register` adds a plug-in to the running process only (a notebook, a test); it is looked up
before the entry points.  :func:`in_order` lists the names of a kind in the order they are
asked: ``explain score`` asks a judge back-end of yours before the built-in ones, and the command
line lists its own commands first.

Names are resolved from the entry points of every installed distribution (read once per
process, on first use — never at import) together with the built-in table
:data:`BUILTINS`, which equals causalcheck's own ``pyproject.toml`` entries (a test keeps
them equal) and keeps a source checkout or a stale install working.  Two distributions that
register one name for different factories make that name ambiguous: it is refused with both
targets, and the ``package.module:factory`` form picks one.
"""

from __future__ import annotations

import functools
import importlib
import math
import re
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal, overload

from causalcheck.base.boundary import PluginError
from causalcheck.base.errors import CausalCheckError, InputFormatError

if TYPE_CHECKING:  # the protocols are imported when a plug-in is checked: the command line reads this table first
    from causalcheck.protocols import (
        LLM,
        Agent,
        AnswerParser,
        CriterionJudge,
        EdgeJudge,
        JudgeBackend,
        Segmenter,
    )

__all__ = [
    "BUILTINS",
    "GROUPS",
    "PROTOCOLS",
    "Kind",
    "PluginError",
    "PluginOptionError",
    "Registry",
    "check_plugin",
    "clear_cache",
    "create",
    "in_order",
    "is_target",
    "load_factory",
    "protocol_problems",
    "register",
    "registered",
    "resolve",
    "unregister",
]

Kind = Literal["agent", "edge_judge", "criterion_judge", "parser", "segmenter", "judge_backend", "llm_provider", "command"]

#: The entry-point group of each kind.
GROUPS: dict[Kind, str] = {
    "agent": "causalcheck.agents",
    "edge_judge": "causalcheck.edge_judges",
    "criterion_judge": "causalcheck.criterion_judges",
    "parser": "causalcheck.parsers",
    "segmenter": "causalcheck.segmenters",
    "judge_backend": "causalcheck.judge_backends",
    "llm_provider": "causalcheck.llm_providers",
    "command": "causalcheck.commands",
}

#: The protocol each kind must satisfy (by name in :mod:`causalcheck.protocols`; ``command``: none).
_PROTOCOL_NAMES: dict[Kind, str] = {
    "agent": "Agent",
    "edge_judge": "EdgeJudge",
    "criterion_judge": "CriterionJudge",
    "parser": "AnswerParser",
    "segmenter": "Segmenter",
    "judge_backend": "JudgeBackend",
    "llm_provider": "LLM",
}

#: causalcheck's own plug-ins, as registered in its ``pyproject.toml`` (kept equal by a test).  The
#: order of a kind's entries is the order :func:`in_order` gives them (``--help`` lists the commands so).
BUILTINS: dict[Kind, dict[str, str]] = {
    "agent": {
        "llm": "causalcheck.lab.llm_agent:make_llm_agent",
        "observational": "causalcheck.lab.agents:ObservationalAgent",
        "planner": "causalcheck.lab.planner:PlannerAgent",
        "random": "causalcheck.lab.agents:RandomAgent",
    },
    "edge_judge": {"offline": "causalcheck.explain.offline:OfflineEdgeJudge"},
    "criterion_judge": {"offline": "causalcheck.explain.offline:OfflineCriterionJudge"},
    "parser": {"offline": "causalcheck.explain.relations:OfflineParser"},
    "segmenter": {"rules": "causalcheck.explain.segment:RuleSegmenter"},
    # the plug-in back-end (--edge-judge, ...) first: it builds on whatever the others build
    "judge_backend": {
        "plugins": "causalcheck.explain.plugin_judges:PluginJudges",
        "llm": "causalcheck.explain.llm_cli:LLMJudges",
    },
    "llm_provider": {
        "anthropic": "causalcheck.adapters._registry:anthropic_llm",
        "llamacpp": "causalcheck.adapters._registry:llamacpp_llm",
        "ollama": "causalcheck.adapters._registry:ollama_llm",
        "openai": "causalcheck.adapters._registry:openai_llm",
        "openrouter": "causalcheck.adapters._registry:openrouter_llm",
        "vllm": "causalcheck.adapters._registry:vllm_llm",
    },
    "command": {
        "check": "causalcheck.checking.cli:register",
        "compare": "causalcheck.graphchecks.cli:register",
        "lab": "causalcheck.lab.cli:register",
        "explain": "causalcheck.report.agree:register_explain",
        "demo": "causalcheck.demo:register",
        "data": "causalcheck.demo:register_data",
        "report": "causalcheck.report.cli:register",
        "sweep": "causalcheck.sweep.cli:register",
        "snapshot": "causalcheck.testing.cli:register",
    },
}

#: Plug-ins added to this process by :func:`register`: kind -> name -> factory.
_LOCAL: dict[Kind, dict[str, Callable[..., object]]] = {kind: {} for kind in GROUPS}


class _Protocols(Mapping[Kind, type]):
    """kind → protocol class, imported from :mod:`causalcheck.protocols` on first use."""

    def __getitem__(self, kind: Kind) -> type:
        if kind not in _PROTOCOL_NAMES:
            raise KeyError(kind)
        return _protocol(kind)

    def __iter__(self) -> Iterator[Kind]:
        return iter(_PROTOCOL_NAMES)

    def __len__(self) -> int:
        return len(_PROTOCOL_NAMES)


#: The protocol each kind of plug-in object must satisfy (``command`` has none).
PROTOCOLS: Mapping[Kind, type] = _Protocols()


def _protocol(kind: Kind) -> type:
    """The protocol class of *kind* (:class:`InputFormatError` for ``command``, which has none)."""
    if kind not in _PROTOCOL_NAMES:
        raise InputFormatError(f"kind={kind!r} has no protocol: a {kind} is registered, not created (load_factory)")
    # late: the command line reads this registry before any protocol is needed
    import causalcheck.protocols as protocols

    return typing.cast(type, getattr(protocols, _PROTOCOL_NAMES[kind]))


_TARGET = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def is_target(name: str) -> bool:
    """True when *name* is written as ``package.module:factory`` (a syntax check; nothing is imported)."""
    return isinstance(name, str) and _TARGET.fullmatch(name) is not None


def _check_kind(kind: str) -> Kind:
    if kind not in GROUPS:
        raise InputFormatError(f"kind={kind!r} must be one of {sorted(GROUPS)!r}")
    return kind


@functools.cache
def _entry_points(group: str) -> tuple[tuple[str, str, str], ...]:
    """``(name, "module:attr", distribution)`` of every installed entry point of *group*."""
    from importlib.metadata import entry_points

    out = []
    for ep in entry_points(group=group):
        dist = ep.dist.name if ep.dist is not None else "?"
        out.append((ep.name, ep.value.replace(" ", ""), dist))
    return tuple(sorted(set(out)))


def clear_cache() -> None:
    """Forget the entry points read so far (after a package was installed into the running process)."""
    _entry_points.cache_clear()


def _candidates(kind: Kind) -> dict[str, dict[str, str]]:
    """name -> {target: where it was registered}."""
    found: dict[str, dict[str, str]] = {}
    for name, factory in _LOCAL[kind].items():
        found.setdefault(name, {})[_target_of(factory)] = "this process (register)"
    for name, target in BUILTINS[kind].items():
        found.setdefault(name, {})[target] = "causalcheck"
    for name, target, dist in _entry_points(GROUPS[kind]):
        found.setdefault(name, {}).setdefault(target, dist)
    return found


def _target_of(factory: Callable[..., object]) -> str:
    return f"{getattr(factory, '__module__', '?')}:{getattr(factory, '__qualname__', type(factory).__name__)}"


def register(kind: Kind, name: str, factory: Callable[..., object]) -> None:
    """Add *factory* as plug-in *name* of *kind* to this process (before the entry points; see the module docstring)."""
    kind = _check_kind(kind)
    if not isinstance(name, str) or not name.strip() or is_target(name) or not callable(factory):
        raise InputFormatError(f"register({kind!r}, {name!r}, ...) needs a plain name and a callable factory")
    _LOCAL[kind][name] = factory


def unregister(kind: Kind, name: str) -> None:
    """Remove what :func:`register` added (a name it did not add is left alone)."""
    _LOCAL[_check_kind(kind)].pop(name, None)


def in_order(kind: Kind, *, builtins_first: bool) -> list[str]:
    """The registered names of *kind* in the order they are asked: causalcheck's own in :data:`BUILTINS`
    order, and the others (this process's, then the entry points', each sorted) before or after them."""
    kind = _check_kind(kind)
    names = registered(kind)
    own = [n for n in BUILTINS[kind] if n in names]
    local = sorted(n for n in names if n in _LOCAL[kind] and n not in BUILTINS[kind])
    others = sorted(n for n in names if n not in BUILTINS[kind] and n not in _LOCAL[kind])
    return own + local + others if builtins_first else local + others + own


def registered(kind: Kind) -> dict[str, str]:
    """Every registered name of *kind* → its ``"module:factory"`` target (ambiguous names are left out)."""
    return {name: next(iter(targets)) for name, targets in sorted(_candidates(_check_kind(kind)).items()) if len(targets) == 1}


def resolve(kind: Kind, name: str) -> str:
    """The ``"module:factory"`` target of *name* (a registered name, or a target written out)."""
    kind = _check_kind(kind)
    if not isinstance(name, str) or not name.strip():
        raise PluginError(f"{kind}={name!r} must be a registered name or package.module:factory")
    targets = _candidates(kind).get(name)
    if targets is not None:
        if len(targets) > 1:
            listed = ", ".join(f"{t!r} ({d})" for t, d in sorted(targets.items()))
            raise PluginError(f"{kind}={name!r} is registered more than once: {listed}; name one as package.module:factory")
        return next(iter(targets))
    if is_target(name):
        return name
    plural = {"agent": "agents", "edge_judge": "edge judges", "criterion_judge": "criterion judges"}.get(kind, f"{kind}s")
    raise PluginError(
        f"{kind}={name!r} is unknown; registered {plural}: {sorted(registered(kind))!r} "
        f"(or name a factory as package.module:factory, or register one in the entry-point group {GROUPS[kind]!r})"
    )


def load_factory(kind: Kind, name: str) -> Callable[..., object]:
    """Import the factory *name* stands for (:func:`resolve`); :class:`PluginError` when it cannot be loaded."""
    target = resolve(kind, name)
    local = _LOCAL[kind].get(name)
    if local is not None and _target_of(local) == target:
        return local
    module_name, _, attr = target.partition(":")
    try:
        obj: object = importlib.import_module(module_name)
    except ImportError as exc:
        raise PluginError(f"{kind}={name!r}: module {module_name!r} cannot be imported: {exc}") from exc
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # the module's own code failed (SyntaxError, ValueError, sys.exit ...): bad input, named
        if module_name.startswith("causalcheck."):
            raise
        raise PluginError(f"{kind}={name!r}: importing module {module_name!r} raised {type(exc).__name__}: {exc}") from exc
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise PluginError(f"{kind}={name!r}: {module_name}:{attr} does not exist (no attribute {part!r})") from None
    if not callable(obj):
        raise PluginError(f"{kind}={name!r}: {target} is a {type(obj).__name__}, not a factory (a class or function)")
    return obj


def _members(protocol: type) -> tuple[list[tuple[str, list[str], bool]], list[str]]:
    """The protocol's methods ``(name, parameter names after self, is async)`` and data attributes."""
    import inspect

    methods: list[tuple[str, list[str], bool]] = []
    attributes: list[str] = []
    for name, value in vars(protocol).items():
        if name.startswith("_"):
            continue
        if isinstance(value, property):
            attributes.append(name)
        elif inspect.isfunction(value):
            params = list(inspect.signature(value).parameters)[1:]
            methods.append((name, params, inspect.iscoroutinefunction(value)))
    for name in getattr(protocol, "__annotations__", {}):
        if not name.startswith("_") and name not in attributes:
            attributes.append(name)
    return methods, attributes


def protocol_problems(obj: object, kind: Kind) -> list[str]:
    """What keeps *obj* from satisfying the protocol of *kind* (empty when it fits; see the module docstring)."""
    import inspect

    protocol = _protocol(_check_kind(kind))
    methods, attributes = _members(protocol)
    problems: list[str] = []
    for name in attributes:
        try:
            inspect.getattr_static(obj, name)
        except AttributeError:
            problems.append(f"missing attribute {name}")
    for name, params, is_async in methods:
        call = f"{name}({', '.join(params)})"
        try:
            inspect.getattr_static(obj, name)
        except AttributeError:
            problems.append(f"missing method {call}")
            continue
        member = getattr(obj, name, None)
        if not callable(member):
            problems.append(f"{name} is a {type(member).__name__}, not a method {call}")
            continue
        try:
            signature = inspect.signature(member)
        except (TypeError, ValueError):  # a builtin without a signature: trust it
            continue
        try:
            signature.bind(*params)
        except TypeError as exc:
            problems.append(f"{name}() cannot be called as {call}: {exc}")
        if inspect.iscoroutinefunction(member) and not is_async:
            problems.append(f"{name}() is a coroutine function; the {protocol.__name__} protocol calls it synchronously")
        elif is_async and not inspect.iscoroutinefunction(member):
            problems.append(f"{name}() must be async: the {protocol.__name__} protocol awaits it")
    return problems


def check_plugin(obj: object, kind: Kind, name: str = "") -> None:
    """Raise :class:`PluginError` when *obj* does not satisfy the protocol of *kind* (naming what is wrong)."""
    problems = protocol_problems(obj, kind)
    if problems:
        protocol = _protocol(kind)
        what = f"{kind}={name!r} made" if name else "the object is"
        raise PluginError(
            f"{what} a {type(obj).__name__} that does not satisfy the {protocol.__name__} protocol "
            f"({protocol.__module__}.{protocol.__qualname__}): " + "; ".join(problems)
        )


@overload
def create(kind: Literal["agent"], name: str, **kwargs: Any) -> Agent: ...
@overload
def create(kind: Literal["edge_judge"], name: str, **kwargs: Any) -> EdgeJudge: ...
@overload
def create(kind: Literal["criterion_judge"], name: str, **kwargs: Any) -> CriterionJudge: ...
@overload
def create(kind: Literal["parser"], name: str, **kwargs: Any) -> AnswerParser: ...
@overload
def create(kind: Literal["segmenter"], name: str, **kwargs: Any) -> Segmenter: ...
@overload
def create(kind: Literal["judge_backend"], name: str, **kwargs: Any) -> JudgeBackend: ...
@overload
def create(kind: Literal["llm_provider"], name: str, **kwargs: Any) -> LLM: ...
def create(kind: Kind, name: str, **kwargs: Any) -> object:
    """Load the factory of *name*, call it with *kwargs* and check what it returns against the protocol.

    ``TypeError`` from the call means the factory does not take those keyword arguments; any other
    failure of a factory that is not causalcheck's own is reported as a :class:`PluginError`
    (the original exception is chained).
    """
    _protocol(_check_kind(kind))  # a command has none: it is registered, not created
    factory = load_factory(kind, name)
    target = resolve(kind, name)
    check_options(factory, kwargs, f"{kind}={name!r}")
    try:
        obj = factory(**kwargs)
    except TypeError as exc:
        raise PluginError(f"{kind}={name!r} does not accept options={kwargs!r}: {exc}") from None
    except (CausalCheckError, KeyboardInterrupt):
        raise
    except BaseException as exc:  # SystemExit too: a factory ends its call, not the process
        if target.startswith("causalcheck."):
            raise
        raise PluginError(f"{kind}={name!r}: the factory {target} raised {type(exc).__name__}: {exc}") from exc
    check_plugin(obj, kind, name)
    return obj


class PluginOptionError(PluginError):
    """An option given to a plug-in's factory is not one it takes, or not of the type it declares."""


def _fits(value: Any, hint: Any) -> bool:
    """Whether *value* (decoded JSON or TOML) is of the type *hint*; types this cannot judge fit."""
    origin = typing.get_origin(hint)
    if hint is Any or isinstance(hint, typing.TypeVar):
        return True
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, h) for h in typing.get_args(hint))
    if origin is Literal:
        return any(value == v and type(value) is type(v) for v in typing.get_args(hint))
    if hint is type(None) or hint is None:
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:  # an int is a float (PEP 484); nan and inf are no option's value
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if hint is str:
        return isinstance(value, str)
    if origin is not None:
        hint = origin
    if isinstance(hint, type) and hint.__module__ in ("builtins", "collections.abc"):
        return isinstance(value, hint)
    return True  # a class of the plug-in's own (an LLM client object): its factory checks it


def _describe(hint: Any) -> str:
    """*hint* in words for a message: ``a finite number``, ``an integer or null``, …"""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return " or ".join(_describe(h) for h in typing.get_args(hint))
    if typing.get_origin(hint) is Literal:
        return "one of " + ", ".join(repr(v) for v in typing.get_args(hint))
    words = {bool: "true or false", int: "an integer", float: "a finite number", str: "a string", type(None): "null"}
    return words.get(hint, getattr(hint, "__name__", str(hint)))


def check_options(factory: Callable[..., Any], options: Mapping[str, Any], what: str) -> None:
    """Check *options* against the keyword parameters *factory* declares, before it is called.

    An option the factory does not take (unless it takes ``**kwargs``), and a value that is not
    of the parameter's annotated type (``bool``, ``int``, ``float`` — finite —, ``str``, ``None``,
    ``Literal``, unions of these; other annotations are left to the factory), is a
    :class:`PluginOptionError` (a :class:`PluginError`) naming the option and its value.  Ranges are
    the factory's own checks.

    >>> def make(seed: int = 0, *, alpha: float = 0.05, rounds: int | None = None): ...
    >>> check_options(make, {"alpha": 0.1, "rounds": None}, "agent='x'")
    >>> check_options(make, {"rounds": 1.5}, "agent='x'")
    Traceback (most recent call last):
    ...
    causalcheck.plugins.PluginOptionError: agent='x': option rounds=1.5 must be an integer or null
    """
    import inspect

    try:
        sig = inspect.signature(factory)
        hints = typing.get_type_hints(factory.__init__ if inspect.isclass(factory) else factory)
    except (TypeError, ValueError, NameError, AttributeError):  # builtins, unresolvable annotations
        return
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in sig.parameters.values())
    for key, value in options.items():
        param = sig.parameters.get(key)
        if param is None or param.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.VAR_POSITIONAL):
            if takes_any:
                continue
            known = sorted(k for k, p in sig.parameters.items() if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD))
            raise PluginOptionError(f"{what}: option {key}={value!r} is not one it takes; its options: {', '.join(known) or 'none'}")
        hint = hints.get(key)
        if hint is not None and not _fits(value, hint):
            raise PluginOptionError(f"{what}: option {key}={value!r} must be {_describe(hint)}")


class Registry(Mapping[str, str]):
    """The registered names of one kind as a read-only mapping name → ``"module:factory"``.

    ``name in registry`` is also true for any name written as ``package.module:factory`` (it is
    looked up when used); iteration gives the registered names, sorted.
    (:data:`causalcheck.lab.agents.AGENTS` is ``Registry("agent")``.)
    """

    def __init__(self, kind: Kind) -> None:
        self.kind = _check_kind(kind)

    def __getitem__(self, name: str) -> str:
        try:
            return resolve(self.kind, name)
        except PluginError:
            raise KeyError(name) from None

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in _candidates(self.kind) or is_target(name))

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(registered(self.kind)))

    def __len__(self) -> int:
        return len(registered(self.kind))

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}: {registered(self.kind)!r})"
