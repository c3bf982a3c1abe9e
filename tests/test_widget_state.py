"""A lesson's widgets survive any number of open/save/close cycles in JupyterLab (issue 28).

JupyterLab's widget manager saves only the widgets whose kernel is alive: a lesson run and
saved shows its widgets when reopened (their state is in the notebook's metadata), but the
next save of the reopened notebook wrote that metadata without them, and every widget then
said "Error displaying widget: model not found". The lessons' settings package
(``jupyterlab-settings``) adds a Jupyter server extension that keeps, on every save, the
saved state of the widgets the notebook still shows.

Lesson 02 (a replay and a tic-tac-toe board) in Debian's Chromium, through ``tests/browser.py``:

1. run all, save with Ctrl+S, close; reopened, every widget shows its saved picture under
   "Run the cell to use the controls";
2. Ctrl+S on the reopened notebook with no edit, close; reopened, the same;
3. run the replay's cell again (the board stays as saved), and let autosave (every 3 s here)
   save it, close; reopened, the same, and the board is still the saved one.

After each save the file holds the state of every widget its outputs show (with every
widget inside them); after each reopen the page shows no "model not found".
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
import urllib.request
from pathlib import Path

import browser
import pytest
from browser import JupyterLabServer, NotebookPage

ROOT = Path(__file__).resolve().parents[1]
LESSON = "02_minimax.ipynb"
VIEWPORT = {"width": 1366, "height": 900}
OPEN_TIMEOUT, RUN_TIMEOUT, WIDGET_TIMEOUT = 90, 240, 60  # s
AUTOSAVE_INTERVAL = 3  # s (JupyterLab's default is 120)
VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on a cleared copy of lesson 02, and one browser context."""
    missing = browser.browser_missing()
    if missing:
        if os.environ.get("GT_REQUIRE_BROWSER"):
            pytest.fail(f"GT_REQUIRE_BROWSER is set but {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    base = tmp_path_factory.mktemp("widget-state")
    root = base / "notebooks"
    browser.cleared_copy(ROOT / "notebooks" / LESSON, root / LESSON)
    shots = Path(os.environ.get("GT_BROWSER_SCREENSHOTS") or base / "screenshots") / "widget-state"
    shots.mkdir(parents=True, exist_ok=True)
    print(f"\nwidget state: screenshots in {shots}")
    server = JupyterLabServer(root, base)
    server.start(timeout=OPEN_TIMEOUT)
    pw = chromium = context = None
    try:
        pw = sync_playwright().start()
        chromium = pw.chromium.launch(executable_path=browser.CHROMIUM, args=browser.CHROMIUM_ARGS)
        context = chromium.new_context(viewport=VIEWPORT)
        yield server, context, root, shots
    finally:
        for close in (context and context.close, chromium and chromium.close, pw and pw.stop, server.stop):
            if close:
                with contextlib.suppress(Exception):  # stop everything else anyway
                    close()


def _set_autosave(server: JupyterLabServer, interval: float | None) -> None:
    """Autosave on every ``interval`` seconds (``None``: off), as a learner's own setting would."""
    raw = {"autosave": interval is not None, "autosaveInterval": interval or 120}
    request = urllib.request.Request(
        f"{server.url}/lab/api/settings/@jupyterlab/docmanager-extension:plugin", method="PUT",
        data=json.dumps({"raw": json.dumps(raw)}).encode(),
        headers={"Authorization": f"token {server.token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 204, answer.status


def _saved(root: Path) -> dict:
    return json.loads((root / LESSON).read_text(encoding="utf-8"))


def _shown_models(nb: dict) -> list[str]:
    return [o["data"][VIEW]["model_id"] for c in nb["cells"] for o in c.get("outputs", [])
            if VIEW in o.get("data", {})]


def _missing_state(nb: dict) -> list[str]:
    """The widgets the outputs show, or hold inside them, whose state the file lacks."""
    state = nb["metadata"].get("widgets", {}).get(STATE, {}).get("state", {})
    missing, todo, seen = [], _shown_models(nb), set()
    while todo:
        model = todo.pop()
        if model in seen:
            continue
        seen.add(model)
        if model not in state:
            missing.append(model)
            continue
        todo += re.findall(r"IPY_MODEL_([0-9a-f]+)", json.dumps(state[model].get("state", {})))
    return missing


def _open(server, context, n: int) -> NotebookPage:
    page = NotebookPage(server, context, LESSON, workspace=f"cycle{n}")
    page.open(timeout=OPEN_TIMEOUT)
    return page


def _close(server, page: NotebookPage) -> None:
    page.close()
    server.shutdown_kernels()


def _dirty(page: NotebookPage) -> bool:
    return page.page.evaluate(f"() => !!document.querySelector('{PANEL} .jp-mod-dirty')")


def _ctrl_s(page: NotebookPage, root: Path, what: str) -> None:
    """Press Ctrl+S (a cell selected, not edited) and wait until the file is written and the tab clean."""
    before = (root / LESSON).stat().st_mtime_ns
    page.page.locator(f"{PANEL} .jp-MarkdownCell").first.click()
    page.page.keyboard.press("Control+s")
    deadline = time.monotonic() + 30
    while (root / LESSON).stat().st_mtime_ns == before or _dirty(page):
        assert time.monotonic() < deadline, f"Ctrl+S did not save {what} within 30 s"
        time.sleep(0.2)


def _reopened(server, context, shots: Path, n: int, expected: int) -> tuple[NotebookPage, list[dict]]:
    """Reopen the lesson (not run) and read every widget output once they have rendered."""
    page = _open(server, context, n)
    page.wait(f"""(n) => [...document.querySelectorAll('{PANEL} .jp-OutputArea-output')]
                 .filter(o => o.querySelector('.jupyter-widgets') || /Error displaying widget|model not found/
                 .test(o.innerText)).length >= n &&
                 !/Loading widget/.test(document.querySelector('{PANEL}').innerText)""",
              expected, timeout=WIDGET_TIMEOUT, what=f"the {expected} widget outputs render (reopen {n})")
    page.settle_images()
    outputs = page.page.evaluate(f"""() => [...document.querySelectorAll('{PANEL} .jp-OutputArea-output')]
        .filter(o => o.querySelector('.jupyter-widgets') || /widget|model not found/i.test(o.innerText))
        .filter(o => !o.parentElement.closest('.jp-OutputArea-output'))
        .map(o => ({{text: o.innerText.slice(0, 300), widget: !!o.querySelector('.gt-widget'),
                    note: [...o.querySelectorAll('.gt-widget > .gt-note')]
                      .filter(e => e.getBoundingClientRect().height > 0)
                      .map(e => e.innerText.trim()).join('|'),
                    cells: [...o.querySelectorAll('.widget-gridbox > button')].map(b => b.textContent.trim()),
                    images: [...o.querySelectorAll('img')].filter(i => i.getBoundingClientRect().width > 0)
                      .map(i => i.complete && i.naturalWidth > 0)}}))""")
    page.page.locator(f"{PANEL} .gt-widget").first.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.screenshot(shots / f"reopen-{n}.png")
    return page, outputs


def _check(outputs: list[dict], expected: int, where: str) -> None:
    from gametrees.widgets.output import OFFLINE_NOTE

    assert len(outputs) == expected, f"{where}: {outputs}"
    for out in outputs:
        assert "model not found" not in out["text"] and "Error displaying" not in out["text"], \
            f"{where}: {out}"
        assert out["widget"], f"{where}: no widget shown: {out}"
        # the picture: a replay's figure, or the nine cells of the board
        assert (out["images"] and all(out["images"])) or len(out["cells"]) == 9, f"{where}: no picture: {out}"
    assert all(out["note"] == OFFLINE_NOTE for out in outputs), f"{where}: {outputs}"


@pytest.mark.browser
def test_widgets_survive_two_saves_one_by_autosave(lab):
    server, context, root, shots = lab
    _set_autosave(server, None)
    nb = json.loads((root / LESSON).read_text(encoding="utf-8"))
    sources = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    to_run = [bool(source.strip()) for source in sources]
    (replay_cell,) = [i for i, source in enumerate(sources) if "gt.replay(" in source]

    # Cycle 1: run all, play a move on the board, Ctrl+S.
    page = _open(server, context, 1)
    try:
        page.run_all(to_run, timeout=RUN_TIMEOUT)
        problems = page.problems(to_run)
        assert not problems, "\n".join(problems)
        found = page.mark_widgets()
        assert found["replay"] == 1 and found["ttt"] == 1, found
        page.page.locator("[data-gt-ttt='0'] .widget-gridbox > button").nth(4).click()
        page.wait("() => document.querySelector(\"[data-gt-ttt='0'] .widget-gridbox\")"
                  ".innerText.includes('X')",
                  timeout=WIDGET_TIMEOUT, what="the board takes a move")
        page.wait("""() => [...document.querySelectorAll("[data-gt-ttt='0'] .widget-gridbox > button")]
                   .filter(b => b.textContent.trim()).length === 2""", timeout=WIDGET_TIMEOUT,
                  what="the agent answers the move")
        played = page.board("ttt", 0)["cells"]
        _ctrl_s(page, root, "the notebook run")
    finally:
        _close(server, page)
    saved = _saved(root)
    expected = len(_shown_models(saved))
    assert expected == 2 and not _missing_state(saved), "the first save lacks widget state"
    first_state = saved["metadata"]["widgets"]

    page, outputs = _reopened(server, context, shots, 1, expected)
    try:
        _check(outputs, expected, "reopened after Ctrl+S")
        assert [o["cells"] for o in outputs if o["cells"]] == [played], outputs
        # Cycle 2: Ctrl+S with no edit.
        _ctrl_s(page, root, "the reopened notebook")
    finally:
        _close(server, page)
    now = _saved(root)
    assert not _missing_state(now), "a save of the reopened notebook dropped widget state"
    before, after = first_state[STATE]["state"], now["metadata"]["widgets"][STATE]["state"]
    assert all(after[m] == before[m] for m in after), "a save of the reopened notebook changed widget state"
    links = [m for m, s in before.items() if s["model_name"] == "LinkModel"]  # the replay's Play and slider
    assert links and all(m in after for m in links), \
        "a save of the reopened notebook dropped the replay's link"

    # Cycle 3: run the replay's cell again, autosave.
    _set_autosave(server, AUTOSAVE_INTERVAL)
    page, outputs = _reopened(server, context, shots, 2, expected)
    try:
        _check(outputs, expected, "reopened after a second Ctrl+S")
        replay_id, board_id = _shown_models(_saved(root))
        replay = page.page.locator(f"{PANEL} .jp-CodeCell").nth(replay_cell)
        assert "gt.replay(" in replay.locator(".jp-InputArea").inner_text()
        replay.locator(".jp-InputPrompt").click()
        page.command("notebook:run-all-above")  # what the replay's cell needs, then the cell
        page.command("notebook:run-cell")
        page.wait(f"""(i) => {{
            const note = document.querySelectorAll('{PANEL} .jp-CodeCell')[i]
              .querySelector('.gt-widget > .gt-note');
            return note && !note.classList.contains('jupyter-widgets-disconnected'); }}""", replay_cell,
                  timeout=RUN_TIMEOUT, what="the replay's cell runs again (a live widget)")
        # No save command: autosave writes the notebook with the new replay and the board as saved.
        # JupyterLab marks a notebook clean when a save ends, even if an output arrived while the save was
        # being written; the tab is then clean with the file one output behind, and no autosave follows
        # until the next change (seen once in a full run). The file is then whole (every widget it shows
        # has its state), and running the replay's cell once more, as a learner would, is that change.
        deadline = time.monotonic() + AUTOSAVE_INTERVAL * 20
        changed, rerun = time.monotonic(), False
        while (shown := _shown_models(_saved(root)))[0] == replay_id or len(shown) < 2 or _dirty(page):
            assert time.monotonic() < deadline, f"autosave did not save the re-run replay: {shown}"
            if _dirty(page):
                changed = time.monotonic()
            elif not rerun and time.monotonic() - changed > 3 * AUTOSAVE_INTERVAL:
                assert not _missing_state(_saved(root)), "the file the clean tab left lacks widget state"
                page.command("notebook:run-cell")
                rerun = True
            time.sleep(0.5)
        assert shown[1] == board_id, "the board is not the one saved"
    finally:
        _close(server, page)
        _set_autosave(server, None)
    saved = _saved(root)
    assert not _missing_state(saved), "autosave dropped widget state"

    page, outputs = _reopened(server, context, shots, 3, len(_shown_models(saved)))
    try:
        _check(outputs, len(_shown_models(saved)), "reopened after autosave")
        assert [o["cells"] for o in outputs if o["cells"]] == [played], outputs
    finally:
        _close(server, page)


# ----------------------------------------------------------------------------
# The server extension on its own: a real contents manager, no browser
# ----------------------------------------------------------------------------


def _notebook(shown: list[str], state: dict) -> dict:
    outputs = [{"output_type": "display_data", "metadata": {},
                "data": {"text/plain": "Replay(...)",
                         VIEW: {"model_id": m, "version_major": 2, "version_minor": 0}}}
               for m in shown]
    return {"cells": [{"cell_type": "code", "id": "c1", "metadata": {}, "source": "gt.replay(r)",
                       "execution_count": 1, "outputs": outputs}],
            "metadata": {"widgets": {STATE: {"version_major": 2, "version_minor": 0, "state": state}}},
            "nbformat": 4, "nbformat_minor": 5}


def _model(module: str, **state) -> dict:
    return {"model_name": module, "model_module": "@jupyter-widgets/controls",
            "model_module_version": "2.0.0", "state": state}


@pytest.fixture
def contents(tmp_path, monkeypatch):
    """jupyter_server's own file contents manager on ``tmp_path``, the extension's hook registered."""
    from jupyter_server.services.contents.filemanager import FileContentsManager

    monkeypatch.syspath_prepend(str(ROOT / "jupyterlab-settings"))
    import gametrees_widget_state

    manager = FileContentsManager(root_dir=str(tmp_path))
    gametrees_widget_state._load_jupyter_server_extension(type("App", (), {"contents_manager": manager})())
    return manager


def _save(manager, nb: dict) -> dict:
    manager.save({"type": "notebook", "format": "json", "content": json.loads(json.dumps(nb))}, "n.ipynb")
    return json.loads((Path(manager.root_dir) / "n.ipynb").read_text(encoding="utf-8"))


def test_a_save_keeps_the_saved_state_of_every_widget_still_shown(contents):
    box = _model("VBoxModel", children=["IPY_MODEL_b1", "IPY_MODEL_b2"])
    first = {"box": box, "b1": _model("PlayModel"), "b2": _model("IntSliderModel"),
             "gone": _model("ButtonModel"),
             "link": _model("LinkModel", source=["IPY_MODEL_b1", "value"], target=["IPY_MODEL_b2", "value"])}
    assert not _missing_state(_save(contents, _notebook(["box"], first)))
    # Saved again as JupyterLab does it for a reopened notebook: the outputs, no live widget.
    again = _save(contents, _notebook(["box"], {}))
    assert not _missing_state(again)
    # the box, the widgets inside it and the link between two of them; not a widget no output shows
    assert again["metadata"]["widgets"][STATE]["state"] == {k: first[k] for k in ("box", "b1", "b2", "link")}
    # ... and once more with no "widgets" metadata at all (saveState turned off).
    bare = _notebook(["box"], {})
    del bare["metadata"]["widgets"]
    assert not _missing_state(_save(contents, bare))


def test_a_live_widget_keeps_its_new_state_and_a_cleared_output_its_widgets_go(contents):
    _save(contents, _notebook(["old", "board"], {"old": _model("VBoxModel", children=["IPY_MODEL_x"]),
                                                 "x": _model("HTMLModel"), "board": _model("VBoxModel")}))
    # The replay's cell ran again (a new live widget); the board's output is as saved.
    rerun = _save(contents, _notebook(["new", "board"], {"new": _model("VBoxModel", children=[])}))
    assert sorted(rerun["metadata"]["widgets"][STATE]["state"]) == ["board", "new"]
    # A state the front end wrote is never replaced by the one on disk.
    live = {"board": _model("VBoxModel", children=["IPY_MODEL_y"]), "y": _model("HTMLModel")}
    assert _save(contents, _notebook(["board"], live))["metadata"]["widgets"][STATE]["state"] == live
    # Outputs cleared: nothing kept.
    assert _save(contents, _notebook([], {}))["metadata"]["widgets"][STATE]["state"] == {}


def test_the_lessons_settings_package_installs_and_enables_the_extension():
    import tomllib

    folder = ROOT / "jupyterlab-settings"
    project = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["tool"]["setuptools"]["py-modules"] == ["gametrees_widget_state"]
    (config,) = project["tool"]["setuptools"]["data-files"]["etc/jupyter/jupyter_server_config.d"]
    enabled = json.loads((folder / config).read_text(encoding="utf-8"))
    assert enabled == {"ServerApp": {"jpserver_extensions": {"gametrees_widget_state": True}}}
