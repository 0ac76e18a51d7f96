"""The compiled twin's contract: the kernels every game provides, found by config type.

A game's twin describes itself with a config: a ``namedtuple`` class of its own whose
instance holds the game's numbers (player count, offsets into the state row, tables as
arrays). The generic functions below (``init_state``, ``apply_action`` ...) are called by
the game-independent runner; numba picks the game's kernel from the config's class at
compile time, so one runner serves every game and each game still compiles (and caches)
on its own. Every config has the fields ``num_players``, ``num_actions``, ``obs_size``
and ``row_size``.

A state is one int32 row (one per env in a batch); ``s`` below. Kernels, by name:

    init_state(cfg, s)                 write a fresh game (before its first chance event)
    current_player(cfg, s) -> int      a seat, CHANCE or TERMINAL
    legal_mask(cfg, s, mask)           int8[num_actions], 1 where legal
    apply_action(cfg, s, a)            a legal action of the deciding seat
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

from numba.extending import overload

CHANCE = -1
TERMINAL = -2
KERNELS = (
    "init_state",
    "current_player",
    "legal_mask",
    "apply_action",
    "sample_chance",
    "apply_chance",
    "observe",
    "scores",
    "returns",
    "heuristic_action",
)
_REGISTRY: dict[type, dict[str, object]] = {}


def register_twin(config_class: type, *modules: object) -> None:
    """Bind a game's kernels, found by name in its twin modules, to its config class (once,
    when its twin module loads)."""
    kernels = {}
    for name in KERNELS:
        found = [  # defined there, not imported
            getattr(m, name)
            for m in modules
            if getattr(getattr(m, name, None), "__module__", None) == m.__name__
        ]
        if len(found) != 1:
            raise TypeError(f"twin kernel {name!r} is defined in {len(found)} of the modules")
        kernels[name] = found[0]
    _REGISTRY[config_class] = kernels


def _kernel_for(cfg, name: str):
    cls = getattr(cfg, "instance_class", None)
    if cls not in _REGISTRY:
        raise TypeError(f"no compiled twin is registered for config {cfg}")
    return _REGISTRY[cls][name]


def _stub(name: str):
    def generic(*args):
        raise NotImplementedError(f"{name} runs inside compiled kernels only")

    generic.__name__ = generic.__qualname__ = name
    return generic


init_state = _stub("init_state")
current_player = _stub("current_player")
legal_mask = _stub("legal_mask")
apply_action = _stub("apply_action")
sample_chance = _stub("sample_chance")
apply_chance = _stub("apply_chance")
observe = _stub("observe")
scores = _stub("scores")
returns = _stub("returns")
heuristic_action = _stub("heuristic_action")


# numba resolves each generic call to the game's kernel when it compiles a caller.
@overload(init_state)
def _init_state(cfg, s):
    fn = _kernel_for(cfg, "init_state")
    return lambda cfg, s: fn(cfg, s)


@overload(current_player)
def _current_player(cfg, s):
    fn = _kernel_for(cfg, "current_player")
    return lambda cfg, s: fn(cfg, s)


@overload(legal_mask)
def _legal_mask(cfg, s, mask):
    fn = _kernel_for(cfg, "legal_mask")
    return lambda cfg, s, mask: fn(cfg, s, mask)


@overload(apply_action)
def _apply_action(cfg, s, a):
    fn = _kernel_for(cfg, "apply_action")
    return lambda cfg, s, a: fn(cfg, s, a)


@overload(sample_chance)
def _sample_chance(cfg, s, u):
    fn = _kernel_for(cfg, "sample_chance")
    return lambda cfg, s, u: fn(cfg, s, u)


@overload(apply_chance)
def _apply_chance(cfg, s, outcome):
    fn = _kernel_for(cfg, "apply_chance")
    return lambda cfg, s, outcome: fn(cfg, s, outcome)


@overload(observe)
def _observe(cfg, s, seat, obs):
    fn = _kernel_for(cfg, "observe")
    return lambda cfg, s, seat, obs: fn(cfg, s, seat, obs)


@overload(scores)
def _scores(cfg, s, out):
    fn = _kernel_for(cfg, "scores")
    return lambda cfg, s, out: fn(cfg, s, out)


@overload(returns)
def _returns(cfg, s, out):
    fn = _kernel_for(cfg, "returns")
    return lambda cfg, s, out: fn(cfg, s, out)


@overload(heuristic_action)
def _heuristic_action(cfg, s, seat, obs, mask):
    fn = _kernel_for(cfg, "heuristic_action")
    return lambda cfg, s, seat, obs, mask: fn(cfg, s, seat, obs, mask)
