"""A real JupyterHub for a course, on this machine: what ``tests/test_hub.py`` drives.

:class:`HubCourse` lays out a course as INSTRUCTORS.md's "The course on JupyterHub" says: the
students' environment made by ``deploy/jupyterhub/make_env.sh student`` (the test's own
environment stands in for the instructor's, which has the same packages plus the Formgrader),
nbgrader's exchange folder, the instructor's course folder, and JupyterHub started from
``deploy/jupyterhub/jupyterhub_config.py`` on 127.0.0.1 in its try-out mode (any login with the
test's password; every server runs as this machine's user, with its home under the course's
``homes/`` folder). ``configurable-http-proxy`` comes from the npm registry: ``.ci/run`` installs
it in ``.ci/node``; elsewhere it must be on ``PATH`` (or ``$GT_CHP``).

:class:`HubUser` is a student or the instructor in a page of Chromium: log in through the hub's
form, fetch and submit with nbgrader's Assignments extension (the requests its panel makes), read
and write notebooks through the server's contents API (what typing an answer and saving does), and
run a notebook with :class:`browser.NotebookPage` (JupyterLab's Run All).
"""

from __future__ import annotations

import atexit
import json
import os
import secrets
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import browser

REPO = Path(__file__).resolve().parent.parent
DEPLOY = REPO / "deploy" / "jupyterhub"
COURSE_ID = "gametrees-test"
CHP_HINT = ("configurable-http-proxy (npm) is missing: "
            "`npm install --prefix .ci/node configurable-http-proxy` "
            "(.ci/run does this), or put it on PATH")


# What the test puts in each user's JupyterLab settings: every cell in the DOM (no virtual scrolling,
# so the page can be read whole) and no "Jupyter news" question (there is no network).
USER_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false",
                                                                        "checkForUpdates": False},
}


def chp_path() -> str | None:
    """The configurable-http-proxy command, or None."""
    for candidate in (os.environ.get("GT_CHP"),
                      REPO / ".ci" / "node" / "node_modules" / ".bin" / "configurable-http-proxy"):
        if candidate and Path(candidate).exists():
            return str(candidate)
    return shutil.which("configurable-http-proxy")


def hub_missing() -> str | None:
    """Why the hub test cannot run here (None when it can)."""
    problem = browser.browser_missing()
    if problem:
        return problem
    if chp_path() is None:
        return CHP_HINT
    if shutil.which("jupyterhub-singleuser", path=str(Path(sys.executable).parent)) is None:
        return "jupyterhub is not installed in this environment (requirements-test.txt installs it)"
    return None


def rss_mb(pid: int) -> float:
    """Resident memory of a process and all its children, in MB (from /proc)."""
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0.0
    total = 0
    for p in procs:
        try:
            total += p.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total / 2**20


def server_pid(login: str) -> int | None:
    """The process id of ``login``'s server on this machine (a local spawner's), or None."""
    import psutil

    for p in psutil.process_iter(["cmdline", "environ"]):
        try:
            cmd = " ".join(p.info["cmdline"] or [])
            env = p.info["environ"] or {}
        except (psutil.Error, TypeError):
            continue
        if "jupyterhub-singleuser" in cmd and env.get("JUPYTERHUB_USER") == login:
            return p.pid
    return None


def world_runnable(python: str) -> bool:
    """Whether every account may run ``python`` (every folder above it is open to others)."""
    path = os.path.realpath(python)
    while path != os.path.dirname(path):
        path = os.path.dirname(path)
        if not os.stat(path).st_mode & stat.S_IXOTH:
            return False
    return True


def shared_python() -> str | None:
    """A Python 3 with venv that every account may run: this one, else the system's."""
    for candidate in (sys.executable, "/usr/bin/python3"):
        if candidate and os.path.exists(candidate) and world_runnable(candidate):
            done = subprocess.run([candidate, "-c", "import venv, ensurepip"], capture_output=True,
                                  check=False)
            if done.returncode == 0:
                return candidate
    return None


_STUDENT_ENV: list[Path] = []


def student_env() -> Path:
    """The students' environment, made once a test session by ``make_env.sh student`` from this checkout.

    Made from a Python every account may run where there is one (the hub test with real accounts needs
    that), in a folder every account may enter; removed when the session ends.
    """
    if not _STUDENT_ENV:
        folder = Path(tempfile.mkdtemp(prefix="gt-hub-env-"))
        os.chmod(folder, 0o755)
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        python = shared_python()
        env = dict(os.environ, PYTHON=python or sys.executable)
        if python is None:  # only the try-out hub (one unix user) can use it
            env["GAMETREES_SINGLE_USER"] = "1"
        env.pop("PYTHONPATH", None)
        done = subprocess.run(["bash", str(DEPLOY / "make_env.sh"), "student", str(folder / "env")], env=env,
                              capture_output=True, text=True, timeout=900, check=False)
        if done.returncode:
            raise RuntimeError(f"make_env.sh student failed:\n{done.stdout}\n{done.stderr}")
        _STUDENT_ENV.append(folder / "env")
    return _STUDENT_ENV[0]


class HubCourse:
    """A course on a JupyterHub on 127.0.0.1 (see the module's docstring)."""

    def __init__(self, root: Path, instructor: str = "instructor"):
        self.root = Path(root)
        self.instructor = instructor
        self.password = secrets.token_hex(12)
        self.port, self.hub_port, self.proxy_api_port = (browser.free_port() for _ in range(3))
        self.homes = self.root / "homes"
        self.exchange = self.root / "exchange"
        self.state = self.root / "hub-state"
        self.student_env = self.root / "student-env"
        self.course = self.homes / instructor / "course"
        self.log_path = self.root / "jupyterhub.log"
        self.runtime = Path(tempfile.mkdtemp(prefix="gt-hub-"))  # kernels' sockets: a short path
        self.proc: subprocess.Popen | None = None
        self.timings: dict[str, float] = {}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_tail(self, n: int = 60) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no hub log)"

    # -- the set-up the guide describes ------------------------------------------------------

    def make_student_env(self) -> None:
        """``deploy/jupyterhub/make_env.sh student <folder>``, timed: :func:`student_env`.

        ``$GT_HUB_STUDENT_ENV`` names one made earlier, to try changes to the test quickly (never in CI).
        """
        t = time.monotonic()
        if os.environ.get("GT_HUB_STUDENT_ENV") and not os.environ.get("CI"):
            self.student_env = Path(os.environ["GT_HUB_STUDENT_ENV"])
            return
        self.student_env = student_env()
        self.timings["make the students' environment"] = time.monotonic() - t

    def prepare(self, instructor_notebook: Path, assignment: str) -> None:
        """The exchange (open to all), homes with the test's JupyterLab settings, and the course's source."""
        self.exchange.mkdir(parents=True)
        os.chmod(self.exchange, 0o777)
        self.state.mkdir(parents=True)
        self.homes.mkdir(parents=True)
        source = self.course / "source" / assignment
        source.mkdir(parents=True)
        shutil.copy(instructor_notebook, source / instructor_notebook.name)
        # The instructor's own nbgrader settings: where the course is (the guide's step).
        config = self.homes / self.instructor / ".jupyter" / "nbgrader_config.py"
        config.parent.mkdir(parents=True)
        config.write_text(f"c = get_config()\nc.CourseDirectory.root = {str(self.course)!r}\n")

    def settings_for(self, login: str) -> None:
        """The test's JupyterLab settings in a user's home (:data:`USER_SETTINGS`), and JupyterLab's app
        exposed to the page (``window.jupyterapp``: Run All by its command id), as the browser tests do."""
        server = self.homes / login / ".jupyter" / "jupyter_server_config.json"
        server.parent.mkdir(parents=True, exist_ok=True)
        server.write_text(json.dumps({"LabApp": {"expose_app_in_browser": True}}), encoding="utf-8")
        settings = self.homes / login / ".jupyter" / "lab" / "user-settings"
        for name, values in USER_SETTINGS.items():
            path = settings / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values), encoding="utf-8")

    def env(self, role: str | None = None) -> dict:
        """The variables the hub's configuration reads (and a user's server gets)."""
        env = dict(os.environ)
        env.pop("MPLBACKEND", None)
        bindir = str(Path(sys.executable).parent)
        chp = Path(chp_path()).parent
        env.update({
            "PATH": os.pathsep.join([bindir, str(chp), env.get("PATH", "")]),
            "GAMETREES_HUB_TRY_OUT": "1",
            "GAMETREES_HUB_PASSWORD": self.password,
            "GAMETREES_HUB_HOMES": str(self.homes),
            "GAMETREES_HUB_RUNTIME": str(self.runtime),
            "GAMETREES_HUB_STATE": str(self.state),
            "GAMETREES_HUB_URL": self.url,
            "GAMETREES_COURSE_ID": COURSE_ID,
            "GAMETREES_INSTRUCTORS": self.instructor,
            "GAMETREES_STUDENT_ENV": str(self.student_env),
            "GAMETREES_INSTRUCTOR_ENV": sys.prefix,
            "GAMETREES_EXCHANGE": str(self.exchange),
            "PYTHONUNBUFFERED": "1",
        })
        for name in ("GAMETREES_STUDENT_ID", "JUPYTERHUB_USER", "NBGRADER_EXECUTION", "PYTHONPATH"):
            env.pop(name, None)
        if role == "instructor":  # a terminal of the instructor's server, as the hub sets it up
            env.update(HOME=str(self.homes / self.instructor), GAMETREES_ROLE="instructor",
                       PYTHONPATH=str(REPO),  # nbgrader's exchange classes from this checkout
                       JUPYTER_CONFIG_PATH=str(DEPLOY), JUPYTERHUB_USER=self.instructor)
        return env

    def start(self, timeout: float = 60) -> None:
        cmd = [sys.executable, "-m", "jupyterhub", "-f", str(DEPLOY / "jupyterhub_config.py"),
               f"--JupyterHub.hub_bind_url=http://127.0.0.1:{self.hub_port}",
               f"--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{self.proxy_api_port}"]
        # The hub and (try-out mode) every server import this checkout's gametrees.
        env = dict(self.env(), PYTHONPATH=str(REPO))
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env,
                                         cwd=self.state, start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyterhub exited with code {self.proc.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/hub/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise browser.PageTimeout(f"the hub did not answer within {timeout:.0f} s:\n"
                                          f"{self.log_tail()}")
            time.sleep(0.3)

    def instructor_runs(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        """A command in the instructor's course folder, as in a terminal of their server."""
        done = subprocess.run(list(args), cwd=self.course, env=self.env("instructor"), capture_output=True,
                              text=True, timeout=timeout)
        if done.returncode:
            raise RuntimeError(f"{' '.join(args)} exited {done.returncode}:\n{done.stdout[-3000:]}\n"
                               f"{done.stderr[-3000:]}")
        return done

    def stop(self) -> None:
        """Stop the hub: on SIGTERM it stops the users' servers and its proxy, then its process group goes."""
        browser.stop_group(self.proc, grace=20)
        shutil.rmtree(self.runtime, ignore_errors=True)


class HubUser:
    """One user of the hub in their own browser context (cookies: their login)."""

    def __init__(self, course: HubCourse, chromium, login: str):
        self.course = course
        self.login = login
        self.context = chromium.new_context(viewport={"width": 1366, "height": 900})
        self.page = self.context.new_page()
        self.url = f"{course.url}/user/{login}"
        self.token = ""  # browser.NotebookPage appends ?token=: the login cookie authenticates instead

    def log_tail(self, n: int = 60) -> str:
        return self.course.log_tail(n)

    def log_in(self, timeout: float = 90) -> None:
        """The hub's login form; the hub starts the user's server and opens JupyterLab."""
        self.page.goto(f"{self.course.url}/hub/login", wait_until="domcontentloaded")
        self.page.fill("input[name=username]", self.login)
        self.page.fill("input[name=password]", self.course.password)
        self.page.click("[type=submit]")
        self.page.wait_for_url(f"{self.url}/lab**", timeout=timeout * 1000)
        self.page.wait_for_function("() => window.jupyterapp || document.querySelector('#main')",
                                    timeout=timeout * 1000)

    def request(self, method: str, path: str, data=None):
        """A request to the user's server from the page, as JupyterLab makes it (cookie and XSRF token)."""
        answer = self.page.evaluate(
            """async ([method, url, data]) => {
                 const xsrf = (document.cookie.match(/(?:^|; )_xsrf=([^;]*)/) || [])[1] || '';
                 const r = await fetch(url, {method, headers: {'Content-Type': 'application/json',
                                                               'X-XSRFToken': decodeURIComponent(xsrf)},
                                             body: data === null ? undefined : JSON.stringify(data)});
                 return {status: r.status, text: await r.text()};
               }""", [method, f"{self.url}/{path}", data])
        return answer["status"], answer["text"]

    def assignments(self, action: str, assignment: str):
        """nbgrader's Assignments panel: ``fetch``, ``submit`` or ``fetch_feedback``."""
        status, text = self.request("POST", f"assignments/{action}",
                                    {"course_id": COURSE_ID, "assignment_id": assignment})
        if status != 200:
            raise AssertionError(f"{self.login}: {action} answered {status}: {text[:500]}")
        result = json.loads(text)
        if isinstance(result, dict) and not result.get("success", True):
            raise AssertionError(f"{self.login}: {action} failed: {result.get('value')}")
        return result

    def read_notebook(self, path: str) -> dict:
        status, text = self.request("GET", f"api/contents/{path}?content=1", None)
        assert status == 200, f"{self.login}: reading {path} answered {status}: {text[:300]}"
        return json.loads(text)["content"]

    def write_notebook(self, path: str, nb: dict) -> None:
        status, text = self.request("PUT", f"api/contents/{path}", {"type": "notebook", "content": nb})
        assert status in (200, 201), f"{self.login}: saving {path} answered {status}: {text[:300]}"

    def run_notebook(self, path: str, timeout: float = 120) -> list[dict]:
        """Open the notebook in JupyterLab, Run All, save; the cells as the page shows them."""
        nb = self.read_notebook(path)
        to_run = [c["cell_type"] == "code" and bool("".join(c["source"]).strip()) for c in nb["cells"]
                  if c["cell_type"] == "code"]
        page = browser.NotebookPage(self, self.context, path, f"{self.login}-run")
        page.open(timeout=timeout)
        cells = page.run_all(to_run, timeout=timeout)
        page.command("docmanager:save")
        page.page.wait_for_function(
            """() => !document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-mod-dirty')""",
            timeout=30_000)
        self.notebook_page = page
        return cells

    def server_pid(self) -> int | None:
        """The process id of this user's server (the hub's try-out spawner runs it locally)."""
        return server_pid(self.login)

    def close(self) -> None:
        self.context.close()
