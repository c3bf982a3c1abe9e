"""The course's JupyterHub set up as INSTRUCTORS.md section 8 says, on this machine, with real unix accounts.

What ``tests/test_hub_hardening.py`` drives. :class:`ServerCourse` runs the guide's steps 3 and 4 as
written (their ``bash`` blocks, read from INSTRUCTORS.md), with three changes only: the folders under
``/srv`` live in a temporary folder, the accounts get names of their own (so nothing clashes with
real ones, and they are removed after), and ``/etc/profile.d/gametrees.sh`` gets a name of its own.
Then it starts the hub as step 5 says, from ``deploy/jupyterhub/jupyterhub_config.py`` (PAM logins,
each server as its user, capped), over HTTPS with a self-signed certificate (the guide's worked
example), plus one thing the guide does not have: an admin service with a token, through which the
test starts servers, opens terminals and kernels in them, as JupyterLab does, over the hub's proxy.

One environment, made by ``deploy/jupyterhub/make_env.sh student`` from this checkout, serves students
and the instructor here (the test's instructor needs nbgrader's command line, not the Formgrader).
It needs root, ``useradd``, ``runuser``, ``openssl``, configurable-http-proxy (as tests/hub.py finds
it) and a Python every account may run (``/usr/bin/python3`` where this one lives under ``/root``).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import browser
from hub import CHP_HINT, DEPLOY, REPO, chp_path, shared_python, student_env

GUIDE = REPO / "INSTRUCTORS.md"
NAMES = ("instructor", "jdoe", "asmith")  # the guide's accounts


def server_missing() -> str | None:
    """Why the set-up with real accounts cannot run here (None when it can)."""
    if os.geteuid() != 0:
        return "needs root (it makes unix accounts, as the guide's admin does)"
    for tool in ("useradd", "userdel", "runuser", "chpasswd", "openssl"):
        if shutil.which(tool) is None:
            return f"{tool} is missing"
    if chp_path() is None:
        return CHP_HINT
    if shared_python() is None:
        return "no Python with venv that every account may run (apt install python3-venv)"
    return None


def guide_block(step: str, index: int = 0) -> str:
    """The ``index``-th ``bash`` block after the bold heading ``**<step>`` in section 8 of INSTRUCTORS.md."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index("## 8. The course on JupyterHub"):]
    at = section.index(f"**{step}")
    blocks = re.findall(r"```bash\n(.*?)```", section[at:], re.DOTALL)
    assert len(blocks) > index, f"no bash block {index} after **{step} in INSTRUCTORS.md section 8"
    return blocks[index]


class ServerCourse:
    """The guide's server in ``root`` (a folder every account may enter), accounts named for this run."""

    def __init__(self):
        self.root = Path(tempfile.mkdtemp(prefix="gt-hub-"))
        os.chmod(self.root, 0o755)
        tag = uuid.uuid4().hex[:6]
        self.names = {"instructor": f"gti{tag}", "jdoe": f"gtv{tag}", "asmith": f"gta{tag}"}
        self.instructor, self.victim, self.other = (self.names[n] for n in NAMES)
        self.passwords = {name: secrets.token_hex(10) for name in self.names.values()}
        self.profile = Path(f"/etc/profile.d/gametrees-test-{tag}.sh")
        self.srv = self.root / "srv"
        self.env_dir = self.root / "env"
        self.state = self.srv / "jupyterhub"
        self.exchange = self.srv / "nbgrader" / "exchange"
        self.course = Path(f"/home/{self.instructor}/course")
        self.port, self.hub_port, self.proxy_api_port = (browser.free_port() for _ in range(3))
        self.token = secrets.token_hex(24)
        self.log_path = self.root / "jupyterhub.log"
        self.proc: subprocess.Popen | None = None
        self.made: list[str] = []
        self.ctx = ssl.create_default_context()
        self.ctx.check_hostname = False
        self.ctx.verify_mode = ssl.CERT_NONE
        self.timings: dict[str, float] = {}

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def log_tail(self, n: int = 60) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no hub log)"

    # -- the guide's steps ------------------------------------------------------------------------

    def as_written(self, block: str) -> str:
        """A guide block with this run's names and folders (nothing else changed)."""
        block = block.replace("/srv/", f"{self.srv}/")
        block = block.replace("/etc/profile.d/gametrees.sh", str(self.profile))
        block = block.replace("\\n", "\0")  # printf's \n before a name
        for guide_name, name in self.names.items():
            block = block.replace(f"/home/{guide_name}", f"/home/{name}")
            block = re.sub(rf"(?<![\w./-]){guide_name}(?![\w/-])", name, block)
        return block.replace("\0", "\\n")

    def run_as_root(self, block: str) -> None:
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=REPO, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, f"the guide's commands failed:\n{block}\n{done.stdout}\n{done.stderr}"

    def make_env(self) -> None:
        """Step 2: the environment (``make_env.sh``, as :func:`hub.student_env` makes it) and the login
        shells' profile file."""
        t = time.monotonic()
        if os.environ.get("GT_HUB_SERVER_ENV") and not os.environ.get("CI"):  # one made earlier (never in CI)
            os.symlink(os.environ["GT_HUB_SERVER_ENV"], self.env_dir)
        else:  # the one the session's hub tests share (tests/hub.py), from a Python every account may run
            os.symlink(student_env(), self.env_dir)
        step2 = [line for line in guide_block("2. The environments").splitlines() if "profile.sh" in line]
        assert step2, "the guide's step 2 installs profile.sh"
        self.run_as_root(self.as_written("\n".join(step2)))
        self.timings["make the environment"] = time.monotonic() - t

    def accounts_and_course(self) -> None:
        """Steps 3 and 4 as written; the passwords as the guide says (``chpasswd``)."""
        for name in self.names.values():
            self.made.append(name)  # removed after, also if useradd fails half-way
        self.run_as_root(self.as_written(guide_block("3. Folders and accounts")))
        lines = "".join(f"{name}:{pw}\n" for name, pw in self.passwords.items())
        subprocess.run(["chpasswd"], input=lines, text=True, check=True)
        self.run_as_root(self.as_written(guide_block("4. The course folder")))

    def runs_as(self, login: str, command: str, timeout: float = 60) -> subprocess.CompletedProcess:
        """A command in ``login``'s login shell outside the hub (``runuser -l``)."""
        return subprocess.run(["runuser", "-l", login, "-c", command], capture_output=True, text=True,
                              timeout=timeout)

    # -- the hub --------------------------------------------------------------------------------

    def start(self, memory: str, processes: int, timeout: float = 90) -> None:
        """Step 5 with the hub's own certificate, and an admin service token for the test."""
        key, cert = self.root / "key.pem", self.root / "cert.pem"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                        "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
                       check=True, capture_output=True)
        config = self.root / "test_config.py"
        config.write_text(
            "c = get_config()  # noqa: F821\n"
            f"load_subconfig({str(DEPLOY / 'jupyterhub_config.py')!r})  # noqa: F821\n"
            f"c.JupyterHub.services.append({{'name': 'test-admin', 'api_token': {self.token!r}}})\n"
            "c.JupyterHub.load_roles.append({'name': 'admin', 'services': ['test-admin']})\n")
        env = {
            "PATH": os.pathsep.join([str(Path(chp_path()).parent), "/usr/local/bin", "/usr/bin", "/bin"]),
            "LANG": "C.UTF-8",
            # the hub imports this checkout's gametrees (its spawner's cgroups); no server sees this
            "PYTHONPATH": str(REPO),
            "GAMETREES_COURSE_ID": "gametrees-test",
            "GAMETREES_INSTRUCTORS": self.instructor,
            "GAMETREES_STUDENT_LIST": str(self.srv / "gametrees" / "students.txt"),
            "GAMETREES_STUDENT_ENV": str(self.env_dir),
            "GAMETREES_INSTRUCTOR_ENV": str(self.env_dir),
            "GAMETREES_EXCHANGE": str(self.exchange),
            "GAMETREES_HUB_STATE": str(self.state),
            "GAMETREES_HUB_URL": self.url,
            "GAMETREES_SSL_CERT": str(cert),
            "GAMETREES_SSL_KEY": str(key),
            "GAMETREES_MEMORY_LIMIT": memory,
            "GAMETREES_PROCESS_LIMIT": str(processes),
            "PYTHONUNBUFFERED": "1",
        }
        cmd = [sys.executable, "-m", "jupyterhub", "-f", str(config),
               f"--JupyterHub.hub_bind_url=http://127.0.0.1:{self.hub_port}",
               f"--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{self.proxy_api_port}"]
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=self.state,
                                         start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyterhub exited with code {self.proc.returncode}:\n{self.log_tail()}")
            try:
                if self.api("GET", "/hub/health", raw=True)[0] == 200:
                    return
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                raise browser.PageTimeout(f"the hub did not answer in {timeout:.0f} s:\n{self.log_tail()}")
            time.sleep(0.3)

    def api(self, method: str, path: str, data=None, raw: bool = False, timeout: float = 30):
        """A request through the hub's proxy with the admin service's token: (status, parsed JSON or text)."""
        body = None if data is None else json.dumps(data).encode()
        request = urllib.request.Request(f"{self.url}{path}", data=body, method=method,
                                         headers={"Authorization": f"token {self.token}",
                                                  "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, context=self.ctx, timeout=timeout) as r:
                status, text = r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read().decode(errors="replace")
        if raw or not text:
            return status, text
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text

    def log_in(self, login: str, password: str) -> int:
        """The hub's login form (PAM): the answer's HTTP status (302 logged in, 403 refused)."""
        import http.cookiejar
        import urllib.parse

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args):
                return None

        opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=self.ctx),
                                             urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
                                             NoRedirect)
        page = opener.open(f"{self.url}/hub/login", timeout=30).read().decode()
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)
        form = urllib.parse.urlencode({"username": login, "password": password, "_xsrf": xsrf}).encode()
        try:
            with opener.open(f"{self.url}/hub/login?next=", data=form, timeout=30) as r:
                return r.status
        except urllib.error.HTTPError as e:
            return e.code

    def start_server(self, login: str, timeout: float = 120) -> None:
        status, body = self.api("POST", f"/hub/api/users/{login}/server")
        assert status in (201, 202), f"starting {login}'s server: HTTP {status} {body}\n{self.log_tail()}"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status, user = self.api("GET", f"/hub/api/users/{login}")
            server = (user.get("servers") or {}).get("", {}) if status == 200 else {}
            if server.get("ready"):
                return
            time.sleep(0.5)
        raise browser.PageTimeout(f"{login}'s server did not start in {timeout:.0f} s:\n{self.log_tail()}")

    def server_ready(self, login: str) -> bool:
        status, user = self.api("GET", f"/hub/api/users/{login}")
        return status == 200 and bool((user.get("servers") or {}).get("", {}).get("ready"))

    def terminal(self, login: str, command: str, timeout: float = 120) -> tuple[str, int]:
        """``command`` typed into a new JupyterLab terminal of ``login``'s server: (output, exit status)."""
        import websocket

        status, term = self.api("POST", f"/user/{login}/api/terminals")
        assert status == 200, f"{login}: opening a terminal answered {status}: {term}"
        ws = websocket.create_connection(
            f"wss://127.0.0.1:{self.port}/user/{login}/terminals/websocket/{term['name']}",
            header=[f"Authorization: token {self.token}"], sslopt={"cert_reqs": ssl.CERT_NONE},
            suppress_origin=True, timeout=timeout)
        # The markers are made by the shell ($((...)), $?), so the echo of the typed line never matches them.
        marker = f"__{uuid.uuid4().hex[:8]}_"
        shown = ""
        try:
            ws.send(json.dumps(["stdin", f"echo {marker}$((6*7))_; {command}; echo {marker}$?_\r"]))
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                kind, *rest = json.loads(ws.recv())
                if kind == "stdout":
                    shown += rest[0]
                    found = re.search(rf"{marker}42_\r?\n(.*){marker}(\d+)_", shown, re.S)
                    if found:
                        return found.group(1), int(found.group(2))
            raise browser.PageTimeout(f"{login}'s terminal: {command!r} did not end in {timeout:.0f} s:\n"
                                      f"{shown}")
        finally:
            ws.close()
            self.api("DELETE", f"/user/{login}/api/terminals/{term['name']}")

    def kernel(self, login: str) -> "Kernel":
        status, body = self.api("POST", f"/user/{login}/api/kernels", {"name": "python3"})
        assert status == 201, f"{login}: starting a kernel answered {status}: {body}"
        return Kernel(self, login, body["id"])

    # -- after ----------------------------------------------------------------------------------

    def stop(self) -> None:
        if self.proc is not None:
            browser.stop_group(self.proc, grace=20)

    def clean_up(self) -> None:
        """The accounts (and anything still running as them), the profile file and the folder."""
        import psutil

        uids = []
        for name in self.made:
            done = subprocess.run(["id", "-u", name], capture_output=True, text=True)
            if done.returncode == 0:
                uids.append(int(done.stdout))
        for p in psutil.process_iter(["uids"]):
            if p.info["uids"] and p.info["uids"].real in uids:
                try:
                    os.kill(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for name in self.made:
            subprocess.run(["userdel", "-r", name], capture_output=True)
        self.profile.unlink(missing_ok=True)
        shutil.rmtree(self.root, ignore_errors=True)


class Kernel:
    """A kernel of a user's server, driven over its WebSocket as JupyterLab does."""

    def __init__(self, course: ServerCourse, login: str, kernel_id: str):
        import websocket

        self.course, self.login, self.id = course, login, kernel_id
        self.session = uuid.uuid4().hex
        self.ws = websocket.create_connection(
            f"wss://127.0.0.1:{course.port}/user/{login}/api/kernels/{kernel_id}/channels?session_id={self.session}",
            header=[f"Authorization: token {course.token}"], sslopt={"cert_reqs": ssl.CERT_NONE},
            suppress_origin=True, timeout=60)

    def run(self, code: str, timeout: float = 60) -> str:
        """Execute ``code``; what it printed (stdout), or the error's name and value."""
        msg_id = uuid.uuid4().hex
        self.ws.send(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": self.login,
                       "session": self.session, "date": "", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell",
            "content": {"code": code, "silent": False, "store_history": False, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True}}))
        out = ""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = json.loads(self.ws.recv())
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind = msg["header"]["msg_type"]
            if kind == "stream":
                out += msg["content"]["text"]
            elif kind == "error":
                out += f"{msg['content']['ename']}: {msg['content']['evalue']}"
            elif kind == "status" and msg["content"]["execution_state"] == "idle":
                return out
        raise browser.PageTimeout(f"{self.login}'s kernel did not answer {code!r} in {timeout:.0f} s")

    def close(self) -> None:
        self.ws.close()
        self.course.api("DELETE", f"/user/{self.login}/api/kernels/{self.id}")
