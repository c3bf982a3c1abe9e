"""Drive JupyterLab in a real browser: a server on its own process, and checks through the page.

Used by ``tests/test_browser.py``. :class:`JupyterLabServer` starts ``jupyter lab`` on
127.0.0.1 with a random token and a free port, on a temporary folder holding *copies* of
the notebooks (outputs and execution counts cleared, so everything on the page comes from
this run), with the lessons' default settings from ``jupyterlab-settings/overrides.d`` (no
news pop-up, widget state saved) and server extension (the saved state kept on every save),
its own user settings (no windowing: every cell is in the DOM) and workspaces, and stops it
by its process id (its whole process group).
:class:`NotebookPage` opens a notebook in a page of Debian's Chromium (driven by
playwright's Python API), runs all cells and reads the results back from the DOM.

Nothing here downloads a browser: Chromium is ``/usr/bin/chromium`` (``apt-get install -y
chromium``), or ``$GT_CHROMIUM``.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

CHROMIUM = os.environ.get("GT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
INSTALL_HINT = "install Debian's chromium: apt-get install -y chromium; pip install playwright"

# The lessons' default settings (no news pop-up, widget state saved with the notebook), as this
# checkout has them: the test server reads them from here, not from what pip installed.
OVERRIDES = Path(__file__).resolve().parents[1] / "jupyterlab-settings" / "overrides.d"
# ... and its server extension that keeps the saved widget state on every save (enabled by a file
# under jupyter-config, importable from the folder): this checkout's, as for the settings.
SERVER_EXTENSION = OVERRIDES.parent

# JupyterLab user settings for the test server (JSON; JupyterLab reads them as JSON5).
_SETTINGS = {
    # Every cell stays in the DOM (no virtual scrolling), so the page can be checked whole.
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    # The copies are scratch files: no autosave.
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
}


def browser_missing() -> str | None:
    """Why the browser test cannot run here (``None`` if it can)."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return f"no Chromium at {CHROMIUM}: {INSTALL_HINT}"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return f"playwright is not installed: {INSTALL_HINT}"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cleared_copy(src: Path, dst: Path) -> None:
    """Copy a notebook without outputs or execution counts."""
    nb = json.loads(src.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(json.dumps(nb, indent=1, ensure_ascii=False), encoding="utf-8")


def write_notebook(path: Path, sources: list[str]) -> None:
    """A small notebook of code cells (a scratch notebook for the test)."""
    nb = {
        "cells": [{"cell_type": "code", "metadata": {}, "source": s, "outputs": [], "execution_count": None}
                  for s in sources],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb, indent=1), encoding="utf-8")


class PageTimeout(AssertionError):
    pass


class JupyterLabServer:
    """``jupyter lab`` on 127.0.0.1:<free port> with a random token, serving ``root``.

    ``start()`` waits (``timeout`` seconds) until ``/api/status`` answers; ``stop()`` ends
    the server's process group (SIGTERM, then SIGKILL) and waits for it.
    """

    def __init__(self, root: Path, home: Path):
        self.root = Path(root)
        self.home = Path(home)
        self.port = free_port()
        self.token = secrets.token_hex(24)
        self.log_path = self.home / "jupyterlab.log"
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_tail(self, n: int = 50) -> str:
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return "(no server log)"
        return "\n".join(lines[-n:])

    def start(self, timeout: float = 60) -> None:
        settings = self.home / "lab-settings"
        for name, values in _SETTINGS.items():
            path = settings / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values), encoding="utf-8")
        app_settings = self.home / "app-settings"  # JupyterLab's defaults: the lessons' overrides.d
        shutil.copytree(OVERRIDES, app_settings / "overrides.d", dirs_exist_ok=True)
        env = dict(os.environ)
        env.pop("MPLBACKEND", None)  # the kernels draw inline figures
        env.update(
            JUPYTERLAB_SETTINGS_DIR=str(settings),
            JUPYTERLAB_WORKSPACES_DIR=str(self.home / "lab-workspaces"),
            JUPYTER_RUNTIME_DIR=str(self.home / "runtime"),
            PYTHONUNBUFFERED="1",
            JUPYTER_CONFIG_PATH=os.pathsep.join(filter(None, [str(SERVER_EXTENSION / "jupyter-config"),
                                                              env.get("JUPYTER_CONFIG_PATH")])),
            PYTHONPATH=os.pathsep.join(filter(None, [str(SERVER_EXTENSION), env.get("PYTHONPATH")])),
        )
        cmd = [
            sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={self.port}",
            "--ServerApp.port_retries=0", f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root}", "--allow-root",
            "--LabApp.expose_app_in_browser=True",  # window.jupyterapp: run commands by id
            f"--LabApp.app_settings_dir={app_settings}",
        ]
        with open(self.log_path, "wb") as log:
            # A new session: the server and its kernels form one process group, stopped together.
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env,
                                         cwd=self.root, start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter lab exited with code {self.proc.returncode}; server log:\n"
                                   f"{self.log_tail()}")
            try:
                with urllib.request.urlopen(self.api_request("status"), timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise PageTimeout(f"jupyter lab did not answer /api/status within {timeout:.0f} s; "
                                  f"last 50 lines of the server log:\n{self.log_tail()}")
            time.sleep(0.2)

    def api_request(self, path: str, method: str = "GET") -> urllib.request.Request:
        return urllib.request.Request(f"{self.url}/api/{path}", method=method,
                                      headers={"Authorization": f"token {self.token}"})

    def api(self, path: str, method: str = "GET"):
        with urllib.request.urlopen(self.api_request(path, method), timeout=10) as r:
            body = r.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> None:
        """Shut down every kernel (one per opened notebook), so they do not pile up."""
        for kernel in self.api("kernels"):
            try:
                self.api(f"kernels/{kernel['id']}", method="DELETE")
            except urllib.error.HTTPError:
                pass

    def stop(self) -> None:
        stop_group(self.proc)


def stop_group(proc: subprocess.Popen | None, grace: float = 15) -> None:
    """End a server started with ``start_new_session=True``: SIGTERM to its process group, ``grace``
    seconds to finish, then SIGKILL; and SIGKILL once more, so that no kernel outlives its server."""
    if proc is None or proc.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(wait)
            break
        except subprocess.TimeoutExpired:
            continue
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


# ---------------------------------------------------------------------------------------
# Reading the page
# ---------------------------------------------------------------------------------------

# Cells as the page shows them: prompt ("[3]:", "[*]:", "[ ]:"), and what is wrong in the outputs.
_JS_CELLS = """
() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  if (!panel) return null;
  return [...panel.querySelectorAll('.jp-Notebook .jp-CodeCell')].map(cell => {
    const prompt = (cell.querySelector('.jp-InputPrompt')?.textContent || '').trim();
    const problems = [];
    for (const out of cell.querySelectorAll('.jp-OutputArea-output')) {
      const mime = out.getAttribute('data-mime-type') || '';
      const text = out.innerText || '';
      if (mime === 'application/vnd.jupyter.stderr' || mime === 'application/vnd.jupyter.error') {
        problems.push((/Traceback|Error\\b/.test(text) ? 'error: ' : 'stderr: ') + text.slice(0, 1500));
      }
      if (/Error displaying widget|Error rendering|model not found|Loading widget\\.\\.\\./.test(text)) {
        problems.push('widget did not render: ' + text.slice(0, 300));
      }
      if (mime === 'application/vnd.jupyter.widget-view+json' && !out.querySelector('.jupyter-widgets')) {
        problems.push('widget output without a rendered widget: ' + text.slice(0, 300));
      }
    }
    return {prompt, problems};
  });
}
"""

# Mark the widgets of interest with data attributes (found by their structure, see
# gametrees/widgets/replay_widget.py, board_widget.py and practice_widget.py) and count them.
_JS_MARK = """
() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  const text = el => (el.textContent || '').trim();
  const buttons = [...panel.querySelectorAll('button.widget-button')];
  const mark = (roots, attr) => {
    roots.forEach((r, i) => r.setAttribute(attr, String(i)));
    return roots.length;
  };
  const uniq = xs => [...new Set(xs.filter(Boolean))];
  // Replay: VBox[controls HBox(Play, reset, back, step, next cutoff), sliders, sentence, window, info,
  // image box]
  const replays = uniq(buttons.filter(b => text(b) === 'step ▶').map(b => b.parentElement?.parentElement));
  // Board (tic-tac-toe): VBox[top, status, GridBox of 9 cell buttons, why, why text, why image]
  const ttt = uniq([...panel.querySelectorAll('.widget-gridbox')]
    .filter(g => g.children.length === 9 && [...g.children].every(c => c.matches('button.widget-button')))
    .map(g => g.parentElement));
  // Board (Connect Four): VBox[top, status, VBox[HBox of ▼ buttons, picture], ...]
  const c4 = uniq(buttons.filter(b => text(b) === '▼')
    .map(b => b.parentElement?.parentElement?.parentElement));
  // Practice: VBox[settings, roles, question, figure, HBox(Check, Show solution, Clear), feedback, solution]
  const practice = uniq(buttons.filter(b => text(b) === 'Check' && b.parentElement &&
    [...b.parentElement.children].some(s => text(s) === 'Clear')).map(b => b.parentElement.parentElement));
  // Explore: VBox[tree Textarea, options, message, Box[Replay], copy-tree Textarea]
  const explore = uniq([...panel.querySelectorAll('.widget-textarea')]
    .filter(t => text(t.querySelector('label') || t) === 'copy tree').map(t => t.parentElement));
  return {replay: mark(replays, 'data-gt-replay'), ttt: mark(ttt, 'data-gt-ttt'),
          c4: mark(c4, 'data-gt-c4'), practice: mark(practice, 'data-gt-practice'),
          explore: mark(explore, 'data-gt-explore')};
}
"""

_JS_REPLAY = """
(i) => {
  const root = document.querySelector(`[data-gt-replay="${i}"]`);
  const img = root.querySelector('img');
  let hash = 0;
  if (img && img.complete && img.naturalWidth > 0) {
    // A fingerprint of the pixels: the same step must show the same picture.
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    for (let k = 0; k < data.length; k += 4) {
      hash = (Math.imul(hash, 31) + data[k] + 3 * data[k + 1] + 7 * data[k + 2]) | 0;
    }
  }
  return {sentence: (root.children[2]?.innerText || '').trim(), src: img ? img.src : '',
          loaded: !!img && img.complete && img.naturalWidth > 0, hash,
          readout: (root.querySelector('.widget-readout')?.textContent || '').trim(),
          info: (root.children[4]?.innerText || '').trim(),
          width: img ? img.naturalWidth : 0, height: img ? img.naturalHeight : 0};
}
"""

# Does anything in a widget's output area spill sideways (needs a horizontal scroll bar, or is cut)?
_JS_OVERFLOW = """
(selector) => {
  const root = document.querySelector(selector);
  const out = root.closest('.jp-OutputArea-output') || root;
  const right = out.getBoundingClientRect().right;
  const name = el => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string'
    ? '.' + el.className.trim().split(/\\s+/).slice(0, 2).join('.') : '');
  const found = [];
  for (const el of [out, ...out.querySelectorAll('*')]) {
    const r = el.getBoundingClientRect();
    if (!r.width) continue;
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') {
      found.push(`${name(el)} scrolls sideways: content ${el.scrollWidth} px in ${el.clientWidth} px`);
    }
    if (r.right > right + 1) {
      found.push(`${name(el)} ends at x = ${Math.round(r.right)}, ` +
                 `past the output area (${Math.round(right)})`);
    }
  }
  return {found: found.slice(0, 5), outputWidth: Math.round(out.getBoundingClientRect().width)};
}
"""

# Is the text shown by a widget's output area free of render errors, and its pictures loaded?
_JS_SAVED_OUTPUTS = """
() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  // (Outputs restored from a saved notebook carry no data-mime-type: find them by what they show.)
  return [...panel.querySelectorAll('.jp-OutputArea-output')]
    .filter(out => out.querySelector('.jupyter-widgets') ||
                   /widget|model not found/i.test(out.innerText || ''))
    .filter(out => !out.parentElement.closest('.jp-OutputArea-output'))
    .map(out => ({text: (out.innerText || '').slice(0, 200),
                  widget: !!out.querySelector('.jupyter-widgets'),
                  images: [...out.querySelectorAll('img')]
                    .map(img => img.complete && img.naturalWidth > 0)}));
}
"""

_JS_BOARD = """
([kind, i]) => {
  const root = document.querySelector(`[data-gt-${kind}="${i}"]`);
  const status = (root.children[1]?.innerText || '').trim();
  if (kind === 'ttt') {
    const cells = [...root.children[2].children].map(b => (b.textContent || '').trim());
    return {status, cells, filled: cells.filter(c => c).length};
  }
  const svg = root.querySelector('svg');
  const filled = svg ? [...svg.querySelectorAll('circle')]
    .filter(c => (c.getAttribute('fill') || '').toUpperCase() !== '#FFFFFF').length : 0;
  return {status, cells: [], filled};
}
"""

_JS_PRACTICE = """
(i) => {
  const root = document.querySelector(`[data-gt-practice="${i}"]`);
  const img = root.querySelector('img');
  return {feedback: (root.children[5]?.innerText || '').trim(),
          loaded: !!img && img.complete && img.naturalWidth > 0,
          solution: !!root.children[6]?.querySelector('img')};
}
"""

_JS_IMAGES_DECODED = """
async () => {
  const imgs = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) img')];
  await Promise.all(imgs.map(img => img.decode().catch(() => null)));
  return imgs.every(img => img.complete);
}
"""


class NotebookPage:
    """One notebook open in a page of the browser context."""

    def __init__(self, server: JupyterLabServer, context, path: str, workspace: str):
        self.server = server
        self.path = path
        self.page = context.new_page()
        self.console_errors: list[str] = []
        self.page.on("pageerror", lambda e: self.console_errors.append(str(e)))
        # A workspace of its own: JupyterLab does not reopen the notebooks of earlier pages.
        self.url = f"{server.url}/lab/workspaces/{workspace}/tree/{path}?token={server.token}"

    def fail(self, what: str) -> PageTimeout:
        return PageTimeout(f"{self.path}: {what}\nlast 50 lines of the server log:\n{self.server.log_tail()}")

    def wait(self, js: str, arg=None, *, timeout: float, what: str):
        """Wait until ``js`` is true, asked at every frame the page draws (asked every 200 ms, each wait
        lost half a period on average)."""
        try:
            found = self.page.wait_for_function(js, arg=arg, timeout=timeout * 1000, polling="raf")
            return found.json_value()
        except Exception as error:  # playwright's TimeoutError (and a crashed page)
            if "Timeout" in type(error).__name__ or "Timeout" in str(error):
                raise self.fail(f"timed out after {timeout:.0f} s waiting until {what}") from None
            raise

    def kernel_status(self) -> str:
        return self.page.evaluate("""() => [...document.querySelectorAll('.jp-StatusBar-TextItem')]
            .map(e => e.textContent).find(t => / \\| /.test(t)) || ''""")

    def open(self, timeout: float = 60) -> None:
        """Load JupyterLab with the notebook and wait until its kernel is idle."""
        self.page.goto(self.url, wait_until="domcontentloaded", timeout=timeout * 1000)
        self.wait("""() => window.jupyterapp && document.querySelector('.jp-NotebookPanel .jp-Cell') &&
                   [...document.querySelectorAll('.jp-StatusBar-TextItem')]
                     .some(e => /\\| Idle$/.test(e.textContent.trim()))""",
                  timeout=timeout, what="the notebook is open and its kernel is Idle (status bar)")
        # A notification toast (e.g. the "Jupyter news" question) must not cover the page.
        for button in self.page.locator(".jp-toast-button, .Toastify__close-button").all():
            with contextlib.suppress(Exception):  # a toast that went away by itself
                button.click(timeout=1000)

    def run_all(self, code_cells_to_run: list[bool], timeout: float) -> list[dict]:
        """Run all cells (``runmenu:run-all``) and wait until the kernel is idle with nothing queued.

        Done when no cell shows ``[*]``, the status bar says Idle, and either every cell that
        has code shows an execution count or a cell failed (run-all stops there).
        Returns the cells as :data:`_JS_CELLS` reads them.
        """
        # Not awaited: the command's promise settles only when every cell has run.
        self.page.evaluate("() => { jupyterapp.commands.execute('runmenu:run-all'); }")
        self.wait("""(toRun) => {
            const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
            const prompts = [...panel.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
              .map(p => p.textContent.trim());
            if (prompts.length !== toRun.length || prompts.some(p => p.includes('*'))) return false;
            const idle = [...document.querySelectorAll('.jp-StatusBar-TextItem')]
              .some(e => /\\| Idle$/.test(e.textContent.trim()));
            if (!idle) return false;
            const failed = panel.querySelector(
              '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]');
            return !!failed || prompts.every((p, i) => !toRun[i] || /\\[\\d+\\]/.test(p));
          }""", arg=code_cells_to_run, timeout=timeout,
            what="every cell has run (no [*]) and the kernel is Idle")
        return self.cells()

    def cells(self) -> list[dict]:
        return self.page.evaluate(_JS_CELLS)

    def problems(self, code_cells_to_run: list[bool]) -> list[str]:
        """What the page shows wrong: errors, stderr, widgets that did not render, cells not run."""
        # Widgets render a moment after their output arrives: give "Loading widget..." time to go.
        with contextlib.suppress(Exception):  # still loading after 10 s: reported below
            self.page.wait_for_function("""() => ![...document.querySelectorAll(
                '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output')]
                .some(o => (o.innerText || '').includes('Loading widget...'))""",
                timeout=10_000, polling="raf")
        found = []
        for n, cell in enumerate(self.cells(), 1):
            for problem in cell["problems"]:
                found.append(f"code cell {n}: {problem}")
        for n, (cell, must) in enumerate(zip(self.cells(), code_cells_to_run), 1):
            if must and not cell["prompt"][1:-2].strip().isdigit():
                found.append(f"code cell {n} was not run (prompt {cell['prompt']!r})")
        return found

    def mark_widgets(self) -> dict:
        return self.page.evaluate(_JS_MARK)

    def replay(self, i: int) -> dict:
        return self.page.evaluate(_JS_REPLAY, i)

    def board(self, kind: str, i: int) -> dict:
        return self.page.evaluate(_JS_BOARD, [kind, i])

    def practice(self, i: int) -> dict:
        return self.page.evaluate(_JS_PRACTICE, i)

    def overflow(self, selector: str) -> dict:
        """What spills sideways in the output area of the widget at ``selector``."""
        return self.page.evaluate(_JS_OVERFLOW, selector)

    def widget_outputs(self) -> list[dict]:
        """Every widget output: its text, whether a widget rendered, and its images' state."""
        return self.page.evaluate(_JS_SAVED_OUTPUTS)

    def command(self, name: str) -> None:
        """Run a JupyterLab command by id (awaited)."""
        self.page.evaluate("(name) => jupyterapp.commands.execute(name)", name)

    def settle_images(self) -> None:
        self.page.evaluate(_JS_IMAGES_DECODED)

    def screenshot(self, path: Path, selector: str | None = None) -> Path:
        if selector:  # the widget's top at the top of the notebook area
            self.page.locator(selector).first.evaluate("el => el.scrollIntoView({block: 'start'})")
        self.settle_images()
        self.page.wait_for_timeout(200)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(path))
        return path

    def close(self) -> None:
        self.page.close()


def copy_notebooks(src_root: Path, dst_root: Path) -> list[str]:
    """Cleared copies of every notebook under ``src_root``; returns their relative paths."""
    paths = []
    for src in sorted(src_root.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in src.parts:
            continue
        rel = src.relative_to(src_root)
        cleared_copy(src, dst_root / rel)
        paths.append(rel.as_posix())
    for src in src_root.rglob("*"):  # data files the notebooks may read
        if src.is_file() and src.suffix != ".ipynb" and ".ipynb_checkpoints" not in src.parts:
            dst = dst_root / src.relative_to(src_root)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    return paths
