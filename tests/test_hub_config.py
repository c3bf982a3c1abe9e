"""The course's hub past one server and in a lecture, checked without starting one: the container images'
build steps (``deploy/containers/Dockerfile``), the Zero to JupyterHub values (``deploy/z2jh/config.yaml``)
against the chart's documented keys (``tests/data/z2jh_values_keys.yaml``), every JupyterHub setting of
``deploy/jupyterhub/jupyterhub_config.py`` against the installed JupyterHub's, the guide's sizing table
against ``benchmarks/hub_storm.py --sizing``, and ``deploy/jupyterhub/prestart.py`` against a stand-in hub.
"""

from __future__ import annotations

import ast
import io
import json
import re
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
DEPLOY = REPO / "deploy"
DOCKERFILE = DEPLOY / "containers" / "Dockerfile"
Z2JH = DEPLOY / "z2jh" / "config.yaml"
SCHEMA_KEYS = REPO / "tests" / "data" / "z2jh_values_keys.yaml"
GUIDE = REPO / "INSTRUCTORS.md"
HUB_CONFIG = DEPLOY / "jupyterhub" / "jupyterhub_config.py"

sys.path.insert(0, str(REPO / "benchmarks"))
import hub_storm  # noqa: E402 (found on the sys.path entry added above)

sys.path.insert(0, str(DEPLOY / "jupyterhub"))
import prestart  # noqa: E402 (found on the sys.path entry added above)


def pinned_version() -> str:
    """gametrees.__version__ of this checkout (read, not imported: the file is the pin)."""
    text = (REPO / "gametrees" / "__init__.py").read_text()
    return re.search(r'^__version__ = "([^"]+)"', text, re.MULTILINE)[1]


# -- the container images ---------------------------------------------------------------------------

def dockerfile_stages(path: Path) -> dict[str, list[tuple[str, str]]]:
    """The Dockerfile's instructions by stage name (continuation lines joined, comments dropped)."""
    text = re.sub(r"\\\n", " ", "\n".join(line for line in path.read_text().splitlines()
                                           if not line.lstrip().startswith("#")))
    stages, current = {"": []}, ""
    for line in text.splitlines():
        if not line.strip():
            continue
        word, _, rest = line.strip().partition(" ")
        if word.upper() == "FROM":
            current = rest.split()[-1] if " AS " in rest.upper() else rest
            stages[current] = []
        stages[current].append((word.upper(), rest.strip()))
    return stages


def test_the_images_copy_only_what_the_checkout_has_and_make_env_needs():
    stages = dockerfile_stages(DOCKERFILE)
    copied = [src for stage in stages.values() for word, rest in stage if word == "COPY"
              for src in rest.split()[:-1] if not src.startswith("--")]
    missing = [src for src in copied if not (REPO / src).exists()]
    assert not missing, f"the Dockerfile copies what the checkout does not have: {missing}"
    # make_env.sh installs "$repo" (pyproject.toml), "$repo/jupyterlab-settings" and
    # "$here/requirements-$role.txt", with $repo two folders above its own.
    for needed in ("pyproject.toml", "gametrees", "jupyterlab-settings", "deploy/jupyterhub"):
        assert needed in copied, f"make_env.sh needs {needed} in the image's /src"
    for stage in stages.values():
        for word, rest in stage:
            if word == "RUN":
                for used in re.findall(r"/src/(\S+?)(?=[\s;&|]|$)", rest):
                    assert (REPO / used).exists(), f"RUN uses /src/{used}, not in the checkout"


@pytest.mark.parametrize("role", ["student", "instructor"])
def test_each_image_runs_make_env_for_its_role_at_the_pinned_version(role):
    stage = dockerfile_stages(DOCKERFILE)[role]
    runs = " ".join(rest for word, rest in stage if word == "RUN")
    assert f"make_env.sh {role} /opt/gametrees/{role}" in runs
    other = {"student": "instructor", "instructor": "student"}[role]
    assert f"make_env.sh {other}" not in runs, f"the {role} image must not get the {other}'s environment"
    args = dict(rest.split("=", 1) for word, rest in stage if word == "ARG" and "=" in rest)
    assert args["GAMETREES_VERSION"] == pinned_version(), "the images' version is not the checkout's release"
    assert "${GAMETREES_VERSION}" in runs, "the build does not check the installed version against the pin"
    env = " ".join(rest for word, rest in stage if word == "ENV")
    assert f"GAMETREES_ROLE={role}" in env and f"GAMETREES_ENV=/opt/gametrees/{role}" in env
    assert ("USER", "1000") in stage, "the server must not run as root"


@pytest.mark.hub  # builds the students' environment (tests/hub.py)
def test_the_student_environment_the_image_runs_has_the_pinned_release_and_no_grading_parts():
    """What the student image's RUN makes: ``make_env.sh student`` (tests/hub.py makes it once a session)."""
    from hub import hub_missing, student_env

    if "jupyterhub is not installed" in (hub_missing() or ""):
        pytest.skip(hub_missing())
    env = student_env()
    version = subprocess.run([str(env / "bin" / "python"), "-c",
                              "import gametrees; print(gametrees.__version__)"],
                             capture_output=True, text=True, check=True).stdout.strip()
    assert version == pinned_version()
    listed = subprocess.run([str(env / "bin" / "jupyter"), "server", "extension", "list"],
                            capture_output=True, text=True, check=False)
    said = listed.stdout + listed.stderr
    extension = r"^\s*nbgrader\.server_extensions\.(\w+)\s+(?:\x1b\[\d+m)?(enabled|disabled)"
    status = dict(re.findall(extension, said, re.MULTILINE))
    assert status == {"formgrader": "disabled", "course_list": "disabled", "validate_assignment": "enabled",
                      "assignment_list": "enabled"}, said


# -- Zero to JupyterHub -----------------------------------------------------------------------------

def undocumented(values: dict, documented: dict) -> list[str]:
    """Every key path of ``values`` the chart does not document, or whose value is of a type it does not
    allow."""
    types = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null",
             list: "array", dict: "object"}

    def entry(path):
        for key, spec in documented.items():
            parts = key.split(".")
            if len(parts) == len(path) and all(p in ("*", q) for p, q in zip(parts, path)):
                return spec
        return None

    def prefix_of_a_key(path):
        return any(len(key.split(".")) > len(path)
                   and all(p in ("*", q) for p, q in zip(key.split("."), path)) for key in documented)

    problems = []

    def walk(node, path):
        for key, value in node.items():
            here = [*path, str(key)]
            spec = entry(here)
            if spec is not None:
                kind = types[type(value)]
                allowed = spec.get("type", [])
                ok = (value in spec["enum"]) if "enum" in spec else (
                    kind in allowed or (kind == "integer" and "number" in allowed))
                if not ok:
                    problems.append(f"{'.'.join(here)}: {value!r} is not {spec}")
                if isinstance(value, dict) and not spec.get("open"):
                    walk(value, here)
            elif isinstance(value, dict) and prefix_of_a_key(here):
                walk(value, here)
            else:
                problems.append(f"{'.'.join(here)}: not a documented key")

    walk(values, [])
    return problems


def schema_keys() -> dict:
    return yaml.safe_load(SCHEMA_KEYS.read_text())["keys"]


def test_every_key_of_the_z2jh_config_is_documented_by_the_pinned_chart():
    data = yaml.safe_load(SCHEMA_KEYS.read_text())
    assert data["source"]["chart"] in Z2JH.read_text(), \
        "config.yaml does not name the chart release it was checked against"
    assert undocumented(yaml.safe_load(Z2JH.read_text()), data["keys"]) == []


def test_the_key_check_catches_a_misspelt_key_and_a_wrong_type():
    values = {"singleuser": {"memory": {"limt": "1G"}, "cpu": {"limit": "one"}}, "cull": {"enabled": True}}
    assert undocumented(values, schema_keys()) == [
        "singleuser.memory.limt: not a documented key",
        "singleuser.cpu.limit: 'one' is not {'type': ['number', 'null']}"]


def test_the_z2jh_pods_get_the_measured_memory_the_pinned_images_and_the_exchange():
    values = yaml.safe_load(Z2JH.read_text())
    single = values["singleuser"]
    guarantee = single["memory"]["guarantee"]
    assert guarantee.endswith("M") and int(guarantee[:-1]) >= hub_storm.MEASURED["A2 MB"], \
        "each pod should reserve what a server with A2 run takes"
    one_server_cap = re.search(r'_bytes\("GAMETREES_MEMORY_LIMIT", "(\w+)"\)', HUB_CONFIG.read_text())[1]
    assert single["memory"]["limit"] == one_server_cap, "the same cap per student as on one server"
    version = pinned_version()
    assert single["image"]["tag"] == version
    assert values["custom"]["instructorImage"].endswith(f":{version}")
    assert all(image["tag"] == version for image in values["prePuller"]["extraImages"].values())
    # The exchange: nbgrader's path (deploy/jupyterhub/nbgrader_config.py's default), a ReadWriteMany claim.
    nbgrader_config = (DEPLOY / "jupyterhub" / "nbgrader_config.py").read_text()
    exchange_root = re.search(r'"GAMETREES_EXCHANGE", "([^"]+)"', nbgrader_config)[1]
    mounts = {m["name"]: m["mountPath"] for m in single["storage"]["extraVolumeMounts"]}
    claims = {v["name"]: v["persistentVolumeClaim"]["claimName"] for v in single["storage"]["extraVolumes"]}
    assert mounts["exchange"] == exchange_root == single["extraEnv"]["GAMETREES_EXCHANGE"]
    pvc = yaml.safe_load((DEPLOY / "z2jh" / "exchange-pvc.yaml").read_text())
    assert claims["exchange"] == pvc["metadata"]["name"] and "ReadWriteMany" in pvc["spec"]["accessModes"]


def test_the_z2jh_hub_settings_are_jupyterhubs():
    """hub.config's classes and the role hook's spawner attributes are JupyterHub's (KubeSpawner's ``image``
    aside: KubeSpawner is not installed here)."""
    from jupyterhub.auth import Authenticator
    from jupyterhub.spawner import Spawner

    values = yaml.safe_load(Z2JH.read_text())
    config = values["hub"]["config"]
    assert set(config["Authenticator"]) <= set(Authenticator.class_trait_names(config=True))
    assert set(config["KubeSpawner"]) <= set(Spawner.class_trait_names(config=True))
    hook = values["hub"]["extraConfig"]["gametrees-roles.py"]
    ast.parse(hook)
    used = set(re.findall(r"spawner\.(\w+)", hook)) - {"user", "image"}
    assert used <= set(Spawner.class_trait_names()), used - set(Spawner.class_trait_names())


# -- the one-server hub's settings --------------------------------------------------------------------

def config_assignments(path: Path) -> set[tuple[str, str]]:
    """Every ``c.Class.name = ...`` in a traitlets config file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        targets = node.targets if isinstance(node, ast.Assign) else []
        for target in targets:
            for t in (target.elts if isinstance(target, ast.Tuple) else [target]):
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Attribute) \
                        and isinstance(t.value.value, ast.Name) and t.value.value.id == "c":
                    found.add((t.value.attr, t.attr))
    return found


def test_every_setting_of_the_hub_config_is_one_jupyterhub_documents():
    from jupyterhub.app import JupyterHub
    from jupyterhub.auth import Authenticator, DummyAuthenticator
    from jupyterhub.proxy import ConfigurableHTTPProxy
    from jupyterhub.spawner import SimpleLocalProcessSpawner, Spawner

    classes = {c.__name__: c for c in (JupyterHub, Authenticator, DummyAuthenticator, ConfigurableHTTPProxy,
                                       Spawner, SimpleLocalProcessSpawner)}
    settings = config_assignments(HUB_CONFIG)
    assert {("JupyterHub", "concurrent_spawn_limit"), ("JupyterHub", "active_server_limit")} <= settings
    unknown = [f"c.{cls}.{name}" for cls, name in sorted(settings)
               if name not in classes[cls].class_trait_names(config=True)]
    assert not unknown, f"not JupyterHub settings: {unknown}"


def test_the_idle_cullers_flags_are_its_own():
    from jupyterhub_idle_culler import IdleCuller

    flags = re.findall(r'"--([a-z-]+)=', HUB_CONFIG.read_text())
    assert flags, "the hub config starts the idle culler with flags"
    assert {f.replace("-", "_") for f in flags} <= set(IdleCuller.class_trait_names(config=True))


def test_the_default_spawn_limit_is_what_two_free_cores_serve():
    default = int(re.search(r'_setting\("GAMETREES_SPAWN_LIMIT", "(\d+)"\)', HUB_CONFIG.read_text())[1])
    assert default == hub_storm.spawn_limit(2)


# -- the guide's figures --------------------------------------------------------------------------------

def section(title: str) -> str:
    text = GUIDE.read_text()
    start = text.index(title)
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def test_the_storm_table_in_the_guide_is_the_measured_figures():
    storm = section("**A lecture's login storm.**")
    rows = [line for line in storm.splitlines() if re.match(r"\| \d+ \| \d+ s / \d+ s", line)]
    assert rows, "the guide's storm table is missing"
    # each row is its own run; the sizing extrapolates from the largest N's
    cells = max(([c.strip() for c in row.strip("|").split("|")] for row in rows), key=lambda c: int(c[0]))
    assert cells[3] == f"{hub_storm.MEASURED['idle MB']} MB / {hub_storm.MEASURED['kernel MB']} MB", cells
    assert float(cells[4]) == hub_storm.MEASURED["CPU-s per spawn"], cells


def test_the_sizing_table_in_the_guide_is_the_scripts_and_called_extrapolated():
    guide = GUIDE.read_text()
    assert hub_storm.sizing_table() in guide, \
        "rerun `python benchmarks/hub_storm.py --sizing` into INSTRUCTORS.md"
    assert "extrapolated" in section("**A lecture's login storm.**").lower()


def test_sizing_says_which_set_up_fits():
    assert hub_storm.sizing(50)["set-up"] == "one server"
    big = hub_storm.sizing(500)
    assert big["set-up"].startswith("Zero to JupyterHub") and big["nodes"] > 1
    with pytest.raises(ValueError, match="students"):
        hub_storm.sizing(0)
    with pytest.raises(ValueError, match="cores"):
        hub_storm.spawn_limit(0)


# -- pre-starting before class ---------------------------------------------------------------------------

class StandInHub:
    """A hub's REST API for servers, as much as prestart.py uses: a start takes a few polls."""

    def __init__(self, running=(), broken=()):
        self.polls, self.running, self.broken = {}, set(running), set(broken)
        self.most_at_once, self.lock = 0, threading.Lock()
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def answer(self, status, body=None):
                data = json.dumps(body or {}).encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self):
                login = self.path.split("/")[-2]
                with hub.lock:
                    if login in hub.running:
                        return self.answer(400, {"message": f"{login} is already running"})
                    if login in hub.broken:
                        return self.answer(500, {"message": "spawner failed"})
                    hub.polls[login] = 3
                    hub.most_at_once = max(hub.most_at_once, len(hub.polls))
                self.answer(202)

            def do_GET(self):
                login = self.path.split("/")[-1]
                with hub.lock:
                    if login in hub.polls:
                        hub.polls[login] -= 1
                        if hub.polls[login] <= 0:
                            del hub.polls[login]
                            hub.running.add(login)
                            return self.answer(200, {"servers": {"": {"ready": True}}})
                        return self.answer(200, {"servers": {"": {"ready": False, "pending": "spawn"}}})
                    server = {"": {"ready": True}} if login in hub.running else {}
                self.answer(200, {"servers": server})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_prestart_starts_every_listed_server_a_few_at_a_time():
    stand_in = StandInHub(running={"s00"}, broken={"s07"})
    logins = [f"s{i:02d}" for i in range(12)]
    out = io.StringIO()
    try:
        failed = prestart.prestart(prestart.Hub(stand_in.url, "token"), logins, at_once=3, timeout=30,
                                   out=out, poll=0.01)
    finally:
        stand_in.close()
    assert failed == ["s07"]
    assert stand_in.most_at_once == 3
    assert stand_in.running == set(logins) - {"s07"}
    lines = out.getvalue().splitlines()
    assert "s00: already running" in lines
    assert any(line.startswith("s07: NOT started (HTTP 500") for line in lines)
    assert sum(": ready in " in line for line in lines) == 10


@pytest.mark.parametrize("args, env, message", [
    (["missing.txt"], {"JUPYTERHUB_API_TOKEN": "t"}, "missing.txt: no such student list"),
    (["LIST"], {}, "set JUPYTERHUB_API_TOKEN"),
    (["LIST", "--at-once", "0"], {"JUPYTERHUB_API_TOKEN": "t"}, "--at-once must be at least 1"),
    (["LIST", "--hub", "http://127.0.0.1:9"], {"JUPYTERHUB_API_TOKEN": "t"}, "did not answer"),
])
def test_prestart_says_in_one_line_why_it_cannot_run(tmp_path, args, env, message):
    students = tmp_path / "students.txt"
    students.write_text("jdoe\n# a comment\nasmith\n")
    args = [str(students) if a == "LIST" else a for a in args]
    done = subprocess.run([sys.executable, str(DEPLOY / "jupyterhub" / "prestart.py"), *args], cwd=tmp_path,
                          env={"PATH": "/usr/bin:/bin", **env}, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


# -- what every user's server reads from deploy/jupyterhub --------------------------------------------

@pytest.mark.parametrize("app", ["jupyter_server.serverapp:ServerApp", "nbconvert.nbconvertapp:NbConvertApp",
                                 "nbgrader.apps:NbGrader"])
def test_every_jupyter_program_of_a_user_starts_kernels_on_unix_sockets(app, monkeypatch):
    """The server's kernels, nbgrader's Validate (the NbGrader app's settings) and ``jupyter nbconvert
    --execute`` typed in a terminal all read the hub's folder's settings: ipc, not TCP ports."""
    module, name = app.split(":")
    cls = getattr(pytest.importorskip(module), name)
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", str(DEPLOY / "jupyterhub"))
    monkeypatch.setenv("JUPYTER_CONFIG_DIR", str(REPO / "no-such-folder"))  # not this machine's user settings
    instance = cls()
    instance.load_config_file()
    assert instance.config.KernelManager.transport == "ipc"


def load_hub_config(folder: Path) -> subprocess.CompletedProcess:
    """``folder``'s jupyterhub_config.py read as the hub reads it (not in try-out mode), in a subprocess."""
    code = ("from traitlets.config.loader import PyFileConfigLoader; import sys; "
            "PyFileConfigLoader('jupyterhub_config.py', path=sys.argv[1]).load_config()")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "GAMETREES_INSTRUCTORS": "no-such-login-4f2a"}
    return subprocess.run([sys.executable, "-c", code, str(folder)], capture_output=True, text=True, env=env,
                          timeout=60)


def test_the_hub_refuses_a_checkout_other_users_cannot_read(tmp_path):
    for mode in (0o755, 0o700):
        parent = tmp_path / f"checkout-{mode:o}"
        parent.mkdir()
        parent.chmod(mode)
        folder = parent / "jupyterhub"
        folder.mkdir()
        for name in ("jupyterhub_config.py", "jupyter_config.py", "nbgrader_config.py"):
            (folder / name).write_text((DEPLOY / "jupyterhub" / name).read_text())
            (folder / name).chmod(0o644)
        done = load_hub_config(folder)
        if mode == 0o700:
            assert done.returncode != 0
            assert f"{parent} is closed to other users" in done.stderr
            assert "/opt/gametrees/src" in done.stderr
        else:  # loads, unless a folder above (pytest's own, mode 700) is closed: then it names that one
            closed = re.search(r"RuntimeError: (\S+) is closed to other users", done.stderr)
            assert done.returncode == 0 or (closed and Path(closed[1]) in [tmp_path, *tmp_path.parents]), \
                done.stderr
