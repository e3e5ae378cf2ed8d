"""Compiles the rules engine's deadwood search with mypyc when it can (issue 26).

`scoring/rules/cards.py` and `scoring/rules/deadwood.py` are plain, type-annotated Python;
mypyc (from the mypy project, a build requirement in pyproject.toml) turns them into one C
extension, which Python imports in place of the .py files. Everything else is in
pyproject.toml; `pip install -e .` builds the extension into the source tree.

The install never depends on the compilation: if mypyc or the C compiler fails, a warning
says so and the pure-Python modules are used, giving the same answers, only slower. Set
GINCLUB_PURE_PYTHON=1 to skip compiling on purpose; it also removes an extension an
earlier install left in the source tree, so the pure modules are the ones imported.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
COMPILED = ["scoring/rules/cards.py", "scoring/rules/deadwood.py"]
GROUP = "scoring.rules._compiled"  # the shared library: scoring/rules/_compiled__mypyc.*.so


def compiled_files() -> list[Path]:
    """The extension files a compiled install leaves beside the sources."""
    folder = ROOT / "scoring" / "rules"
    names = [Path(module).stem for module in COMPILED] + [GROUP.rsplit(".", 1)[1] + "__mypyc"]
    return [path for name in names for path in folder.glob(f"{name}.*.so")] + [
        path for name in names for path in folder.glob(f"{name}.*.pyd")
    ]


def warn(message: str) -> None:
    print(f"\nginclub: {message}\n", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """build_ext that gives up quietly: on any failure no extension is kept, since a
    half-built one (a module without its shared library) would fail to import."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # the compiler missing, or failing: go on without
            for ext in self.extensions:  # where this build put them
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            for path in compiled_files():  # and beside the sources (an in-place build)
                path.unlink()
            reason = str(error)[:200]
            warn(f"compiling the rules engine failed ({reason}); it runs as pure Python.")


def extensions() -> list:
    if os.environ.get("GINCLUB_PURE_PYTHON", "") not in ("", "0"):
        for path in compiled_files():
            path.unlink()
        warn("GINCLUB_PURE_PYTHON is set: the rules engine runs as pure Python.")
        return []
    try:
        from mypyc.build import mypycify

        # The two modules are type-checked strictly enough to compile; the rest of the
        # engine, which mypy reads for their imports, is not held to that.
        return mypycify(["--follow-imports=silent", *COMPILED], group_name=GROUP)
    except (Exception, SystemExit) as error:  # mypyc missing, or its type check failing
        warn(f"mypyc could not compile the rules engine ({error!r}); it runs as pure Python.")
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
