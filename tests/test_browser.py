"""The lessons and their widgets in a real browser: JupyterLab driven by headless Chromium.

One JupyterLab server (started and stopped by its own process id, on a free port with a
random token) serves cleared copies of every notebook from a temporary folder; one
Chromium browser (Debian's ``chromium`` package, driven by playwright's Python API)
opens each notebook in turn, runs all cells and checks through the page:

- every cell ran, and no cell shows an error, anything on stderr, or a widget that did
  not render;
- every replay widget shows its sentence and its figure; in the first replay, "step ▶"
  and Play change the sentence and redraw the figure;
- every tic-tac-toe board (and Connect Four board) accepts a click and the agent answers;
- every practice widget's Check gives feedback (a scratch notebook calls
  ``gt.practice(seed=1)``, and also opens its solution).

A screenshot of each notebook (and of its board or practice widget) is saved to
``$GT_BROWSER_SCREENSHOTS``, or to a pytest temporary folder printed in the output
(``pytest -s`` shows it; a failure message names it too).

Outside CI the test is skipped when Chromium or playwright is missing; ``.ci/run``
installs both and sets ``GT_REQUIRE_BROWSER=1`` so that CI fails instead of skipping.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from pathlib import Path

import browser
import pytest
from browser import JupyterLabServer, NotebookPage, PageTimeout

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
LESSONS = sorted(p.relative_to(NOTEBOOKS).as_posix() for p in NOTEBOOKS.rglob("*.ipynb")
                 if ".ipynb_checkpoints" not in p.parts)

SCRATCH_PRACTICE = "scratch/practice.ipynb"
SCRATCH_FAILING = "scratch/failing.ipynb"

OPEN_TIMEOUT = 90  # s: JupyterLab loads and the kernel is idle
RUN_TIMEOUT = 240  # s: one notebook's "run all"
WIDGET_TIMEOUT = 60  # s: a widget answers a click (the agent may search)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on copies of the notebooks, and one browser context."""
    missing = browser.browser_missing()
    if missing:
        if os.environ.get("GT_REQUIRE_BROWSER"):
            pytest.fail(f"GT_REQUIRE_BROWSER is set but {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    base = tmp_path_factory.mktemp("browser")
    root = base / "notebooks"
    browser.copy_notebooks(NOTEBOOKS, root)
    browser.write_notebook(root / SCRATCH_PRACTICE, [
        "%matplotlib inline\nimport gametrees as gt",
        "gt.practice(seed=1)",
    ])
    browser.write_notebook(root / SCRATCH_FAILING, [
        "print('before the error')",
        # A widget view whose model does not exist: the page must say it did not render.
        ("from IPython.display import display\n"
         "display({'application/vnd.jupyter.widget-view+json':"
         " {'model_id': 'no-such-model', 'version_major': 2, 'version_minor': 0}}, raw=True)"),
        "1 / 0",
        "print('never printed: run-all stops at the error')",
    ])
    shots = Path(os.environ.get("GT_BROWSER_SCREENSHOTS") or base / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    print(f"\nbrowser test: screenshots in {shots}")

    server = JupyterLabServer(root, base)
    server.start(timeout=OPEN_TIMEOUT)
    pw = chromium = context = None
    try:
        pw = sync_playwright().start()
        chromium = pw.chromium.launch(executable_path=browser.CHROMIUM, args=browser.CHROMIUM_ARGS)
        context = chromium.new_context(viewport={"width": 1280, "height": 1000})
        yield Lab(server, context, root, shots)
    finally:
        for close in (context and context.close, chromium and chromium.close, pw and pw.stop, server.stop):
            if close:
                with contextlib.suppress(Exception):  # stop everything else anyway
                    close()


class Lab:
    def __init__(self, server, context, root, shots):
        self.server, self.context, self.root, self.shots = server, context, root, shots
        self.count = 0

    def open(self, path, timeout=OPEN_TIMEOUT) -> NotebookPage:
        self.count += 1
        page = NotebookPage(self.server, self.context, path, workspace=f"w{self.count}")
        page.open(timeout=timeout)
        return page

    def done(self, page: NotebookPage):
        page.close()
        self.server.shutdown_kernels()

    def code_cells(self, path):
        """Per code cell of the notebook: has it code to run, and its source."""
        nb = json.loads((self.root / path).read_text(encoding="utf-8"))
        sources = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
        return [bool(s.strip()) for s in sources], sources


def _shot_name(path):
    return re.sub(r"[^\w.-]+", "_", path.removesuffix(".ipynb"))


def _expected(sources, pattern):
    """How many code cells call ``pattern`` outside comments (each displays one widget)."""
    code = ["\n".join(line.split("#")[0] for line in s.splitlines()) for s in sources]
    return sum(1 for s in code if pattern in s)


@pytest.mark.parametrize("path", LESSONS + [SCRATCH_PRACTICE])
def test_notebook_in_jupyterlab(lab, path):
    t0 = time.monotonic()
    to_run, sources = lab.code_cells(path)
    name = _shot_name(path)
    page = lab.open(path)
    try:
        page.run_all(to_run, timeout=RUN_TIMEOUT)
        ran = time.monotonic() - t0
        problems = page.problems(to_run)
        assert not problems, f"{path}: the page shows problems:\n" + "\n".join(problems)

        found = page.mark_widgets()
        expected = {"replay": _expected(sources, "gt.replay("), "practice": _expected(sources, "gt.practice(")}
        boards = _expected(sources, "gt.play(")
        assert found["replay"] >= expected["replay"], f"{path}: replay widgets on the page: {found}, cells: {expected}"
        assert found["practice"] >= expected["practice"], f"{path}: practice widgets: {found}, cells: {expected}"
        assert found["ttt"] + found["c4"] >= boards, f"{path}: boards on the page: {found}, cells calling gt.play: {boards}"

        for i in range(found["replay"]):
            state = page.replay(i)
            assert state["loaded"] and state["width"] > 50, f"{path}: replay {i} shows no figure: {state}"
            assert state["sentence"], f"{path}: replay {i} shows no explanation"
        if found["replay"]:
            _drive_replay(page, 0)
        for i in range(found["ttt"]):
            _drive_board(page, "ttt", i)
        for i in range(found["c4"]):
            _drive_board(page, "c4", i)
        for i in range(found["practice"]):
            _drive_practice(page, i)

        # Clicks must not have produced errors either (a failing callback prints to the cell).
        problems = page.problems(to_run)
        assert not problems, f"{path}: after the clicks the page shows problems:\n" + "\n".join(problems)
        assert not page.console_errors, f"{path}: JavaScript errors on the page: {page.console_errors}"

        first = next((f"[data-gt-{k}='0']" for k in ("replay", "ttt", "c4", "practice") if found[k]), None)
        page.screenshot(lab.shots / f"{name}.png", first)
        if found["replay"] and (found["ttt"] or found["c4"]):
            page.screenshot(lab.shots / f"{name}-board.png", "[data-gt-ttt='0'], [data-gt-c4='0']")
        if found["practice"] and first != "[data-gt-practice='0']":
            page.screenshot(lab.shots / f"{name}-practice.png", "[data-gt-practice='0']")
        print(f"{path}: ran in {ran:.1f} s, checked in {time.monotonic() - t0:.1f} s; widgets {found}")
    except BaseException:
        with contextlib.suppress(Exception):  # the page may be gone
            page.screenshot(lab.shots / f"{name}-FAILED.png")
            print(f"{path}: screenshot of the failure: {lab.shots / f'{name}-FAILED.png'}")
        raise
    finally:
        lab.done(page)


def _button(root, text):
    """The ipywidgets buttons labelled ``text`` (an icon, if any, adds no text)."""
    return root.locator("button.widget-button", has_text=re.compile(rf"^\s*{re.escape(text)}\s*$"))


def _drive_replay(page: NotebookPage, i: int):
    """"step ▶", then Play: each changes the sentence and redraws the figure."""
    root = page.page.locator(f"[data-gt-replay='{i}']")
    before = page.replay(i)
    _button(root, "step ▶").click()
    after = page.wait("""([i, s, src]) => {
        const root = document.querySelector(`[data-gt-replay="${i}"]`);
        const img = root.querySelector('img');
        const sentence = root.children[2].innerText.trim();
        return sentence !== s && img.src !== src && img.complete && img.naturalWidth > 0
          && {sentence, src: img.src};
      }""", [i, before["sentence"], before["src"]], timeout=WIDGET_TIMEOUT,
        what=f"'step ▶' in replay {i} changes the explanation ({before['sentence']!r}) and the figure")
    root.locator(".widget-play button").first.click()  # Play
    page.wait("""([i, s, src]) => {
        const root = document.querySelector(`[data-gt-replay="${i}"]`);
        const img = root.querySelector('img');
        return root.children[2].innerText.trim() !== s && img.src !== src && img.complete && img.naturalWidth > 0;
      }""", [i, after["sentence"], after["src"]], timeout=WIDGET_TIMEOUT,
        what=f"Play in replay {i} moves on from {after['sentence']!r} and redraws the figure")
    # The same button pauses (ipywidgets 8: play/pause, then stop, which would go back to step 1).
    root.locator(".widget-play button").first.click()
    page.page.wait_for_timeout(300)
    paused = page.replay(i)
    page.page.wait_for_timeout(1500)  # 2.5 steps at the default speed
    assert page.replay(i)["sentence"] == paused["sentence"], f"replay {i} goes on playing after Pause"


def _drive_board(page: NotebookPage, kind: str, i: int):
    """Click a free cell (tic-tac-toe) or a column (Connect Four): the agent answers."""
    root = page.page.locator(f"[data-gt-{kind}='{i}']")
    before = page.board(kind, i)
    if kind == "ttt":
        k = before["cells"].index("")
        root.locator(".widget-gridbox > button").nth(k).click()
    else:
        k = 3
        _button(root, "▼").nth(k).click()
    after = page.wait("""([kind, i, status, filled]) => {
        const root = document.querySelector(`[data-gt-${kind}="${i}"]`);
        const now = (root.children[1]?.innerText || '').trim();
        let count;
        if (kind === 'ttt') {
          count = [...root.children[2].children].filter(b => b.textContent.trim()).length;
        } else {
          count = [...root.querySelectorAll('svg circle')]
            .filter(c => (c.getAttribute('fill') || '').toUpperCase() !== '#FFFFFF').length;
        }
        return now !== status && count >= filled + 2 && {status: now, filled: count};
      }""", [kind, i, before["status"], before["filled"]], timeout=WIDGET_TIMEOUT,
        what=f"the {kind} board {i} takes a click on {k} and the agent answers (status was {before['status']!r})")
    if kind == "ttt":
        cells = page.board(kind, i)["cells"]
        assert cells[k] in ("X", "O"), f"the clicked cell {k} is still empty: {cells}"
    assert "agent played" in after["status"].lower() or "win" in after["status"].lower(), after
    # "Why did it play that?" draws what the agent's search saw.
    _button(root, "Why did it play that?").click()
    page.wait("""([kind, i]) => {
        const root = document.querySelector(`[data-gt-${kind}="${i}"]`);
        const img = root.children[5]?.querySelector('img');
        const shown = img && img.getClientRects().length > 0;
        // An agent that records no search (the random agent) says so in words, without a figure.
        return (root.children[4]?.innerText || '').trim() && (!shown || (img.complete && img.naturalWidth > 0));
      }""", [kind, i], timeout=WIDGET_TIMEOUT, what=f"'Why did it play that?' on the {kind} board {i} explains the move")


def _drive_practice(page: NotebookPage, i: int):
    """Check gives feedback; Show solution (when offered) shows the replay of the search."""
    root = page.page.locator(f"[data-gt-practice='{i}']")
    before = page.practice(i)
    assert before["loaded"], f"practice widget {i} shows no figure"
    _button(root, "Check").click()
    page.wait("""([i, fb]) => {
        const text = (document.querySelector(`[data-gt-practice="${i}"]`).children[5]?.innerText || '').trim();
        return text && text !== fb;
      }""", [i, before["feedback"]], timeout=WIDGET_TIMEOUT, what=f"Check in practice widget {i} gives feedback")
    solution = _button(root, "Show solution")
    if solution.is_visible():
        solution.click()
        page.wait("""(i) => {
            const img = document.querySelector(`[data-gt-practice="${i}"]`).children[6]?.querySelector('img');
            return img && img.complete && img.naturalWidth > 0;
          }""", i, timeout=WIDGET_TIMEOUT, what=f"Show solution in practice widget {i} shows the replay")


def test_the_checks_flag_a_failing_cell(lab):
    """The detector itself: an error, a widget that cannot render, and the cells never run."""
    to_run, _ = lab.code_cells(SCRATCH_FAILING)
    page = lab.open(SCRATCH_FAILING)
    try:
        page.run_all(to_run, timeout=RUN_TIMEOUT)
        problems = "\n".join(page.problems(to_run))
        page.screenshot(lab.shots / "detector.png")
    finally:
        lab.done(page)
    assert "code cell 3: error:" in problems and "ZeroDivisionError" in problems, problems
    assert "code cell 2: widget did not render" in problems, problems
    assert "code cell 4 was not run" in problems, problems
    assert "code cell 1" not in problems, problems


def test_a_page_that_never_becomes_ready_times_out_with_the_server_log(lab):
    page = NotebookPage(lab.server, lab.context, "no-such-notebook.ipynb", workspace="missing")
    try:
        with pytest.raises(PageTimeout) as error:
            page.open(timeout=5)
    finally:
        page.close()
    message = str(error.value)
    assert "timed out after 5 s" in message and "server log" in message
    assert "no-such-notebook.ipynb" in message
    assert len(message.splitlines()) > 3  # the log's lines are there
