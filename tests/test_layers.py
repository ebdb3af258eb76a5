"""The package's layers: every module has one, imports only from its own layer and below, and no
modules import each other in a circle.

The layers are the numbered list under "Layers" in the docstring of ``minitorch/__init__.py``;
these tests read that list, so the docstring and the test cannot disagree. An entry ``name.*``
is a package and every module in it (so a new file in ``ops/``, ``nn/`` or ``optim/`` takes its
package's layer without an edit here); a plain ``name`` is that module alone. The most
specific entry wins. Every import counts, at the top of a file or inside a function: deferring
an import hides a circle from Python, not from the design. Only ``if TYPE_CHECKING:`` blocks
(never run) are left out, and so are ``importlib.import_module`` calls, which the package uses
for the lazy attributes of ``minitorch`` and ``minitorch.autograd`` (they load a higher layer
on first use, as an attribute, never as a dependency).
"""

from __future__ import annotations

import ast
import pathlib
import re

import minitorch

ROOT = pathlib.Path(minitorch.__file__).parent


def layers_from_docstring(doc: str) -> list[tuple[int, list[str]]]:
    """``[(1, ["_dtype", "_device", ...]), (2, [...]), ...]`` from the "Layers" section: each
    item is ``N. ``name``, ``name``, ...: what the layer is``."""
    section = doc.split("Layers\n------\n", 1)[1]
    items = re.split(r"^(\d+)\. ", section, flags=re.M)[1:]
    return [(int(number), re.findall(r"``([\w.*]+)``", text.split(": ", 1)[0]))
            for number, text in zip(items[::2], items[1::2])]


LAYERS = layers_from_docstring(minitorch.__doc__)


def layer_of(module: str, layers=LAYERS) -> int | None:
    """The layer of ``minitorch.x.y``: that of its own entry, or of the innermost ``pkg.*``
    entry that contains it; None when no entry names it."""
    name = module.removeprefix("minitorch.") if module != "minitorch" else "minitorch"
    best, best_len = None, -1
    for number, entries in layers:
        for entry in entries:
            package = entry.removesuffix(".*")
            exact = entry == name
            inside = entry.endswith(".*") and (name == package or name.startswith(package + "."))
            length = len(package) + (1 if exact else 0)  # an exact entry beats its package
            if (exact or inside) and length > best_len:
                best, best_len = number, length
    return best


def module_names() -> dict:
    """``{"minitorch.ops.shape": path, ...}`` for every module of the package."""
    names = {}
    for path in ROOT.rglob("*.py"):
        parts = ("minitorch",) + path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def imports_of(name: str, path: pathlib.Path, modules: dict) -> dict:
    """``{module: line}`` for the minitorch modules that ``name`` imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: dict = {}
    stack = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.setdefault(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.setdefault(sub if sub in modules else base, node.lineno)
        stack.extend(ast.iter_child_nodes(node))
    return {m: line for m, line in found.items() if m in modules and m != name}


def import_graph() -> dict:
    modules = module_names()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


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


def unranked(modules) -> list:
    return sorted(m for m in modules if layer_of(m) is None)


def upward_imports(graph: dict) -> list:
    """``"a (layer 3) imports b (layer 5), line 12"`` for every import of a higher layer."""
    wrong = []
    for module, imported in graph.items():
        mine = layer_of(module)
        for other, line in imported.items():
            theirs = layer_of(other)
            if mine is not None and theirs is not None and theirs > mine:
                wrong.append(f"{module} (layer {mine}) imports {other} (layer {theirs}), "
                             f"line {line}")
    return sorted(wrong)


# ---------------------------------------------------------------- the checks themselves
def test_the_docstring_lists_the_layers_in_order():
    assert [number for number, _ in LAYERS] == list(range(1, len(LAYERS) + 1))
    assert all(entries for _, entries in LAYERS)
    listed = [e for _, entries in LAYERS for e in entries]
    assert len(listed) == len(set(listed)), "a module is listed twice"


def test_every_module_has_a_layer():
    assert unranked(module_names()) == [], "add these to the Layers list in minitorch/__init__.py"


def test_no_module_imports_another_in_a_circle():
    cycle = find_cycle({m: set(imported) for m, imported in import_graph().items()})
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_every_import_goes_to_the_same_layer_or_below():
    wrong = upward_imports(import_graph())
    assert not wrong, "\n".join(wrong)


# ---------------------------------------------------------------- the checks can fail
def test_a_module_without_a_layer_is_reported():
    assert unranked(["minitorch.somewhere_new", "minitorch._tensor"]) == [
        "minitorch.somewhere_new"]


def test_a_new_file_in_a_package_gets_the_package_layer():
    assert layer_of("minitorch.ops.a_new_op") == layer_of("minitorch.ops.arithmetic") == 4
    assert layer_of("minitorch.nn.modules.a_new_layer") == layer_of("minitorch.nn") == 6
    assert layer_of("minitorch.optim.a_new_optimizer") == layer_of("minitorch.optim.sgd") == 7
    assert layer_of("minitorch.exercises.ch42_anything") == 9


def test_an_exact_entry_beats_its_package():
    layers = [(1, ["utils.threads"]), (7, ["utils.*"])]
    assert layer_of("minitorch.utils.threads", layers) == 1
    assert layer_of("minitorch.utils.data.dataset", layers) == 7
    assert layer_of("minitorch.utils.checkpoint") == layer_of("minitorch.utils") == 7


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_an_import_inside_a_function_counts_and_an_upward_one_is_reported(tmp_path):
    source = tmp_path / "mod.py"
    source.write_text("from typing import TYPE_CHECKING\n"
                      "from minitorch import _dtype\n"
                      "if TYPE_CHECKING:\n    from minitorch import _tensor\n"
                      "def f():\n    from minitorch.nn import functional\n")
    imported = imports_of("minitorch.ops.mod", source, module_names())
    assert imported == {"minitorch._dtype": 2, "minitorch.nn.functional": 6}
    assert upward_imports({"minitorch.ops.mod": imported}) == [
        "minitorch.ops.mod (layer 4) imports minitorch.nn.functional (layer 6), line 6"]
