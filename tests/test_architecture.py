"""The package's shape: layers in the README's order, public names only across layers, no private back doors,
no cycles, a fast import.

These tests read the source of every module under gametrees/ (with ``ast``) and
start fresh interpreters, so they check what a newcomer or a learner meets:
``import gametrees`` and ``python -m gametrees --help`` must not load matplotlib
or ipywidgets, no module may import another module's ``_private`` names, and the
module-level imports form no cycle.
"""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "gametrees"
HEAVY = ("matplotlib", "ipywidgets", "PIL", "nbformat", "nbgrader")


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


MODULES = dict(_modules())


def _resolve(module, node):
    """The absolute module a ``from ... import`` in ``module`` refers to."""
    if node.level == 0:
        return node.module or ""
    package = module.split(".")
    is_package = MODULES[module].name == "__init__.py"
    base = package if is_package else package[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module, top_level_only):
    """(target module, imported name or None, line) for each import in ``module``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            target = _resolve(module, node)
            for alias in node.names:
                yield target, alias.name, node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, node.lineno


def test_no_module_imports_another_modules_private_names():
    offences = []
    for module in MODULES:
        for target, name, line in _imports(module, top_level_only=False):
            if not target.startswith("gametrees") or name is None:
                continue
            if name.startswith("_") and not name.startswith("__"):
                offences.append(f"{module}:{line} imports {name} from {target}")
    assert offences == [], "\n".join(offences)


@pytest.mark.slow
def test_no_module_reaches_into_a_private_attribute_of_another_module():
    offences = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {}
        for target, name, _ in _imports(module, top_level_only=False):
            if target.startswith("gametrees"):
                if name is None:
                    aliases[target.split(".")[0]] = target
                elif f"{target}.{name}" in MODULES:
                    aliases[name] = f"{target}.{name}"
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                offences.append(f"{module}:{node.lineno} uses {aliases[node.value.id]}.{node.attr}")
    assert offences == [], "\n".join(offences)


def test_module_level_imports_have_no_cycle():
    graph = {}
    for module in MODULES:
        targets = set()
        for target, name, _ in _imports(module, top_level_only=True):
            if target in MODULES:
                targets.add(target)
            if name and f"{target}.{name}" in MODULES:
                targets.add(f"{target}.{name}")
        # A package's __init__ is run before its submodules: importing a.b imports a.
        graph[module] = {t for t in targets if t != module}
    state, path = {}, []

    def visit(m):
        state[m] = "open"
        path.append(m)
        for t in sorted(graph[m]):
            if m.startswith(t + "."):
                continue  # a submodule importing its own package's names
            if state.get(t) == "open":
                cycle = path[path.index(t):] + [t]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if t not in state:
                visit(t)
        path.pop()
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_every_module_says_what_it_holds():
    missing = [m for m, p in MODULES.items()
               if not ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")))]
    assert missing == []


def test_no_module_is_longer_than_a_reader_can_hold():
    sizes = {m: len(p.read_text(encoding="utf-8").splitlines()) for m, p in MODULES.items()}
    too_long = {m: n for m, n in sizes.items() if n > 1200}
    assert too_long == {}


def test_no_module_name_shadows_a_public_name_of_its_package():
    """``gametrees.draw`` must stay the function, whatever was imported before.

    A module ``pkg/x.py`` next to a function ``pkg.x`` makes ``pkg.x`` the
    function or the module depending on what was imported first.
    """
    import importlib

    shadowed = []
    for module in MODULES:
        mod = importlib.import_module(module)
        parent, _, leaf = module.rpartition(".")
        if parent and getattr(sys.modules[parent], leaf) is not mod:
            shadowed.append(f"{module} vs {parent}.{leaf} = {getattr(sys.modules[parent], leaf)!r}")
    assert shadowed == []


def _fresh(code):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.slow
@pytest.mark.parametrize("heavy", HEAVY)
def test_import_gametrees_loads_no_drawing_or_widget_library(heavy):
    loaded = _fresh(f"import sys, gametrees; print({heavy!r} in sys.modules)")
    assert loaded.strip() == "False"


@pytest.mark.slow
def test_the_command_line_help_starts_without_drawing_or_widgets():
    code = ("import sys, runpy\n"
            "sys.argv = ['gametrees', '--help']\n"
            "try:\n    runpy.run_module('gametrees', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))")
    assert _fresh(code).strip().splitlines()[-1] == "[]"


@pytest.mark.slow
def test_drawing_and_widgets_load_on_first_use():
    code = ("import sys, gametrees as gt\n"
            "assert 'matplotlib' not in sys.modules\n"
            "import gametrees.drawing\n"
            "print(callable(gt.draw), callable(gt.replay), callable(gt.practice), callable(gt.export),"
            " 'matplotlib' in sys.modules)")
    assert _fresh(code).strip() == "True True True True True"


# ----------------------------------------------------------------------------
# Layers: the README's package table states the order; a layer imports only layers above it,
# and from another layer only the names that layer makes public (__all__).
# ----------------------------------------------------------------------------

README = PACKAGE.parent / "README.md"
# Modules that gather the layers for a caller and are in no row: the package itself, ``python -m
# gametrees`` and the notebooks' façade of the classroom. Nothing in a layer imports them at module level.
FACADES = {"gametrees", "gametrees.__main__", "gametrees.assignments"}


def _layers():
    """The README's package table: a list of rows, each the set of top-level names it holds."""
    text = README.read_text(encoding="utf-8")
    table = text.split("| module | what it holds |", 1)[1].split("\n\n", 1)[0]
    rows = []
    for line in table.strip().splitlines()[1:]:  # the first line is | --- | --- |
        first = line.split("|")[1]
        rows.append({name.rstrip("/").removesuffix(".py") for name in re.findall(r"`([^`]+)`", first)})
    return rows


LAYERS = _layers()


def _layer(module):
    """The row of ``module`` in the table (None for the façades)."""
    parts = module.split(".")
    if len(parts) < 2:
        return None
    return next((i for i, row in enumerate(LAYERS) if parts[1] in row), None)


def _target(module, name):
    """The module an import refers to: ``from a import b`` imports module a.b when there is one."""
    return f"{module}.{name}" if name and f"{module}.{name}" in MODULES else module


def test_the_readme_table_places_every_module():
    assert len(LAYERS) > 5 and all(LAYERS)
    unplaced = {m for m in MODULES if _layer(m) is None}
    assert unplaced == FACADES, (
        "add a row to the README's package table for " + ", ".join(sorted(unplaced - FACADES))
    )


def test_each_layer_imports_only_the_layers_above_it_in_the_readme_table():
    offences = []
    for module in MODULES:
        mine = _layer(module)
        if mine is None:
            continue
        for target, name, line in _imports(module, top_level_only=False):
            if not target.startswith("gametrees"):
                continue
            target = _target(target, name)
            theirs = _layer(target)
            if theirs is None:
                # the façade, imported inside a function for what loads on first use (gt.draw): not a layer
                if any(_target(t, n) == target and ln == line for t, n, ln in _imports(module, True)):
                    offences.append(f"{module}:{line} imports the façade {target} at module level")
                continue
            if theirs > mine:
                offences.append(f"{module}:{line} ({sorted(LAYERS[mine])}) imports {target} "
                                f"({sorted(LAYERS[theirs])}), a layer below it in the README's table")
    assert offences == [], "\n".join(offences)


def _package(module):
    return module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]


def _public(target):
    """The names ``target`` may give another layer: its own ``__all__`` and that of every package that holds
    it, up to the layer's top (a layer that is one module: that module's ``__all__``)."""
    import importlib

    names = set(getattr(importlib.import_module(target), "__all__", ()))
    package = _package(target)
    while package.count(".") >= 1:
        names |= set(getattr(importlib.import_module(package), "__all__", ()))
        package = package.rpartition(".")[0]
    return names


def test_a_layer_imports_from_another_only_names_in_its_all():
    offences = []
    for module in MODULES:
        mine = _layer(module)
        if mine is None:
            continue  # the façades gather what they publish
        for target, name, line in _imports(module, top_level_only=False):
            if not target.startswith("gametrees") or name is None or f"{target}.{name}" in MODULES:
                continue
            theirs = _layer(target)
            if theirs is None or theirs == mine:
                continue
            if name not in _public(target):
                offences.append(f"{module}:{line} imports {name} from {target}, which is not in its __all__")
    assert offences == [], "\n".join(offences)


# Known exceptions to the test below, each with why it is still there (none; the test fails while an entry
# is no longer needed).
FACADE_REACHES_KNOWN = {}


def _facade_reaches():
    """``{module: [line, ...]}``: imports, inside a function, of the package's façade for a name that is not
    a module of it (``import gametrees`` then ``gametrees.draw``, ``from .. import draw``): a way round the
    layers, to what the façade loads from the layers below."""
    reaches = {}
    for module in MODULES:
        if _layer(module) is None:
            continue
        top = {line for _, _, line in _imports(module, top_level_only=True)}
        for target, name, line in _imports(module, top_level_only=False):
            if line in top or _layer(_target(target, name)) is not None or not target.startswith("gametrees"):
                continue
            if name in ("__version__",):  # data of the package, not a layer
                continue
            reaches.setdefault(module, []).append(line)
    return reaches


def test_no_function_reaches_past_the_layers_through_the_package():
    reaches = _facade_reaches()
    offences = [f"{module}:{line} imports the package gametrees inside a function (to reach a lower layer)"
                for module, lines in sorted(reaches.items()) for line in lines
                if module not in FACADE_REACHES_KNOWN]
    assert offences == [], "\n".join(offences)
    stale = sorted(set(FACADE_REACHES_KNOWN) - set(reaches))
    assert stale == [], f"fixed: remove {stale} from FACADE_REACHES_KNOWN"
