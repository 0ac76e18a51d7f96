"""The compiled twin's contract: the kernels every game provides, found by config type.

A game's twin describes itself with a config: a ``namedtuple`` class of its own whose
instance holds the game's numbers (player count, offsets into the state row, tables as
arrays). The generic functions below (``init_state``, ``apply_action`` ...) are called by
the game-independent runner; numba picks the game's kernel from the config's class at
compile time, so one runner serves every game and each game still compiles (and caches)
on its own. Every config has the fields ``num_players``, ``num_actions``, ``obs_size``
and ``row_size``.

A game's own code that needs one of these kernels (a heuristic that tries a move, say)
calls it through this module too: numba compiles the kernel in the generic's place, and a
direct call would compile it a second time.

A state is one int32 row (one per env in a batch); ``s`` below. Kernels, by name:

    init_state(cfg, s)                 write a fresh game (before its first chance event)
    current_player(cfg, s) -> int      a seat, CHANCE or TERMINAL
    legal_mask(cfg, s, mask)           int8[num_actions], 1 where legal
    apply_action(cfg, s, action)       a legal action of the deciding seat
    sample_chance(cfg, s, u) -> int    the outcome of the pending event for uniform u,
                                       the same draw as the reference's sample_chance
    apply_chance(cfg, s, outcome)
    observe(cfg, s, seat, obs)         float32[obs_size], the reference's observe
    scores(cfg, s, out)                float64[num_players], the reference's scores
    returns(cfg, s, out)               float64[num_players]: +1 sole win, 0 shared or
                                       nobody, -1 loss; 0 for all before the end
    heuristic_action(cfg, s, seat, obs, mask) -> int
                                       the reference heuristic's choice; ``obs`` and
                                       ``mask`` are that seat's, already filled
"""

from __future__ import annotations

import inspect

from numba.extending import overload

from jungle_envs.core.compiled.jit import KERNEL_OPTIONS

CHANCE = -1
TERMINAL = -2
# The one list of kernels: name -> parameters. The generic functions and numba's
# resolution of each to a game's kernel are made from it below; ``calls`` has one cached
# entry point per name (numba caches only functions written in a source file), checked
# against this list by the tests.
SIGNATURES: dict[str, tuple[str, ...]] = {
    "init_state": ("cfg", "s"),
    "current_player": ("cfg", "s"),
    "legal_mask": ("cfg", "s", "mask"),
    "apply_action": ("cfg", "s", "action"),
    "sample_chance": ("cfg", "s", "u"),
    "apply_chance": ("cfg", "s", "outcome"),
    "observe": ("cfg", "s", "seat", "obs"),
    "scores": ("cfg", "s", "out"),
    "returns": ("cfg", "s", "out"),
    "heuristic_action": ("cfg", "s", "seat", "obs", "mask"),
}
KERNELS = tuple(SIGNATURES)
_REGISTRY: dict[type, dict[str, object]] = {}


def register_twin(config_class: type, **kernels: object) -> None:
    """Bind a game's kernels to its config class (once, when its twin loads): one keyword
    per name of ``KERNELS``, e.g. ``register_twin(Config, init_state=rules.init_state, ...)``."""
    missing = sorted(set(KERNELS) - set(kernels))
    unknown = sorted(set(kernels) - set(KERNELS))
    if missing or unknown:
        raise TypeError(f"register_twin: missing kernels {missing}, unknown {unknown}")
    for name, fn in kernels.items():  # numba compiles the kernel's Python function in place
        params = tuple(inspect.signature(getattr(fn, "py_func", fn)).parameters)
        if params != SIGNATURES[name]:
            raise TypeError(f"register_twin: {name} must take {SIGNATURES[name]}, not {params}")
    _REGISTRY[config_class] = dict(kernels)


def _kernel_for(cfg, name: str):
    cls = getattr(cfg, "instance_class", None)
    if cls not in _REGISTRY:
        raise TypeError(f"no compiled twin is registered for config {cfg}")
    return _REGISTRY[cls][name]


def _generic(name: str, params: tuple[str, ...]):
    """The generic ``name``: callable only inside kernels, where numba compiles in its
    place, for the config's class, the Python function of the kernel registered for it.
    Not the kernel itself behind a wrapper: each compiled function is a library that is
    optimised and turned into machine code again with everything it calls, so a wrapper
    level (and the kernel's own Python entry point) cost a third of the first compile."""
    args = ", ".join(params)
    namespace: dict[str, object] = {
        "__name__": __name__,
        "_kernel_for": _kernel_for,
        "overload": overload,
        "KERNEL_OPTIONS": KERNEL_OPTIONS,
    }
    # Every generic gets a name of its own: numba names compiled code by qualified name,
    # and two cached implementations of one name loaded into one process were linked as one.
    exec(
        f"def {name}({args}):\n"
        f"    raise NotImplementedError('{name} runs inside compiled kernels only')\n"
        f"@overload({name}, jit_options=KERNEL_OPTIONS)\n"
        f"def resolve_{name}({args}):\n"
        f"    return _kernel_for(cfg, '{name}').py_func\n",
        namespace,
    )
    generic = namespace[name]
    generic.__module__ = __name__
    return generic


for _name, _params in SIGNATURES.items():
    globals()[_name] = _generic(_name, _params)
del _name, _params
