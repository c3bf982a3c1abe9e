"""Long set-ups that need nothing of the test process, built while the first tests run.

A test file registers one with :func:`prebuild` when pytest imports it: a function of an empty folder
(and of what its ``prepare`` returned) that returns what a module fixture needs, and the name of that
fixture. Once the tests are selected,
``conftest.py`` calls :func:`start`: one background thread builds, in the order the tests will need
them, the set-ups that a selected test needs (through that fixture). The fixture calls :func:`result`,
which waits for the build, or builds it there and then when nothing started it. Exceptions (a failed
assert, ``pytest.skip``) reach the fixture as if it had built the set-up itself.

The builds mostly wait for subprocesses (nbgrader's exchange and grading, pip): they run on the second
core while the unit tests run on the first, so a test file that builds a course no longer waits for it.
What needs the interpreter itself (making the students' answers, which may parse code with :mod:`ast`,
whose parser state CPython 3.11 shares between threads) goes in ``prepare``, which runs in the main
thread, before the background thread starts.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class _Build:
    name: str
    build: Callable[..., Any]
    modules: tuple[str, ...]
    fixture: str
    done: threading.Event = field(default_factory=threading.Event)
    claimed: bool = False
    folder: Path | None = None
    prepare: Callable[[], Any] | None = None
    prepared: Any = None
    value: Any = None
    error: BaseException | None = None

    def claim(self, new_folder: Callable[[str], Path]) -> None:
        """Taken by a thread (the caller holds the lock); its folder made and ``prepare`` run here."""
        self.claimed, self.folder = True, new_folder(self.name)
        if self.prepare is not None:
            try:
                self.prepared = self.prepare()
            except BaseException as error:  # noqa: B036 (handed to the fixture, as run() does)
                self.error = error

    def run(self) -> None:
        if self.error is not None:  # prepare failed
            self.done.set()
            return
        try:
            self.value = self.build(self.folder, self.prepared) if self.prepare else self.build(self.folder)
        except BaseException as error:  # noqa: B036 (pytest.skip and pytest.fail too: handed to the fixture)
            self.error = error
        finally:
            self.done.set()


_BUILDS: dict[str, _Build] = {}
_LOCK = threading.Lock()


def prebuild(name: str, *, needed_by: str, modules: tuple[str, ...] = (),
             prepare: Callable[[], Any] | None = None) -> Callable:
    """Register the decorated ``build(folder)`` (``build(folder, prepare())`` with ``prepare``) as the
    set-up ``name`` of the fixture ``needed_by`` of the test modules ``modules`` (by default the decorated
    function's own)."""
    def register(build):
        _BUILDS[name] = _Build(name, build, modules or (build.__module__,), needed_by, prepare=prepare)
        return build
    return register


def start(items, new_folder: Callable[[str], Path]) -> threading.Thread | None:
    """Build, in a background thread, every registered set-up that one of ``items`` needs (in their order)."""
    wanted: list[_Build] = []
    for item in items:
        if any(mark.args and mark.args[0] is True for mark in item.iter_markers("skipif")):
            continue  # skipped anyway (the hub test without its proxy, say)
        module = getattr(getattr(item, "module", None), "__name__", None)
        for build in _BUILDS.values():
            if build not in wanted and module in build.modules and build.fixture in item.fixturenames:
                wanted.append(build)
    with _LOCK:
        wanted = [b for b in wanted if not b.claimed]
        for build in wanted:
            build.claim(new_folder)
    if not wanted:
        return None
    thread = threading.Thread(target=lambda: [b.run() for b in wanted], name="prebuilt", daemon=True)
    thread.start()
    return thread


def result(name: str, new_folder: Callable[[str], Path]) -> Any:
    """What the set-up ``name`` built: waits for the background build, or builds it now."""
    build = _BUILDS[name]
    with _LOCK:
        here = not build.claimed
        if here:
            build.claim(new_folder)
    if here:
        build.run()
    build.done.wait()
    if build.error is not None:
        raise build.error
    return build.value
