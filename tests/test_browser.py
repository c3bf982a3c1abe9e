"""The lessons and their widgets in a real browser: JupyterLab driven by headless Chromium.

One JupyterLab server (started and stopped by its own process id, on a free port with a
random token) serves cleared copies of every notebook from a temporary folder; one
Chromium browser (Debian's ``chromium`` package, driven by playwright's Python API)
opens each notebook in turn, runs all cells and checks through the page:

- every cell ran, and no cell shows an error, anything on stderr, or a widget that did
  not render;
- every replay widget shows its sentence and its figure; in the first replay each
  control (step ▶, ◀ back, ↺ reset, next cutoff ✂, the slider's keyboard keys ←/→,
  Home/End, Play and Pause) shows the step it should: the sentence and the step
  counter say that step, and the picture is the one that step showed before;
- every tic-tac-toe board shows the nine cells of the game after every action (a move,
  a taken cell, New game, "Agent starts", "You start"); Connect Four boards take a
  drop and start again empty; "Why did it play that?" is offered only against an
  agent that searches, and draws its search;
- every practice widget's Check gives feedback (a scratch notebook calls
  ``gt.practice(seed=1)``, and also opens its solution);
- the explore widget (lesson 03) shows, after a tree is typed and after each option,
  the message, replay and copied tree that ``gt.explore`` gives in Python, and a
  mistake in the tree as one line;
- nothing spills sideways in the replays of lessons 03, 04, 05 and A2's practice tree
  at 1366x900 (:data:`NO_OVERFLOW`);
- a lesson run, saved, closed and reopened shows its widgets with their pictures, not
  "Error displaying widget: model not found" (widget state saved with the notebook:
  ``jupyterlab-settings/`` in requirements.txt);
- issue 20 (a scratch notebook with one widget of each kind, :data:`SCRATCH_WIDGETS`; screenshots
  in ``$GT_WIDGET_SCREENSHOTS``, else a ``learner_widgets`` folder beside the others): the
  replay's play/pause named in words, pause stays at its step, Tab reaches every control, the
  tree ends on the 900 px screen (also lesson 05's Nim at its longest step); "Why did it play
  that?" follows the agent's latest move and closes on New game; board cells' tooltips name square and mark; a
  practice check never calls a hidden or filled box empty; reopened widgets show "Run the
  cell to use the controls" on their saved picture, without broken-link icons; a fresh
  JupyterLab with the lessons' settings asks no news question.

A screenshot of each notebook (and of each kind of widget in it) is saved to
``$GT_BROWSER_SCREENSHOTS``, or to a pytest temporary folder printed in the output
(``pytest -s`` shows it; a failure message names it too).

Outside CI the test is skipped when Chromium or playwright is missing; ``.ci/run``
installs both and sets ``GT_REQUIRE_BROWSER=1`` so that CI fails instead of skipping (the
fixtures ``chromium`` and ``jupyterlab`` in ``conftest.py``).
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
import time
from pathlib import Path

import browser
import pytest
from browser import JupyterLabServer, NotebookPage, PageTimeout

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
LESSONS = sorted(p.relative_to(NOTEBOOKS).as_posix() for p in NOTEBOOKS.rglob("*.ipynb")
                 if ".ipynb_checkpoints" not in p.parts)

SCRATCH_PRACTICE = "scratch/practice.ipynb"
SCRATCH_FAILING = "scratch/failing.ipynb"

# The widgets whose output areas must not spill sideways at 1366x900 (the list).
NO_OVERFLOW = {"03_alpha_beta.ipynb": "replay", "04_depth_and_evaluation.ipynb": "replay",
               "05_search_enhancements.ipynb": "replay", "assignments/A2_alpha_beta.ipynb": "practice"}
SCRATCH_REOPEN = "scratch/reopen.ipynb"
SCRATCH_MCTS = "scratch/mcts.ipynb"
SCRATCH_WIDGETS = "scratch/learner_widgets.ipynb"  # issue 20: the widgets a learner touches, one of each
VIEWPORT = {"width": 1366, "height": 900}

OPEN_TIMEOUT = 90  # s: JupyterLab loads and the kernel is idle
RUN_TIMEOUT = 240  # s: one notebook's "run all"
WIDGET_TIMEOUT = 60  # s: a widget answers a click (the agent may search)


@pytest.fixture(scope="module")
def lab(jupyterlab, chromium, tmp_path_factory):
    """The session's JupyterLab server (conftest.py) on copies of the notebooks, and one browser context."""
    base = tmp_path_factory.mktemp("browser")
    root = jupyterlab.root
    browser.copy_notebooks(NOTEBOOKS, root)
    browser.copy_notebooks(ROOT / "instructor", root)  # the assignments as instructors run them (answers in)
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
    browser.write_notebook(root / SCRATCH_REOPEN, [
        "%matplotlib inline\nimport gametrees as gt",
        "gt.replay(gt.alphabeta(gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])))",
        "gt.play(gt.TicTacToe(), agent='random', seed=1)",
    ])
    browser.write_notebook(root / SCRATCH_MCTS, [
        "%matplotlib inline\nimport gametrees as gt",
        "T = gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])\n"
        "gt.replay(gt.mcts(T, playouts=12, seed=0))",
    ])
    browser.write_notebook(root / SCRATCH_WIDGETS, [
        "%matplotlib inline\nimport gametrees as gt\nfrom gametrees.games import TicTacToe\n"
        "from gametrees.evaluation import tictactoe_open_lines\nttt = TicTacToe()",
        # lesson 03's random tree and lesson 04's board tree
        "gt.replay(gt.alphabeta(gt.random_tree(3, 3, seed=11, values=(0, 20))))",
        "gt.replay(gt.alphabeta(ttt, ttt.from_string('X.O/.X./O..'), depth=2, evaluate=tictactoe_open_lines,"
        " trace=True), boards=ttt)",
        "gt.play(ttt, agent='minimax', seed=1)",
        "gt.practice(seed=1)",
        # lesson 05's Nim: the tallest tree (480 px) and the longest sentences (step 42)
        "from gametrees.games import Nim\ngt.replay(gt.alphabeta(Nim(6), table=True, trace=True))",
    ])
    shots = Path(os.environ.get("GT_BROWSER_SCREENSHOTS") or base / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    print(f"\nbrowser test: screenshots in {shots}")

    context = chromium.new_context(viewport=VIEWPORT)
    lab = Lab(jupyterlab, context, root, shots)
    try:
        yield lab
    finally:
        with contextlib.suppress(Exception):  # the browser closes anyway
            context.close()
        jupyterlab.shutdown_kernels()


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


IN_JUPYTERLAB = LESSONS + [SCRATCH_PRACTICE]


@pytest.mark.parametrize("path", IN_JUPYTERLAB)
def test_notebook_in_jupyterlab(lab, path):
    t0 = time.monotonic()
    to_run, sources = lab.code_cells(path)
    name = _shot_name(path)
    page = lab.open(path)  # one lesson at a time: the next one run ahead in a page of its own slowed both
    try:
        page.run_all(to_run, timeout=RUN_TIMEOUT)
        ran = time.monotonic() - t0
        problems = page.problems(to_run)
        assert not problems, f"{path}: the page shows problems:\n" + "\n".join(problems)

        found = page.mark_widgets()
        expected = {"replay": _expected(sources, "gt.replay("),
                    "practice": _expected(sources, "gt.practice("),
                    "explore": _expected(sources, "gt.explore(")}
        boards = _expected(sources, "gt.play(")
        assert found["replay"] >= expected["replay"], (
            f"{path}: replay widgets on the page: {found}, cells: {expected}"
        )
        assert found["practice"] >= expected["practice"], (
            f"{path}: practice widgets: {found}, cells: {expected}"
        )
        assert found["ttt"] + found["c4"] >= boards, (
            f"{path}: boards on the page: {found}, cells calling gt.play: {boards}"
        )
        assert found["explore"] >= expected["explore"], f"{path}: explore widgets: {found}, cells: {expected}"
        searching = _board_agents_search(sources)

        for i in range(found["replay"]):
            state = page.replay(i)
            assert state["loaded"] and state["width"] > 50, f"{path}: replay {i} shows no figure: {state}"
            assert state["sentence"], f"{path}: replay {i} shows no explanation"
        # Before any click: what the issue saw spill sideways at 1366 px.
        overflow = []
        if path in NO_OVERFLOW:
            kind = NO_OVERFLOW[path]
            for i in range(found[kind]):
                spill = page.overflow(f"[data-gt-{kind}='{i}']")
                if spill["found"]:
                    overflow.append(f"{kind} {i} (output area {spill['outputWidth']} px): "
                                    + "; ".join(spill["found"]))
        if found["replay"]:
            _drive_replay(page, 0)
        for i in range(found["ttt"]):
            _drive_ttt(page, i, searching[i] if i < len(searching) else True,
                       lab.shots / f"{name}-ttt{i}-playing.png")
        for i in range(found["c4"]):
            _drive_c4(page, i, lab.shots / f"{name}-c4{i}-playing.png")
        for i in range(found["practice"]):
            _drive_practice(page, i)
        for i in range(found["explore"]):
            _drive_explore(page, i)

        # Clicks must not have produced errors either (a failing callback prints to the cell).
        problems = page.problems(to_run)
        assert not problems, f"{path}: after the clicks the page shows problems:\n" + "\n".join(problems)
        assert not page.console_errors, f"{path}: JavaScript errors on the page: {page.console_errors}"

        page.screenshot(lab.shots / f"{name}.png")
        found = page.mark_widgets()  # again: explore replaced its replay at every change
        for kind in ("replay", "ttt", "c4", "practice", "explore"):
            for i in range(found[kind]):
                page.screenshot(lab.shots / f"{name}-{kind}{i}.png", f"[data-gt-{kind}='{i}']")
        assert not overflow, (
            f"{path} at {VIEWPORT['width']}x{VIEWPORT['height']}: sideways overflow:\n" + "\n".join(overflow)
        )
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


def _toggle(root, text):
    """The ipywidgets toggle button (of ToggleButtons) labelled ``text``."""
    return root.locator("button.widget-toggle-button", has_text=re.compile(rf"^\s*{re.escape(text)}\s*$"))


def _replay_at(page: NotebookPage, i: int, step: int, what: str, pictures: dict) -> dict:
    """Wait until replay ``i`` shows ``step``: its sentence and counter, and a loaded picture.

    The picture of a step must be the one shown for that step before (``pictures``:
    step -> pixel fingerprint), so the image follows the control, not only the text.
    """
    try:
        page.wait("""([i, step]) => {
        const root = document.querySelector(`[data-gt-replay="${i}"]`);
        const img = root.querySelector('img');
        const sentence = (root.children[2]?.innerText || '').trim();
        const readout = (root.querySelector('.widget-readout')?.textContent || '').trim();
        const info = (root.children[4]?.innerText || '').trim();
        return sentence.startsWith(`${step}. `) && readout === String(step)
          && info.startsWith(`step ${step} of `) && img && img.complete && img.naturalWidth > 0;
      }""", [i, step], timeout=WIDGET_TIMEOUT, what=f"{what}: replay {i} shows step {step}")
    except AssertionError as error:
        raise AssertionError(f"{error}\nreplay {i} shows {page.replay(i)}") from None
    page.page.wait_for_timeout(150)  # the image element may swap its blob once more
    state = page.replay(i)
    assert state["loaded"] and state["sentence"].startswith(f"{step}. "), (what, state)
    if step in pictures:
        assert state["hash"] == pictures[step], (
            f"{what}: replay {i} at step {step} shows another picture than before"
        )
    pictures[step] = state["hash"]
    return state


def _drive_replay(page: NotebookPage, i: int):
    """Every control of replay ``i``, and after each the step, sentence and picture it must show."""
    root = page.page.locator(f"[data-gt-replay='{i}']")
    first = page.replay(i)
    n = int(re.match(r"step \d+ of (\d+)", first["info"]).group(1))
    assert n >= 4, f"replay {i} has only {n} steps: pick a bigger search for the test"
    pictures = {}
    _replay_at(page, i, 1, "the replay as first shown", pictures)
    _button(root, "step ▶").click()
    _replay_at(page, i, 2, "step ▶", pictures)
    _button(root, "step ▶").click()
    _replay_at(page, i, 3, "step ▶ again", pictures)
    _button(root, "◀ back").click()
    _replay_at(page, i, 2, "◀ back", pictures)
    _button(root, "↺ reset").click()
    first = _replay_at(page, i, 1, "↺ reset", pictures)
    cut = _button(root, "next cutoff ✂")
    if cut.count() and cut.is_enabled():
        cut.click()
        page.wait(f"""() => !document.querySelector('[data-gt-replay="{i}"]').children[2].innerText.trim()
                  .startsWith('1. ')""", timeout=WIDGET_TIMEOUT, what=f"next cutoff ✂ in replay {i} moves on")
        state = page.replay(i)
        k = int(state["readout"])
        _replay_at(page, i, k, "next cutoff ✂", pictures)
        assert re.search(r"\bprun", state["sentence"], re.I), f"next cutoff ✂ stops at {state['sentence']!r}"
        _button(root, "↺ reset").click()
        _replay_at(page, i, 1, "↺ reset after a cutoff", pictures)
    if _button(root, "next playout ▶▶").count():  # Monte Carlo tree search: the next playout's first step
        _drive_next_playout(page, i, pictures)
    # The keyboard, on the slider's handle: ←/→ one step, End the last step, Home the first.
    handle = root.locator(".noUi-handle").first
    handle.focus()
    for key, step in (("ArrowRight", 2), ("ArrowRight", 3), ("ArrowLeft", 2), ("End", n), ("Home", 1)):
        page.page.keyboard.press(key)
        _replay_at(page, i, step, f"the key {key} on the slider", pictures)
    assert pictures[n] != pictures[1], f"replay {i}: the last step shows the picture of the first"
    # Dragging the slider: a click at its middle.
    box = root.locator(".noUi-target").first.bounding_box()
    page.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait(f"""() => document.querySelector('[data-gt-replay="{i}"] .widget-readout').textContent.trim()
                        !== '1'""", timeout=WIDGET_TIMEOUT,
              what=f"a click on the middle of replay {i}'s slider moves it")
    _replay_at(page, i, int(page.replay(i)["readout"]), "a click on the slider", pictures)
    _button(root, "↺ reset").click()
    _replay_at(page, i, 1, "↺ reset after the slider", pictures)
    # Play goes on by itself; the same button pauses (ipywidgets 8: play/pause, then stop).
    root.locator(".widget-play button").first.click()
    page.wait(f"""() => Number(document.querySelector('[data-gt-replay="{i}"] .widget-readout').textContent)
                        >= 3""", timeout=WIDGET_TIMEOUT, what=f"Play in replay {i} moves on by itself")
    root.locator(".widget-play button").first.click()
    page.page.wait_for_timeout(300)
    paused = _replay_at(page, i, int(page.replay(i)["readout"]), "Pause", pictures)
    page.page.wait_for_timeout(1500)  # 2.5 steps at the default speed
    assert page.replay(i)["sentence"] == paused["sentence"], f"replay {i} goes on playing after Pause"


def _mcts_text(page, i):
    """The replay's sentence, its words on the step (the line under it) and its counts."""
    return page.page.evaluate("""(i) => {
      const root = document.querySelector(`[data-gt-replay="${i}"]`);
      return [2, 3, 4].map(k => (root.children[k]?.innerText || '').trim());
    }""", i)


def _drive_next_playout(page: NotebookPage, i: int, pictures: dict):
    """MCTS: "next playout ▶▶" goes to each playout's first step; the sentence, the words and the picture
    say so."""
    root = page.page.locator(f"[data-gt-replay='{i}']")
    nxt = _button(root, "next playout ▶▶")
    sentence, words, info = _mcts_text(page, i)
    assert re.match(r"1\. Playout 1 · expansion: ", sentence), sentence
    assert words.startswith("Playout 1, expansion") and "0 of " in info, (words, info)
    seen = set()
    for playout in (2, 3):
        nxt.click()
        page.wait(f"""() => /^\\d+\\. Playout {playout} · /.test(
                  document.querySelector('[data-gt-replay="{i}"]').children[2].innerText.trim())""",
                  timeout=WIDGET_TIMEOUT, what=f"next playout ▶▶ in replay {i} goes to playout {playout}")
        k = int(page.replay(i)["readout"])
        state = _replay_at(page, i, k, f"next playout ▶▶ (playout {playout})", pictures)
        sentence, words, info = _mcts_text(page, i)
        assert words.startswith(f"Playout {playout}, ") and f"{playout - 1} of " in info, (words, info)
        seen.add(state["hash"])
    assert len(seen) == 2, "next playout ▶▶ shows the same picture for two playouts"
    _button(root, "↺ reset").click()
    _replay_at(page, i, 1, "↺ reset after next playout", pictures)


def _board_agents_search(sources):
    """Per ``gt.play(`` call in the notebook: does its agent search (False for the random agent)?"""
    code = "\n".join("\n".join(line.split("#")[0] for line in s.splitlines()) for s in sources)
    calls = re.findall(r"gt\.play\(([^\n]*)", code)
    return [not re.search(r"""agent\s*=\s*["']random["']|RandomAgent\(|,\s*["']random["']""",
                          c) for c in calls]


_TTT_CELLS = """([i]) => [...document.querySelector(`[data-gt-ttt="${i}"]`).children[2].children]
    .map(b => (b.textContent || '').trim())"""


def _ttt_shows(page: NotebookPage, i: int, expected: list[str], what: str) -> dict:
    """Wait until board ``i`` shows exactly ``expected`` in its nine cells."""
    try:
        page.wait(f"""([i, want]) => {{ const got = ({_TTT_CELLS})([i]);
            return got.length === 9 && got.every((c, k) => c === want[k]); }}""", [i, expected],
                  timeout=15, what=what)
    except AssertionError:
        board = page.board("ttt", i)
        raise AssertionError(f"{what}: tic-tac-toe board {i} shows {board['cells']} (status "
                             f"{board['status']!r}), expected {expected}") from None
    return page.board("ttt", i)


def _agent_cell(status: str) -> int:
    m = re.search(r"agent played cell (\d)", status)
    assert m, f"the status does not say which cell the agent played: {status!r}"
    return int(m.group(1))


def _wait_status(page, kind, i, old, what):
    return page.wait("""([kind, i, old]) => {
        const now = (document.querySelector(`[data-gt-${kind}="${i}"]`).children[1]?.innerText || '').trim();
        return now && now !== old && now; }""", [kind, i, old], timeout=WIDGET_TIMEOUT, what=what)


def _drive_ttt(page: NotebookPage, i: int, searches: bool, shot: Path):
    """Moves, a taken cell, New game, "Agent starts", "You start": the nine cells after each."""
    root = page.page.locator(f"[data-gt-ttt='{i}']")
    cells = root.locator(".widget-gridbox > button")
    board = page.board("ttt", i)
    if board["status"].startswith("You are X"):
        _ttt_shows(page, i, [""] * 9, "the board before any move")
    else:  # the notebook lets the agent start
        expected = [""] * 9
        expected[_agent_cell(board["status"])] = "X"
        _ttt_shows(page, i, expected, "the board after the agent's first move")
        _toggle(root, "You start").click()
        _ttt_shows(page, i, [""] * 9, '"You start"')
    agent = None  # the cell the agent answered the first move with
    for attempt in range(2):  # a move, then New game; the second time, click where the agent played
        k = 4 if attempt == 0 else agent
        status = page.board("ttt", i)["status"]
        cells.nth(k).click()
        status = _wait_status(page, "ttt", i, status, f"the agent answers a click on cell {k}")
        agent = _agent_cell(status)
        expected = [""] * 9
        expected[k], expected[agent] = "X", "O"
        _ttt_shows(page, i, expected, f"a click on cell {k} and the agent's answer")
        # The why button: only for an agent that searched.
        why = _button(root, "Why did it play that?")
        _why_shown(page, why, searches,
                   f"board {i}: 'Why did it play that?' {'hidden' if searches else 'offered'} against "
                   + ("a searching agent" if searches else "the random agent, which searched nothing"))
        if attempt == 0:
            cells.nth(agent).click()  # a taken cell: refused, nothing changes
            _wait_status(page, "ttt", i, status, f"a click on the taken cell {agent} is refused")
            assert page.board("ttt", i)["status"] == f"Cell {agent} is taken: choose an empty cell."
            _ttt_shows(page, i, expected, f"a refused click on the taken cell {agent}")
            if searches:
                why.click()
                page.wait("""(i) => {
                    const root = document.querySelector(`[data-gt-ttt="${i}"]`);
                    const img = root.children[5]?.querySelector('img');
                    return (root.children[4]?.innerText || '').trim() && img
                      && img.getClientRects().length > 0 && img.complete && img.naturalWidth > 0;
                  }""", i, timeout=WIDGET_TIMEOUT,
                          what=f"'Why did it play that?' on board {i} draws the search")
            page.screenshot(shot, f"[data-gt-ttt='{i}']")  # a game under way (and why, if offered)
        _button(root, "New game").click()
        _ttt_shows(page, i, [""] * 9, "New game (the last game's X's and O's must go)")
    status = page.board("ttt", i)["status"]
    _toggle(root, "Agent starts").click()
    status = _wait_status(page, "ttt", i, status, '"Agent starts": the agent opens')
    agent = _agent_cell(status)
    expected = [""] * 9
    expected[agent] = "X"
    _ttt_shows(page, i, expected, '"Agent starts" (only the agent\'s X)')
    k = next(c for c in (4, 0, 8) if c != agent)
    cells.nth(k).click()
    status = _wait_status(page, "ttt", i, status, f"the agent answers a click on cell {k}")
    expected[k], expected[_agent_cell(status)] = "O", "X"
    _ttt_shows(page, i, expected, f"you (O) at cell {k} and the agent's answer")
    _toggle(root, "You start").click()
    _ttt_shows(page, i, [""] * 9, '"You start" (an empty board)')
    _why_shown(page, _button(root, "Why did it play that?"), False,
               "'Why' offered before the agent has moved")


def _why_shown(page, why, shown: bool, what: str):
    """The why button is shown (or hidden) once the board's last update has arrived."""
    try:
        why.wait_for(state="visible" if shown else "hidden", timeout=15_000)
    except Exception:  # playwright's TimeoutError
        raise AssertionError(what) from None
    page.page.wait_for_timeout(300)  # and stays so
    assert why.is_visible() == shown, what


def _drive_c4(page: NotebookPage, i: int, shot: Path):
    """A drop and the agent's answer, then New game: an empty board again."""
    root = page.page.locator(f"[data-gt-c4='{i}']")
    before = page.board("c4", i)
    _button(root, "▼").nth(3).click()
    _wait_status(page, "c4", i, before["status"], f"the Connect Four board {i} takes a drop in column 3")
    page.wait("""([i, n]) => [...document.querySelector(`[data-gt-c4="${i}"]`).querySelectorAll('svg circle')]
        .filter(c => (c.getAttribute('fill') || '').toUpperCase() !== '#FFFFFF').length === n""",
              [i, before["filled"] + 2], timeout=WIDGET_TIMEOUT,
              what=f"Connect Four board {i} shows both new pieces")
    why = _button(root, "Why did it play that?")
    assert why.is_visible()
    why.click()
    page.wait("""(i) => {
        const img = document.querySelector(`[data-gt-c4="${i}"]`).children[5]?.querySelector('img');
        return img && img.complete && img.naturalWidth > 0; }""", i, timeout=WIDGET_TIMEOUT,
              what=f"'Why did it play that?' on Connect Four board {i} draws the search")
    page.screenshot(shot, f"[data-gt-c4='{i}']")
    _button(root, "New game").click()
    page.wait("""(i) => [...document.querySelector(`[data-gt-c4="${i}"]`).querySelectorAll('svg circle')]
        .every(c => (c.getAttribute('fill') || '').toUpperCase() === '#FFFFFF')""", i, timeout=WIDGET_TIMEOUT,
              what=f"New game empties Connect Four board {i}")


def _explore_state(page, i):
    return page.page.evaluate("""(i) => {
        const root = document.querySelector(`[data-gt-explore="${i}"]`);
        const replay = root.children[3].querySelector('.widget-vbox');
        const img = root.children[3].querySelector('img');
        return {message: (root.children[2].innerText || '').trim(),
                copy: root.children[4].querySelector('textarea').value,
                sentence: replay ? (replay.children[2]?.innerText || '').trim() : '',
                info: replay ? (replay.children[4]?.innerText || '').trim() : '',
                loaded: !!img && img.complete && img.naturalWidth > 0, src: img ? img.src : ''};
      }""", i)


def _drive_explore(page: NotebookPage, i: int):
    """Type a tree, change every option: the page shows what gt.explore gives in Python."""
    import gametrees as gt

    root = page.page.locator(f"[data-gt-explore='{i}']")
    tree = root.locator("textarea").first
    text = "[[3, 5], [3, 1], [2, 9, 4]]"
    options = {"algorithm": "alphabeta", "rule": "textbook", "root": "max", "order": "natural"}
    labels = {"minimax": "minimax", "alphabeta": "alpha-beta", "expectimax": "expectimax",
              "textbook": "textbook ≤ / ≥", "strict": "strict < / >", "max": "MAX at the root",
              "min": "MIN at the root", "natural": "natural", "best": "best", "worst": "worst"}

    def check(what, src_before):
        ref = gt.explore(text, **options)  # the same tree and options in Python
        message = html.unescape(re.sub(r"<[^>]+>", "", ref.message.value))
        try:
            page.wait("""([i, message, copy, src]) => {
                const root = document.querySelector(`[data-gt-explore="${i}"]`);
                const img = root.children[3].querySelector('img');
                return (root.children[2].innerText || '').trim() === message
                  && root.children[4].querySelector('textarea').value === copy
                  && img && img.src !== src && img.complete && img.naturalWidth > 0;
              }""", [i, message, ref.copy_field.value, src_before], timeout=WIDGET_TIMEOUT, what=what)
        except AssertionError:
            raise AssertionError(f"{what}: explore {i} shows {_explore_state(page, i)}, expected the message "
                                 f"{message!r} and the tree {ref.copy_field.value!r}") from None
        state = _explore_state(page, i)
        sentence = html.unescape(re.sub(r"<[^>]+>", "", ref.replay.sentence.value))
        assert state["sentence"] == sentence, (
            f"{what}: the replay starts with {state['sentence']!r}, not {sentence!r}"
        )
        assert state["info"].startswith(f"step 1 of {len(ref.replay.trace)}"), (what, state)
        return state["src"]

    src = _explore_state(page, i)["src"]
    tree.fill(text)
    src = check(f"typing {text} into explore {i}", src)
    for option, value in (("rule", "strict"), ("algorithm", "minimax"), ("algorithm", "expectimax"),
                          ("root", "min"), ("order", "best"), ("order", "worst"), ("algorithm", "alphabeta"),
                          ("order", "natural"), ("root", "max"), ("rule", "textbook")):
        options[option] = value
        root.locator("button", has_text=re.compile(rf"^\s*{re.escape(labels[value])}")).first.click()
        src = check(f"choosing {labels[value]!r} in explore {i}", src)
    # A mistake: one line, and the last replay stays.
    tree.fill("[[3, 5], [3")
    page.wait("""(i) => (document.querySelector(`[data-gt-explore="${i}"]`).children[2].innerText || '')
                 .includes('✗')""",
              i, timeout=WIDGET_TIMEOUT, what=f"explore {i} says what is wrong with '[[3, 5], [3'")
    state = _explore_state(page, i)
    assert state["message"].startswith('✗ this is not a tree yet: "[" at column 10 is never closed'), state
    assert "\n" not in state["message"] and "Traceback" not in state["message"], state
    assert state["loaded"] and state["src"] == src, (
        f"explore {i} lost its replay on a typing mistake: {state}"
    )
    tree.fill(text)
    check(f"typing {text} again into explore {i}", src)


def _drive_practice(page: NotebookPage, i: int):
    """Check gives feedback; Show solution (when offered) says to try first while nothing was checked (an
    empty Check is no attempt), and after a Check of an answer shows the replay of the search."""
    root = page.page.locator(f"[data-gt-practice='{i}']")
    before = page.practice(i)
    assert before["loaded"], f"practice widget {i} shows no figure"

    def check(what):
        fb = page.practice(i)["feedback"]
        _button(root, "Check").click()
        page.wait("""([i, fb]) => {
            const text = (document.querySelector(`[data-gt-practice="${i}"]`).children[5]?.innerText || '')
              .trim();
            return text && text !== fb;
          }""", [i, fb], timeout=WIDGET_TIMEOUT, what=f"{what} in practice widget {i} gives feedback")

    check("Check")
    solution = _button(root, "Show solution")
    if solution.is_visible():
        solution.click()
        page.wait("""(i) => (document.querySelector(`[data-gt-practice="${i}"]`).children[6]?.innerText || '')
            .includes('opens after your first attempt')""", i, timeout=WIDGET_TIMEOUT,
                  what=f"Show solution before an attempt in practice widget {i} says to try first")
        boxes = root.locator("input[placeholder]")
        if boxes.count():
            boxes.first.fill("0")
        else:
            root.locator("button[title^='prune the edge']").first.click()
        check("Check of an answer")
        solution.click()
        page.wait("""(i) => {
            const img = document.querySelector(`[data-gt-practice="${i}"]`).children[6]?.querySelector('img');
            return img && img.complete && img.naturalWidth > 0;
          }""", i, timeout=WIDGET_TIMEOUT, what=f"Show solution in practice widget {i} shows the replay")


def test_a_lesson_run_saved_and_reopened_shows_its_widgets(lab):
    """Run, save, close, reopen: every widget shows again with its picture, not "model not found"."""
    to_run, _ = lab.code_cells(SCRATCH_REOPEN)
    page = lab.open(SCRATCH_REOPEN)
    try:
        page.run_all(to_run, timeout=RUN_TIMEOUT)
        assert not page.problems(to_run)
        found = page.mark_widgets()
        assert found["replay"] == 1 and found["ttt"] == 1, found
        page.page.locator("[data-gt-ttt='0'] .widget-gridbox > button").nth(4).click()
        _wait_status(page, "ttt", 0, "You are X and move first: click an empty cell.",
                     "the board takes a click")
        played = page.board("ttt", 0)["cells"]
        page.command("docmanager:save")
        page.wait("() => !document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-mod-dirty')",
                  timeout=30, what="the notebook is saved")
    finally:
        lab.done(page)
    saved = json.loads((lab.root / SCRATCH_REOPEN).read_text(encoding="utf-8"))
    state = saved["metadata"].get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
    shown = [o["data"]["application/vnd.jupyter.widget-view+json"]["model_id"] for c in saved["cells"]
             for o in c.get("outputs", []) if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(shown) == 2 and all(m in state.get("state", {}) for m in shown), (
        f"the saved notebook does not hold the state of its widgets {shown}: saveState is off "
        f"(is jupyterlab-settings installed? pip install -r requirements.txt)")

    page = lab.open(SCRATCH_REOPEN)  # a new page and a new kernel: nothing left from the run
    try:
        page.wait("""() => [...document.querySelectorAll(
                       '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output')]
                   .filter(o => o.querySelector('.jupyter-widgets')
                                || /Error displaying widget/.test(o.innerText))
                   .length >= 2""",
                  timeout=WIDGET_TIMEOUT, what="the reopened notebook's widget outputs render")
        page.settle_images()
        outputs = page.widget_outputs()
        page.mark_widgets()
        board = page.board("ttt", 0)
        page.screenshot(lab.shots / "reopened.png", "[data-gt-replay='0']")
    finally:
        lab.done(page)
    assert len(outputs) == 2, outputs
    for out in outputs:
        assert "model not found" not in out["text"] and "Error displaying widget" not in out["text"], out
        assert out["widget"], out
    assert outputs[0]["images"] and all(outputs[0]["images"]), (
        f"the reopened replay shows no picture: {outputs[0]}"
    )
    assert played.count("") == 7 and board["cells"] == played, (
        f"the reopened board shows {board}, saved {played}"
    )


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


def test_the_mcts_replay_step_by_step(lab):
    """gt.replay(gt.mcts(...)): every control, and after each the step's sentence, words, counts and
    picture."""
    import gametrees as gt

    T = gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    trace = gt.mcts(T, playouts=12, seed=0).trace  # what the page must say, step by step
    to_run, _ = lab.code_cells(SCRATCH_MCTS)
    page = lab.open(SCRATCH_MCTS)
    try:
        page.run_all(to_run, timeout=RUN_TIMEOUT)
        assert not page.problems(to_run)
        assert page.mark_widgets()["replay"] == 1
        root = page.page.locator("[data-gt-replay='0']")
        assert _button(root, "next playout ▶▶").count() == 1 and _button(root, "next cutoff ✂").count() == 0
        pictures = {}
        # step ▶ through the first playout and into the second: each step's own sentence and picture
        for step in range(1, 6):
            _replay_at(page, 0, step, f"step {step}", pictures)
            sentence, words, info = _mcts_text(page, 0)
            e = trace[step - 1]
            assert sentence == f"{step}. {e.text}", (step, sentence)
            phase = dict(select="selection", expand="expansion", playout="playout", backup="backup")[e.kind]
            assert words.startswith(f"Playout {e.playout}, {phase}")
            done = sum(1 for x in trace[:step] if x.kind == "backup")
            assert info.startswith(f"step {step} of {len(trace)} · {done} of 12 playouts done")
            if step < 5:
                _button(root, "step ▶").click()
        assert len(set(pictures.values())) == 5, "two steps of the first playouts show the same picture"
        page.screenshot(lab.shots / "mcts-replay-step5.png")
        _button(root, "◀ back").click()
        _replay_at(page, 0, 4, "◀ back", pictures)
        # a selection step: its sentence names every child's UCB1 score
        k = next(i for i, e in enumerate(trace)
                 if e.kind == "select" and e.playout == 9 and e.parent is not None)
        handle = root.locator(".noUi-handle").first
        handle.focus()
        page.page.keyboard.press("Home")
        _replay_at(page, 0, 1, "Home", pictures)
        for _ in range(k):
            page.page.keyboard.press("ArrowRight")
        _replay_at(page, 0, k + 1, "→ to the selection at D", pictures)
        sentence, words, info = _mcts_text(page, 0)
        assert "selection at D (MIN, 4 visits" in sentence and "1.41·√(ln 4 / 1)" in sentence, sentence
        page.screenshot(lab.shots / "mcts-replay-selection.png")
        _button(root, "↺ reset").click()
        _replay_at(page, 0, 1, "↺ reset", pictures)
        _drive_replay(page, 0)   # every other control: reset, keys, the slider, Play and Pause, next playout
        page.screenshot(lab.shots / "mcts-replay.png", "[data-gt-replay='0']")
    finally:
        lab.done(page)


# ---------------------------------------------------------------------------------------
# Issue 20: what a learner touches (scratch/learner_widgets.ipynb: one widget of each kind)
# ---------------------------------------------------------------------------------------

def _shots(lab) -> Path:
    """Where issue 20's screenshots go: $GT_WIDGET_SCREENSHOTS, else beside the others."""
    return Path(os.environ.get("GT_WIDGET_SCREENSHOTS") or lab.shots / "learner_widgets")

_JS_FOCUS = """
(sel) => {
  const root = document.querySelector(sel);
  const el = document.activeElement;
  if (!el || !root.contains(el)) return null;
  const name = el.getAttribute('aria-label') || el.getAttribute('title') || (el.innerText || '').trim()
    || el.getAttribute('placeholder') || el.className;
  return el.tagName.toLowerCase() + ':' + name;
}
"""

_JS_CONTROLS = """
(sel) => {
  const root = document.querySelector(sel);
  const visible = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 &&
                          getComputedStyle(el).visibility !== 'hidden'; };
  return [...root.querySelectorAll('button, input, select, textarea, [tabindex="0"]')]
    .filter(el => visible(el) && !el.disabled).length;
}
"""


def _learner_widgets_page(lab):
    to_run, _ = lab.code_cells(SCRATCH_WIDGETS)
    page = lab.open(SCRATCH_WIDGETS)
    page.run_all(to_run, timeout=RUN_TIMEOUT)
    problems = page.problems(to_run)
    assert not problems, "\n".join(problems)
    found = page.mark_widgets()
    assert found["replay"] == 3 and found["ttt"] == 1 and found["practice"] == 1, found
    return page


@pytest.fixture(scope="module")
def learner_widgets(lab):
    """The scratch notebook of a learner's widgets, run once for the four tests that drive it: each drives
    a widget of its own (the replays, the board, the practice widget), the last saves and reopens the
    notebook."""
    page = _learner_widgets_page(lab)
    yield page
    with contextlib.suppress(Exception):  # closed already by the test that reopens it
        lab.done(page)


def _tab_through(page, sel, first, presses=40):
    """Focus ``first`` (a locator) and press Tab: the controls inside ``sel`` reached, in order."""
    first.focus()
    reached = [page.page.evaluate(_JS_FOCUS, sel)]
    for _ in range(presses):
        page.page.keyboard.press("Tab")
        now = page.page.evaluate(_JS_FOCUS, sel)
        if now is None:
            break
        reached.append(now)
    return reached


def test_replay_controls_are_named_pause_where_they_are_and_fit_one_screen(lab, learner_widgets):
    page = learner_widgets
    for i in (0, 1):
        sel = f"[data-gt-replay='{i}']"
        root = page.page.locator(sel)
        # The replay's top at the top of the notebook area: step buttons, sentence and tree in view.
        page.screenshot(_shots(lab) / f"replay{i}-1366x900.png", sel)
        box = page.page.evaluate("""(sel) => {
            const r = document.querySelector(sel); const img = r.querySelector('img');
            return {top: r.getBoundingClientRect().top, bottom: img.getBoundingClientRect().bottom,
                    sentence: r.children[2].getBoundingClientRect().bottom, h: window.innerHeight}; }""", sel)
        assert box["bottom"] <= box["h"], (f"replay {i}: the tree ends at y = {box['bottom']:.0f}, below the "
                                           f"900 px screen (widget top at {box['top']:.0f})")
        # Play/pause has a name in words; the stop button (back to step 1) is not offered.
        play = root.get_by_role("button", name=re.compile(r"^\W*play$"))
        assert play.count() == 1 and play.is_visible(), "the play button has no accessible name 'play'"
        assert root.locator(".widget-play button:visible").count() == 1
        start = page.replay(i)
        play.click()
        page.wait("""(sel) => (document.querySelector(sel).querySelector('.widget-readout')?.textContent
                               || '1')
                     .trim() !== '1'""", sel, timeout=WIDGET_TIMEOUT, what=f"replay {i} plays")
        pause = root.get_by_role("button", name=re.compile(r"^\W*pause$"))
        assert pause.count() == 1, "while playing the button is named 'pause'"
        pause.click()
        page.page.wait_for_timeout(1500)
        at = page.replay(i)
        step = int(at["readout"])
        assert step > 1, f"replay {i}: pause went back to step 1 ({at})"
        page.page.wait_for_timeout(1500)
        assert page.replay(i)["readout"] == at["readout"], "the replay goes on after pause"
        page.page.wait_for_function(
            "([sel, s]) => document.querySelector(sel).children[2].innerText.trim().length > 0",
            arg=[sel, step])
        assert root.get_by_role("button", name=re.compile(r"^\W*play$")).count() == 1
        box = page.page.evaluate("""(sel) => { const r = document.querySelector(sel);
            return {bottom: r.querySelector('img').getBoundingClientRect().bottom, h: window.innerHeight};
          }""", sel)
        page.screenshot(_shots(lab) / f"replay{i}-paused-1366x900.png", sel)
        box = page.page.evaluate("""(sel) => { const r = document.querySelector(sel);
            return {bottom: r.querySelector('img').getBoundingClientRect().bottom, h: window.innerHeight};
          }""", sel)
        assert box["bottom"] <= box["h"], (
            f"replay {i} at step {step}: the tree ends at y = {box['bottom']:.0f}"
        )
        # Tab reaches every control of the replay, in order, from the play button.
        reached = _tab_through(page, sel, root.get_by_role("button", name=re.compile(r"^\W*play$")))
        controls = page.page.evaluate(_JS_CONTROLS, sel)
        assert len(set(reached)) >= controls, f"replay {i}: Tab reached {reached}, of {controls} controls"
        assert start["sentence"]
    # Lesson 05's Nim at its longest sentence: the tree still ends on the screen.
    sel = "[data-gt-replay='2']"
    handle = page.page.locator(f"{sel} .noUi-handle").first
    handle.focus()
    handle.press("Home")
    for _ in range(41):
        handle.press("ArrowRight")
    page.wait("(sel) => (document.querySelector(sel).querySelector('.widget-readout')?.textContent || '')"
              ".trim() === '42'", sel, timeout=WIDGET_TIMEOUT, what="the Nim replay shows step 42")
    page.wait("(sel) => document.querySelector(sel).children[2].innerText.trim().startsWith('42.')", sel,
              timeout=WIDGET_TIMEOUT, what="step 42's sentence")
    page.screenshot(_shots(lab) / "replay-nim-step42-1366x900.png", sel)
    box = page.page.evaluate("""(sel) => { const r = document.querySelector(sel);
        return {bottom: r.querySelector('img').getBoundingClientRect().bottom, h: window.innerHeight,
                text: r.children[2].innerText + ' | ' + r.children[3].innerText}; }""", sel)
    assert box["bottom"] <= box["h"], (
        f"the Nim replay at step 42: the tree ends at y = {box['bottom']:.0f} ({box['text']})"
    )


def test_why_panel_follows_the_latest_move_and_cells_have_names(lab, learner_widgets):
    page = learner_widgets
    sel = "[data-gt-ttt='0']"
    root = page.page.locator(sel)
    # Every cell's tooltip (its accessible description) names its square and what is on it.
    titles = lambda: root.locator(".widget-gridbox > button").evaluate_all("bs => bs.map(b => b.title)")  # noqa: E731
    assert titles()[0] == "cell 0 (a1): empty" and titles()[4] == "cell 4 (b2): empty", titles()
    root.locator(".widget-gridbox > button").nth(0).click()
    status = _wait_status(page, "ttt", 0, "You are X and move first: click an empty cell.",
                          "the agent answers")
    played = re.search(r"The agent played cell (\d)", status).group(1)
    root.get_by_role("button", name="Why did it play that?").click()
    why = lambda: page.page.evaluate("(sel) => document.querySelector(sel).children[4].innerText.trim()", sel)  # noqa: E731
    page.wait("(sel) => document.querySelector(sel).children[4].innerText.trim().length > 0", sel,
              timeout=WIDGET_TIMEOUT, what="the why panel opens")
    first = why()
    assert first.startswith(f"Why minimax (O) played cell {played} ("), first
    page.screenshot(_shots(lab) / "why-first-move.png", sel)
    empty = root.locator(".widget-gridbox > button", has_text=re.compile(r"^\s*$")).first
    empty.click()
    status = _wait_status(page, "ttt", 0, status, "the agent answers again")
    later = re.search(r"The agent played cell (\d)", status)
    assert later, status
    page.wait("([sel, old]) => document.querySelector(sel).children[4].innerText.trim() !== old",
              [sel, first],
              timeout=WIDGET_TIMEOUT, what="the open why panel follows the agent's latest move")
    assert why().startswith(f"Why minimax (O) played cell {later.group(1)} ("), why()
    marks = page.board("ttt", 0)["cells"]
    assert titles() == [f"cell {i} ({'abc'[i % 3]}{i // 3 + 1}): {m or 'empty'}"
                        for i, m in enumerate(marks)], titles()
    page.screenshot(_shots(lab) / "why-follows.png", sel)
    root.get_by_role("button", name="New game").click()
    page.wait("(sel) => document.querySelector(sel).children[4].innerText.trim() === ''", sel,
              timeout=WIDGET_TIMEOUT, what="New game closes the why panel")
    # Tab reaches every control of the board: the two start toggles, New game, the nine cells.
    reached = _tab_through(page, sel, root.get_by_role("button", name="You start"))
    controls = page.page.evaluate(_JS_CONTROLS, sel)
    assert len(set(reached)) >= controls, f"the board: Tab reached {reached}, of {controls} controls"


def test_practice_never_calls_a_hidden_or_filled_box_empty(lab, learner_widgets):
    page = learner_widgets
    sel = "[data-gt-practice='0']"
    root = page.page.locator(sel)
    root.locator("input[placeholder='A']").fill("12")
    root.locator("input[placeholder='B']").fill("3")
    root.locator("input[placeholder='B']").press("Tab")
    root.locator("button[title^='prune the edge A–B']").click()
    page.wait("(sel) => getComputedStyle(document.querySelector(sel)"
              ".querySelector(\"input[placeholder='B']\")"
              ".closest('.widget-text')).visibility === 'hidden'", sel, timeout=WIDGET_TIMEOUT,
              what="the cut hides B's box")
    _button(root, "Check").click()
    page.wait("(sel) => document.querySelector(sel).children[5].innerText.trim().length > 0", sel,
              timeout=WIDGET_TIMEOUT, what="Check gives feedback")
    feedback = page.practice(0)["feedback"]
    page.screenshot(_shots(lab) / "practice-cut.png", sel)
    empty = re.search(r"Still empty: ([^.]*)\.", feedback)
    named = empty.group(1).replace(" and ", ", ").split(", ") if empty else []
    shown = page.page.evaluate("""(sel) => [...document.querySelectorAll(sel + ' .widget-text')]
        .filter(t => getComputedStyle(t).visibility !== 'hidden')
        .map(t => [t.querySelector('input').placeholder, t.querySelector('input').value])""", sel)
    shown = dict(shown)
    for label in named:  # every box the check calls empty is on the page, and empty
        assert label in shown and shown[label] == "", (label, shown, feedback)
    assert "B" not in named and "A" not in named, feedback
    assert "B is under your ✂ on A–B, so its box is hidden and not checked" in feedback, feedback
    # Tab reaches every control the page shows: settings, every ✂ and box, Check, Show solution, Clear.
    reached = _tab_through(page, sel, root.locator("select").first, presses=80)
    controls = page.page.evaluate(_JS_CONTROLS, sel)
    assert len(set(reached)) >= controls, (
        f"the practice widget: Tab reached {len(set(reached))} of {controls}: {reached}"
    )


def test_reopened_widgets_say_run_the_cell_and_keep_their_pictures(lab, learner_widgets):
    from gametrees.widgets.output import OFFLINE_NOTE

    page = learner_widgets
    try:
        live = page.page.evaluate("""() => [...document.querySelectorAll('.gt-note')]
            .filter(n => n.getBoundingClientRect().height > 0).length""")
        assert live == 0, "the 'run the cell' line shows while the widgets are live"
        page.command("docmanager:save")
        page.wait("() => !document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-mod-dirty')",
                  timeout=30, what="the notebook is saved")
    finally:
        lab.done(page)
    page = lab.open(SCRATCH_WIDGETS)  # not run: the saved widgets, no kernel behind them
    try:
        page.wait("() => document.querySelectorAll('.gt-widget').length >= 5", timeout=WIDGET_TIMEOUT,
                  what="the saved widgets render")
        page.settle_images()
        notes = page.page.evaluate("""() => [...document.querySelectorAll('.gt-widget')]
            .filter(w => !w.parentElement.closest('.gt-widget'))
            .map(w => ({note: [...w.querySelectorAll(':scope > .gt-note')]
                          .map(n => n.getBoundingClientRect().height > 0 ? n.innerText.trim() : '').join('|'),
                        cells: w.querySelectorAll('.widget-gridbox > button').length,
                        images: [...w.querySelectorAll('img')]
                          .filter(i => i.getBoundingClientRect().width > 0)
                          .map(i => i.complete && i.naturalWidth > 0),
                        icons: [...w.querySelectorAll('.jupyter-widgets-disconnected')]
                          .filter(e => !['none', ''].includes(getComputedStyle(e, '::before').content)
                                       && getComputedStyle(e, '::before').content !== 'normal').length}))""")
        page.page.locator("[data-gt-replay='0'], .gt-widget").first.evaluate(
            "el => el.scrollIntoView({block: 'start'})")
        page.screenshot(_shots(lab) / "reopened.png")
    finally:
        lab.done(page)
    assert len(notes) == 5, notes  # three replays, the board, the practice widget
    for w in notes:
        assert w["note"] == OFFLINE_NOTE, w
        # the picture: the figure of a replay or a practice tree, the nine cells of the board
        assert (w["images"] and all(w["images"])) or w["cells"] == 9, (
            f"a reopened widget lost its picture: {w}"
        )
        assert w["icons"] == 0, f"broken-link icons still shown: {w}"


def test_no_news_pop_up_with_the_lessons_settings(lab, tmp_path):
    """A fresh server (no answer to the question stored yet): the lessons' settings turn the news off.

    (The module's server is no use here: opening a page there clicks the toasts away, and
    answering the question stores the answer in its user settings.)
    """
    root = tmp_path / "notebooks"
    browser.write_notebook(root / "a.ipynb", ["1 + 1"])
    server = JupyterLabServer(root, tmp_path)
    server.start(timeout=OPEN_TIMEOUT)
    try:
        page = NotebookPage(server, lab.context, "a.ipynb", workspace="news")
        page.page.goto(page.url, wait_until="domcontentloaded", timeout=OPEN_TIMEOUT * 1000)
        page.wait("() => window.jupyterapp && document.querySelector('.jp-NotebookPanel .jp-Cell')",
                  timeout=OPEN_TIMEOUT, what="the notebook is open")
        page.page.wait_for_timeout(8000)  # the question comes a moment after start-up (within 5 s here)
        toasts = page.page.evaluate(
            "() => [...document.querySelectorAll('.Toastify__toast')].map(t => t.innerText)")
        page.screenshot(_shots(lab) / "no-news.png")
        page.close()
    finally:
        server.stop()
    assert not any("news" in t.lower() for t in toasts), toasts


# ----------------------------------------------------------------------------
# Issue 22: the lessons as stored (for readers: no widget views), opened in JupyterLab
# ----------------------------------------------------------------------------

_JS_STORED = """() => [...document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output')]
  .filter(o => o.querySelector('img, .jupyter-widgets')
               || /model not found|Error displaying/.test(o.innerText))
  .map(o => ({mime: o.getAttribute('data-mime-type'), player: !!o.querySelector('.gt-player'),
              widget: !!o.querySelector('.jupyter-widgets'),
              buttons: o.querySelectorAll('button, input').length,
              note: (o.querySelector('.gt-note') || {}).innerText || null,
              static: (o.querySelector('.gt-static-note') || {}).innerText || null,
              sentence: (o.querySelector('.gt-sentence') || {}).innerText || null,
              images: [...o.querySelectorAll('img')].map(i => i.complete && i.naturalWidth > 0),
              text: o.innerText.slice(0, 200)}))"""


def _stored_outputs(path):
    """The replays and other widget outputs of a stored notebook, by their text."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    texts = ["".join(o["data"].get("text/plain", "")) for c in nb["cells"] for o in c.get("outputs",
                                                                                          []) if "data" in o]
    return [t for t in texts if t.startswith("Replay(")], [t for t in texts if t.startswith(("Board(",
                                                                                             "Explore("))]


def test_stored_lessons_show_the_finished_search_until_run(lab):
    """A stored lesson opened as it comes (not trusted, not run): every replay shows its finished search
    with the line saying to run the cell, and no control; after running one cell and saving, reopened, the
    same (never "model not found"); after Run All, the live widgets."""
    from gametrees.widgets.player import STATIC_NOTE

    for name in ("03_alpha_beta.ipynb", "00_start_here.ipynb"):
        (lab.root / "stored").mkdir(exist_ok=True)
        (lab.root / "stored" / name).write_bytes((NOTEBOOKS / name).read_bytes())
    replays, others = _stored_outputs(NOTEBOOKS / "03_alpha_beta.ipynb")
    assert len(replays) == 2 and len(others) == 1

    def check(outputs, replays, where):
        players = [o for o in outputs if o["player"] and not o["static"]]
        assert len(players) == len(replays), f"{where}: {outputs}"
        for o in outputs:
            if o["static"]:  # a board, an explorer: the saved picture (player) under a line saying to run it
                assert o["static"].startswith("The ") and "run the cell" in o["static"], f"{where}: {o}"
                assert o["buttons"] == 0 and o["images"] and all(o["images"]), f"{where}: {o}"
        for o, text in zip(players, replays):
            steps = re.match(r"Replay\(\w+: (\d+) steps", text).group(1)
            assert o["note"] == STATIC_NOTE and o["buttons"] == 0, f"{where}: {o}"
            assert o["sentence"].startswith(f"{steps}. The search is over"), f"{where}: {o}"
            assert o["images"] and all(o["images"]), f"{where}: a replay shows no picture: {o}"
        for o in outputs:
            assert "model not found" not in o["text"] and "Error displaying" not in o["text"], f"{where}: {o}"
            assert not o["widget"], f"{where}: a widget view where no kernel drives it: {o}"

    page = lab.open("stored/03_alpha_beta.ipynb")
    try:
        page.wait("() => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .gt-player')"
                  ".length >= 3",
                  timeout=WIDGET_TIMEOUT, what="the stored replays render")
        page.settle_images()
        outputs = page.page.evaluate(_JS_STORED)
        page.screenshot(_shots(lab) / "stored-03.png", ".gt-player")
    finally:
        lab.done(page)
    check(outputs, replays, "stored lesson 03 as it comes")
    assert sum(1 for o in outputs if o["static"]) == len(others), outputs

    replays, _ = _stored_outputs(NOTEBOOKS / "00_start_here.ipynb")
    page = lab.open("stored/00_start_here.ipynb")
    try:  # run the first cell only, save, close
        page.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell").first.click()
        page.command("notebook:run-cell")
        page.wait("() => /\\[1\\]/.test(document.querySelector("
                  "'.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt').textContent)",
                  timeout=WIDGET_TIMEOUT, what="the first cell ran")
        page.command("docmanager:save")
        page.wait("() => !document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-mod-dirty')",
                  timeout=30, what="the notebook is saved")
    finally:
        lab.done(page)
    page = lab.open("stored/00_start_here.ipynb")
    try:
        page.wait("() => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .gt-player')"
                  ".length >= 1",
                  timeout=WIDGET_TIMEOUT, what="the reopened replay renders")
        page.settle_images()
        check(page.page.evaluate(_JS_STORED), replays, "lesson 00 run in part, saved and reopened")
        to_run, _ = lab.code_cells("stored/00_start_here.ipynb")
        page.run_all(to_run, timeout=RUN_TIMEOUT)
        found = page.mark_widgets()
        live = page.page.evaluate(_JS_STORED)
    finally:
        lab.done(page)
    assert found["replay"] == len(replays), found
    assert not any(o["player"] for o in live) and any(o["widget"] for o in live), live
