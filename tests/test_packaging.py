"""The project as a user meets it: a wheel built from the source, installed into fresh virtual environments.

The wheel is built once, from a copy of the source tree (setuptools builds in the tree it is given, and a
``build/`` folder left there by an earlier build would put its stale files into the wheel). One environment
holds the wheel and its dependencies alone, the other the wheel with the ``demos`` extra. Every command
runs in a folder of its own, never the repository, so nothing is imported from the source folders by path.
What the package asks pip for on each Python is read from the installed distribution's metadata.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
SOURCE_FOLDERS = ("ecs", "components", "systems", "demos", "studies")
"""The repository's top folders, which install as subpackages of esper_motion and never at the top level."""
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "out", ".hypothesis")
"""What a copy of the source tree leaves out: version control, environments, earlier builds and outputs."""
ENVIRONMENT = {
    name: value
    for name, value in os.environ.items()
    if name not in {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "ARCADE_HEADLESS"}
}
"""The environment of every command: this one's, without what would point a new interpreter somewhere else."""


def _run(command: list[str | Path], *, cwd: Path, timeout: float = 120, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``command`` in ``cwd`` with :data:`ENVIRONMENT` plus ``env``; the caller checks how it ended."""
    return subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env={**ENVIRONMENT, **env},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _ok(done: subprocess.CompletedProcess[str]) -> str:
    """The standard output of a command that must have succeeded."""
    assert done.returncode == 0, f"{done.args} exited {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


class Venv:
    """A fresh virtual environment in ``folder``, with ``requirement`` (a wheel, maybe with extras) installed."""

    def __init__(self, folder: Path, requirement: str) -> None:
        self.folder = folder
        _ok(_run([sys.executable, "-m", "venv", folder], cwd=folder.parent))
        self.python = folder / "bin" / "python"
        install = [self.python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", requirement]
        _ok(_run(install, cwd=folder.parent, timeout=600))

    def script(self, name: str) -> Path:
        """The path of a command this environment installed."""
        return self.folder / "bin" / name

    def evaluate(self, expression: str, cwd: Path, *, imports: str) -> Any:
        """What ``expression`` gives in this environment's interpreter once ``imports`` are imported, as JSON."""
        code = f"import json, {imports}; print(json.dumps({expression}))"
        return json.loads(_ok(_run([self.python, "-c", code], cwd=cwd)))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built once for the module from a clean copy of the source tree."""
    folder = tmp_path_factory.mktemp("wheel")
    source = folder / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    built = folder / "dist"
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--disable-pip-version-check", "-w", built]
    _ok(_run([*command, source], cwd=folder, timeout=300))
    (found,) = built.glob("esper_motion-*.whl")
    return found


@pytest.fixture(scope="module")
def core_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Venv:
    """An environment with the wheel and its dependencies, without the demos extra."""
    return Venv(tmp_path_factory.mktemp("core") / "venv", str(wheel))


@pytest.fixture(scope="module")
def demos_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Venv:
    """An environment with the wheel and the demos extra (arcade)."""
    return Venv(tmp_path_factory.mktemp("demos") / "venv", f"{wheel}[demos]")


def test_on_python_3_10_the_package_alone_brings_tomli_to_read_the_scenes_it_ships() -> None:
    requirements = [Requirement(line) for line in metadata.requires("esper-motion") or []]
    python_3_10 = {"python_version": "3.10", "extra": ""}  # no extra asked for
    wanted = [found.name for found in requirements if found.marker is None or found.marker.evaluate(python_3_10)]
    assert "tomli" in wanted, wanted


def test_the_newest_release_of_the_changelog_is_the_version_of_pyproject() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    headings = [line for line in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").splitlines() if line[:4] == "## ["]
    assert headings[0] == "## [Unreleased]", headings[:2]
    assert headings[1].startswith(f"## [{version}] - "), (version, headings[1])


@pytest.mark.slow
def test_the_wheel_installs_one_package_esper_motion_at_the_version_of_pyproject(
    wheel: Path, core_venv: Venv, tmp_path: Path
) -> None:
    with zipfile.ZipFile(wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist()}
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert tops == {"esper_motion", f"esper_motion-{version}.dist-info"}

    site = Path(core_venv.evaluate("sysconfig.get_path('purelib')", tmp_path, imports="sysconfig"))
    assert (site / "esper_motion" / "__init__.py").is_file()
    assert (site / "esper_motion" / "py.typed").is_file()
    assert [name for name in SOURCE_FOLDERS if (site / name).exists()] == []
    assert core_venv.evaluate("esper_motion.__version__", tmp_path, imports="esper_motion") == version
    esper = core_venv.evaluate("importlib.metadata.version('esper')", tmp_path, imports="importlib.metadata")
    assert esper.startswith("3."), esper  # the dependency came along


GAME = {
    "components.py": '''\
"""The game's own components."""

from dataclasses import dataclass


@dataclass
class Sprite:
    image: str
    x: float = 0.0
    y: float = 0.0
''',
    "systems.py": '''\
"""The game's own processors."""

import esper

from components import Sprite
from esper_motion.components import Position


class SpriteFollower(esper.Processor):
    """Puts each sprite where its entity is, every frame."""

    def process(self, dt):
        for _, (position, sprite) in esper.get_components(Position, Sprite):
            sprite.x, sprite.y = position.q * 32.0, position.r * 32.0
''',
    "ecs.py": '''\
"""The game's own ecs helpers."""

CONTEXT = "game"
''',
    "main.py": '''\
"""A game whose own modules are called components, systems and ecs, embedding esper-motion."""

from pathlib import Path

import esper

import components
import ecs
import systems
from esper_motion.components import Condition, Control, Facing, Intent, Mover, Position, Posture, Velocity
from esper_motion.ecs import World
from esper_motion.systems.gurps import Rules, install

HERE = Path(__file__).resolve().parent
for module in (components, systems, ecs):
    assert Path(module.__file__).resolve().parent == HERE, module

esper.switch_world(ecs.CONTEXT)
esper.add_processor(systems.SpriteFollower())
world = World.attach(seed=7)
install(world, Rules.basic())
runner = world.spawn(
    Position(0, 0), Facing(0), Velocity(5), Mover(basic_move=5, dx=12),
    Control(), Intent(), Posture(), Condition(), components.Sprite("runner.png"),
)
for _ in range(2):  # one turn a second, one frame after each
    world.step()
    esper.process(1.0)
position = world.get(runner, Position)
sprite = world.get(runner, components.Sprite)
print(f"position {position.q} {position.r}")
print(f"sprite {sprite.x} {sprite.y}")
''',
}
"""A game laid out as esper games often are: its own ``components``, ``systems`` and ``ecs`` beside ``main``."""


@pytest.mark.slow
def test_a_game_with_its_own_components_systems_and_ecs_modules_runs_a_gurps_runner(
    core_venv: Venv, tmp_path: Path
) -> None:
    for name, text in GAME.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    printed = _ok(_run([core_venv.python, "main.py"], cwd=tmp_path))
    assert printed.splitlines() == ["position 10 0", "sprite 320.0 0.0"]  # 5 yd/s east for two turns


@pytest.mark.slow
def test_the_command_with_the_demos_extra_writes_png_frames_and_a_gif(demos_venv: Venv, tmp_path: Path) -> None:
    out = tmp_path / "out"
    command = [demos_venv.script("esper-motion"), "sprint", "--headless", "--turns", "3", "--out", out]
    printed = _ok(_run(command, cwd=tmp_path, ARCADE_HEADLESS="1"))
    assert printed.splitlines()[-1] == f"wrote 4 PNG frames and sprint.gif to {out}"
    frames = sorted(path.name for path in out.glob("*.png"))
    assert len(frames) >= 3, frames
    assert [path.name for path in out.glob("*.gif")] == ["sprint.gif"]
    assert all(path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for path in out.glob("*.png"))


@pytest.mark.slow
def test_the_command_without_the_demos_extra_lists_scenes_and_asks_for_the_extra_to_draw(
    core_venv: Venv, tmp_path: Path
) -> None:
    assert core_venv.evaluate("importlib.util.find_spec('arcade') is None", tmp_path, imports="importlib.util")
    command = core_venv.script("esper-motion")

    listed = _ok(_run([command, "--list"], cwd=tmp_path))
    assert "sprint" in [line.split()[0] for line in listed.splitlines()]

    drawn = _run([command, "sprint", "--headless", "--turns", "1"], cwd=tmp_path)
    assert drawn.returncode == 2, drawn
    assert "install esper-motion with its 'demos' extra: pip install -e '.[demos]' in a checkout" in drawn.stderr
    assert not (tmp_path / "out").exists()
