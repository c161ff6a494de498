"""No module of Gamut imports itself back, even for type checking only.

Each module's imports (``TYPE_CHECKING`` blocks and imports inside functions included)
are read from its source; a module importing ``package.name`` depends on that module
if it is one, else on the package. A cycle of such dependencies fails the test.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PACKAGES = {
    "gamut_engine": "engine",
    "gamut_protocol": "protocol",
    "gamut_server": "server",
    "gamut_client": "client",
}
"""Each package and the folder that holds it."""


def modules() -> dict[str, Path]:
    """Every module of the four packages, by dotted name (a package by its own name)."""
    found = {}
    for package, folder in PACKAGES.items():
        for path in (ROOT / folder / package).rglob("*.py"):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imported(path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The modules of ``known`` that the source at ``path`` imports."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                yield submodule if submodule in known else node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def cycle_from(start: str, graph: dict[str, set[str]]) -> list[str] | None:
    """A path of imports from ``start`` back to ``start``, if there is one."""
    trail: list[str] = [start]
    seen: set[str] = set()

    def walk(module: str) -> bool:
        for target in sorted(graph[module]):
            if target == start:
                return True
            if target not in seen:
                seen.add(target)
                trail.append(target)
                if walk(target):
                    return True
                trail.pop()
        return False

    return [*trail, start] if walk(start) else None


def test_no_module_imports_itself_back() -> None:
    known = modules()
    graph = {
        name: {target for target in imported(path, known) if target in known and target != name}
        for name, path in known.items()
    }
    cycles = [cycle for name in sorted(graph) if (cycle := cycle_from(name, graph)) is not None]
    assert cycles == [], " → ".join(cycles[0]) if cycles else ""
