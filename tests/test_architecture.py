"""The package's layout holds: no import circle, layers that import only downwards, the
rules layer without Gymnasium, the same files in every game folder, one list of kernels.

Imports are read from the sources (every ``import``, also inside functions and under
``TYPE_CHECKING``), so a circle cannot hide behind a lazy import.
"""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import jungle_envs
from jungle_envs.core.registry import ENTRIES, GAMES

PACKAGE_DIR = Path(jungle_envs.__file__).parent
ROOT = PACKAGE_DIR.parent


def package_modules() -> dict[str, Path]:
    modules = {}
    for path in PACKAGE_DIR.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package modules that ``name`` imports anywhere in its source."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                package = package[: len(package) - node.level + 1]
                base = ".".join(package + ([base] if base else []))
            # ``from package import module`` imports the module, ``import name`` the package
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target not in modules and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in modules and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = package_modules()
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_circle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_in_the_package():
    assert circles(import_graph()) == []


# What each layer may not import, at any depth of its source (lazy imports included).
HIGHER_THAN_CORE = (
    "jungle_envs.games",
    "jungle_envs.agents",
    "jungle_envs.search",
    "jungle_envs.rllib",
    "jungle_envs.sb3",
    "jungle_envs.maskable_ppo",
    "jungle_envs.multiagent",
    "jungle_envs.evaluation",
    "jungle_envs.play",
    "jungle_envs.process_vector_env",
)


def test_the_core_imports_nothing_above_it():
    graph = import_graph()
    upward = {
        (module, target)
        for module, targets in graph.items()
        if module.startswith("jungle_envs.core")
        for target in targets
        if target.startswith(HIGHER_THAN_CORE)
    }
    assert upward == set()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_folder_imports_its_game_module_only_from_its_init(name):
    graph, package = import_graph(), GAMES[name]
    importers = {m for m, targets in graph.items() if f"{package}.game" in targets}
    assert importers <= {package}
    others = {p for p in GAMES.values() if p != package}
    crossing = {
        (m, t)
        for m, targets in graph.items()
        if m.startswith(package)
        for t in targets
        if t.startswith(tuple(others))
    }
    assert crossing == set()


RULES_LAYER = ("config", "state", "rules", "encoding", "render", "heuristic", "tables", "game")


def test_the_rules_layer_imports_and_plays_without_gymnasium():
    modules = [f"{package}.{m}" for package in GAMES.values() for m in RULES_LAYER]
    script = (
        "import sys\n"
        "sys.modules['gymnasium'] = None\n"
        "import importlib\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "import numpy as np\n"
        "import jungle_envs\n"
        "from jungle_envs.core.random_play import play_randomly\n"
        f"for name in {sorted(GAMES)!r}:\n"
        "    game = jungle_envs.make_game(name)\n"
        "    state = play_randomly(game, game.new_state(), np.random.default_rng(0))\n"
        "    assert game.is_terminal(state), name\n"
        "    game.observe(state, 0); game.render(state)\n"
        "assert 'gymnasium.spaces' not in sys.modules\n"
        "print('played', len(jungle_envs.ENV_IDS))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "played 4"


def test_the_rules_check_fails_when_a_rules_module_needs_gymnasium():
    script = "import sys\nsys.modules['gymnasium'] = None\nimport jungle_envs.core.env\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, cwd=ROOT)
    assert done.returncode != 0


# Every game folder has these files; each compiled/ file mirrors the reference file of
# the same name.
GAME_FILES = {"__init__", "config", "encoding", "env", "game", "heuristic", "image"}
GAME_FILES |= {"render", "rules", "state", "tables"}
COMPILED_FILES = {"__init__", "state", "rules", "encoding", "heuristic"}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_folder_has_the_same_files(name):
    folder = PACKAGE_DIR / "games" / GAMES[name].rsplit(".", 1)[1]
    assert {p.stem for p in folder.glob("*.py")} == GAME_FILES
    compiled = {p.stem for p in (folder / "compiled").glob("*.py")}
    assert compiled >= COMPILED_FILES
    for extra in compiled - COMPILED_FILES:  # a split file says what it mirrors
        docstring = ast.get_docstring(ast.parse((folder / "compiled" / f"{extra}.py").read_text()))
        assert docstring and "mirrors" in docstring.split("\n\n")[0], extra


def test_one_list_of_kernels_and_an_entry_point_for_each():
    from jungle_envs.core.compiled import calls, contract
    from jungle_envs.core.compiled.twin import Twin

    for name, params in contract.SIGNATURES.items():
        entry = getattr(calls, name)
        assert tuple(inspect.signature(entry.py_func).parameters) == params, name
        generic = getattr(contract, name)
        assert tuple(inspect.signature(generic).parameters) == params, name
        assert name == "init_state" or callable(getattr(Twin, name)), name


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_registers_each_kernel_with_the_listed_parameters(name):
    from jungle_envs.core.compiled import contract

    game = jungle_envs.make_game(name)
    cfg = game.compiled_twin().make_twin_config(game.config)
    registered = contract._REGISTRY[type(cfg)]
    assert set(registered) == set(contract.KERNELS)
    for kernel, params in contract.SIGNATURES.items():
        found = inspect.signature(registered[kernel].py_func).parameters
        assert tuple(found) == params, (name, kernel)  # compiled in the generic's place


def test_the_registry_names_every_game_explicitly():
    for name, entry in ENTRIES.items():
        assert entry.game.endswith(f":{name}")
        assert entry.env.endswith(f":{name}Env")
        assert jungle_envs.game_class(name).spec.env_name == name


def test_the_renamed_vector_module_still_imports_with_a_deprecation_warning():
    script = (
        "import warnings\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    from jungle_envs.vector import BatchedVectorEnv\n"
        "from jungle_envs.process_vector_env import BatchedVectorEnv as Moved\n"
        "assert BatchedVectorEnv is Moved\n"
        "print([str(w.message) for w in caught if w.category is DeprecationWarning])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "jungle_envs.process_vector_env" in done.stdout
