"""The package's layers: no module imports another at load time in a circle.

The rule is written in ``minitorch/__init__.py`` ("Layers"). These tests read every module's
top-level imports with ``ast`` (imports inside functions run later, at call time, and are left
out, as are ``if TYPE_CHECKING:`` blocks), then check that the import graph has no cycle and
that the core modules only import from their own layer or the layers below.
"""

from __future__ import annotations

import ast
import pathlib

import minitorch

ROOT = pathlib.Path(minitorch.__file__).parent

# The core, bottom to top; a module may import its own layer and the layers below it.
CORE_LAYERS = [
    # ``ops`` is the bare package (its __init__ imports nothing): ``_tensor`` holds it and
    # reaches the operation modules through it at call time.
    ("base", ["_dtype", "_device", "_size", "_backend", "_random", "_tensor_str",
              "return_types", "ops"]),
    ("autograd", ["autograd.grad_mode", "autograd.function", "autograd.engine"]),
    ("tensor", ["_tensor"]),
    ("ops", ["ops._util", "ops.arithmetic", "ops.unary", "ops.reduction", "ops.shape",
             "ops.indexing", "ops.views", "ops.linalg", "ops.sorting", "_creation",
             # issue 26's operations
             "ops.compare", "ops.einsum", "ops.rounding", "ops.sampling", "ops.scan",
             "ops.scatter", "ops.triangular"]),
    ("tensor methods", ["_tensor_methods"]),
    ("nn", ["nn", "nn.functional", "nn.init", "nn.parameter", "nn.modules"]),
    ("optim and data", ["optim", "utils.data"]),
]


def module_names() -> dict:
    """``{"minitorch.ops.shape": path, ...}`` for every module of the package."""
    names = {}
    for path in ROOT.rglob("*.py"):
        parts = ("minitorch",) + path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def top_level_imports(name: str, path: pathlib.Path, modules: dict) -> set:
    """The minitorch modules that ``name`` imports when it is loaded."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    stack = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue  # runs at call time
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
        stack.extend(ast.iter_child_nodes(node))
    return {m for m in found if m in modules and m != name}


def import_graph() -> dict:
    modules = module_names()
    return {name: top_level_imports(name, path, modules) for name, path in modules.items()}


def find_cycle(graph: dict) -> list | None:
    """One import cycle as ``[a, b, ..., a]``, or None (iterative depth-first search)."""
    state = dict.fromkeys(graph, 0)  # 0 unseen, 1 on the current path, 2 done
    for start in sorted(graph):
        if state[start]:
            continue
        path, iters = [start], [iter(sorted(graph[start]))]
        state[start] = 1
        while path:
            nxt = next(iters[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                iters.pop()
            elif state[nxt] == 1:
                return path[path.index(nxt):] + [nxt]
            elif state[nxt] == 0:
                state[nxt] = 1
                path.append(nxt)
                iters.append(iter(sorted(graph[nxt])))
    return None


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_import_reader_skips_function_level_and_type_checking_imports(tmp_path):
    source = tmp_path / "mod.py"
    source.write_text("from typing import TYPE_CHECKING\n"
                      "from minitorch import _dtype\n"
                      "if TYPE_CHECKING:\n    from minitorch import _tensor\n"
                      "def f():\n    from minitorch.ops import shape\n")
    found = top_level_imports("minitorch.mod", source, module_names())
    assert found == {"minitorch._dtype"}


def test_the_ops_package_itself_imports_nothing():
    assert import_graph()["minitorch.ops"] == set()


def test_no_module_imports_another_in_a_circle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_core_modules_import_only_their_layer_and_the_layers_below():
    graph = import_graph()
    rank = {f"minitorch.{m}": i for i, (_, layer) in enumerate(CORE_LAYERS) for m in layer}

    def layer_of(module: str) -> int | None:
        while module:
            if module in rank:
                return rank[module]
            module = module.rpartition(".")[0]
        return None

    wrong = []
    for module, imported in graph.items():
        mine = layer_of(module)
        if mine is None:
            continue
        for other in imported:
            theirs = layer_of(other)
            if theirs is not None and theirs > mine:
                wrong.append(f"{module} ({CORE_LAYERS[mine][0]}) imports {other} "
                             f"({CORE_LAYERS[theirs][0]})")
    assert not wrong, "\n".join(sorted(wrong))
