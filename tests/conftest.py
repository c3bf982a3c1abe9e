"""What the test files share: the markers' rules, Chromium, and one JupyterLab server per session.

Markers (registered in ``pyproject.toml``): ``browser`` (drives Debian's Chromium), ``hub`` (a real
JupyterHub), ``nbgrader`` (runs nbgrader: a course built through its exchange, its autograde),
``slow`` (left out of the quick run, ``python -m pytest -m "not slow"``). A ``browser``, ``hub`` or
``nbgrader`` test is ``slow`` too, and so is every notebook nbval runs (each starts a kernel and runs a
whole lesson).

Long set-ups registered with :func:`prebuilt.prebuild` (courses built through nbgrader, the hub's
students' environment) start in a background thread before the first test (:func:`_prebuilt`).

Browser tests ask for :func:`chromium` (or :func:`jupyterlab`): outside CI they are skipped when Chromium
or playwright is missing; ``.ci/run`` installs both and sets ``GT_REQUIRE_BROWSER=1``, so that CI fails
instead of skipping.
"""

from __future__ import annotations

import atexit
import os

import browser
import prebuilt
import pytest

#: The markers that make a test slow whatever its own duration.
SLOW_KINDS = ("browser", "hub", "nbgrader", "sandbox")


def pytest_collection_modifyitems(items):
    for item in items:
        if type(item).__name__ == "IPyNbCell" or any(item.get_closest_marker(k) for k in SLOW_KINDS):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session", autouse=True)
def _prebuilt(request, tmp_path_factory):
    """Start building the long set-ups the selected tests need (tests/prebuilt.py)."""
    prebuilt.start(request.session.items, tmp_path_factory.mktemp)


@pytest.fixture(scope="session")
def browser_available():
    """Skip, or fail under ``GT_REQUIRE_BROWSER``, when Chromium or playwright is missing."""
    missing = browser.browser_missing()
    if missing:
        if os.environ.get("GT_REQUIRE_BROWSER"):
            pytest.fail(f"GT_REQUIRE_BROWSER is set but {missing}")
        pytest.skip(missing)


@pytest.fixture(scope="module")
def chromium(browser_available):
    """Debian's Chromium through playwright, headless (one per test file: playwright's sync API lives
    in the file that started it)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chrome = pw.chromium.launch(executable_path=browser.CHROMIUM, args=browser.CHROMIUM_ARGS)
        try:
            yield chrome
        finally:
            chrome.close()


@prebuilt.prebuild("jupyterlab", needed_by="jupyterlab",
                   modules=("test_browser", "test_practice", "test_self_contained"))
def _start_jupyterlab(base):
    """The session's JupyterLab, started while the first tests run (it waits for a subprocess)."""
    root = base / "notebooks"
    root.mkdir()
    server = browser.JupyterLabServer(root, base)
    atexit.register(server.stop)  # stopped even when no browser test runs to stop it (no browser here)
    try:
        server.start(timeout=90)
    except BaseException:
        server.stop()
        raise
    return server


@pytest.fixture(scope="session")
def jupyterlab(browser_available, tmp_path_factory):
    """One JupyterLab server for the session (:class:`browser.JupyterLabServer`), on an empty folder
    (``.root``) that each test file fills with the notebooks it opens."""
    server = prebuilt.result("jupyterlab", tmp_path_factory.mktemp)
    try:
        yield server
    finally:
        server.stop()
