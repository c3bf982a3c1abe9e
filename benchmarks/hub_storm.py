"""A lecture's login storm on the course's JupyterHub: N students' servers started at once.

Starts the hub from ``deploy/jupyterhub/jupyterhub_config.py`` in its try-out mode on 127.0.0.1
(every server as this machine's user, capped in a cgroup of its own as on a real server), then,
through the hub's REST API with an admin service's token, asks for N servers at the same moment
(one thread each, as N students pressing *Start* together), and prints per N:

* **spawn**: seconds from the request to the server being ready (median, 90th percentile, max);
* **hub latency**: the hub's answer time to ``GET /hub/api/`` every 0.2 s during the storm
  (median, max): what a student who is already in feels while the others log in;
* **memory per student**: resident memory (MB) of one server with its process tree, idle after
  the start, and with a kernel that has imported gametrees and drawn a student's A2 tree (what an
  open assignment costs), the mean over the N servers;
* **CPU-s per spawn**: the CPU seconds the hub and the servers used during the storm, divided by N.

Then every server is stopped before the next N. It needs configurable-http-proxy (as
``tests/hub.py`` finds it) and a students' environment made by ``deploy/jupyterhub/make_env.sh
student`` (``--env``; without it, one is made in a temporary folder first, which takes minutes).

Run: python benchmarks/hub_storm.py [--students 10 20] [--env PATH]
The figures depend on the machine's free cores and memory: say which machine, and what else ran.

``--sizing`` starts nothing: it prints INSTRUCTORS.md's sizing table for larger classes (``--classes
50 200 500``), **extrapolated** from :data:`MEASURED` (the figures of the last storm run, as in
INSTRUCTORS.md's storm table) by :func:`sizing`: memory grows with the students working at once, the
CPU of the starts with the students starting at once.

Run: python benchmarks/hub_storm.py --sizing [--classes 50 200 500] [--server-memory 64] [--cores 4]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import browser  # noqa: E402  (tests/browser.py: free ports, stopping a process group)
import psutil  # noqa: E402
from hub import DEPLOY, chp_path, rss_mb, server_pid  # noqa: E402  (tests/hub.py)
from report import table  # noqa: E402  (benchmarks/report.py)

#: What the storm measured on the test machine (INSTRUCTORS.md, "A lecture's login storm": the table's
#: largest N, ``--students 40``) and one server with A2 run top to bottom in JupyterLab
#: (``tests/test_hub.py``, INSTRUCTORS.md step 1). Update it with the guide's table after a new run:
#: tests/test_hub_config.py holds the two to each other, and the guide's sizing table to :func:`sizing_table`.
MEASURED = {"idle MB": 152, "kernel MB": 217, "A2 MB": 300, "CPU-s per spawn": 3.0}
#: Memory the system and the hub take besides the students' servers (GB), and a server's time to answer
#: after it starts (``c.Spawner.http_timeout`` in deploy/jupyterhub/jupyterhub_config.py, seconds).
SYSTEM_GB, HTTP_TIMEOUT = 1, 60

KERNEL_CODE = ("import gametrees as gt; ex = gt.exercises.generate('pruning', seed='{login}/A2', "
               "difficulty='medium'); print(len(str(ex.tree)))")


class Hub:
    """The hub in try-out mode with an admin service token; its REST API."""

    def __init__(self, root: Path, env_dir: Path):
        self.root, self.env_dir = root, env_dir
        self.token = secrets.token_hex(24)
        self.port, self.hub_port, self.api_port = (browser.free_port() for _ in range(3))
        self.url = f"http://127.0.0.1:{self.port}"
        for folder in ("homes", "exchange", "state", "runtime"):
            (root / folder).mkdir()
        config = root / "storm_config.py"
        config.write_text(
            "c = get_config()  # noqa: F821\n"
            f"load_subconfig({str(DEPLOY / 'jupyterhub_config.py')!r})  # noqa: F821\n"
            f"c.JupyterHub.services.append({{'name': 'storm', 'api_token': {self.token!r}}})\n"
            "c.JupyterHub.load_roles.append({'name': 'admin', 'services': ['storm']})\n"
            "c.JupyterHub.concurrent_spawn_limit = 1000  # measure the machine, not the hub's queue\n")
        env = dict(os.environ, PYTHONPATH=str(ROOT), GAMETREES_HUB_TRY_OUT="1",
                   GAMETREES_HUB_PASSWORD=secrets.token_hex(8), GAMETREES_HUB_HOMES=str(root / "homes"),
                   GAMETREES_HUB_RUNTIME=str(root / "runtime"), GAMETREES_HUB_STATE=str(root / "state"),
                   GAMETREES_HUB_URL=self.url, GAMETREES_STUDENT_ENV=str(env_dir),
                   GAMETREES_INSTRUCTOR_ENV=str(env_dir), GAMETREES_EXCHANGE=str(root / "exchange"),
                   GAMETREES_CULL_IDLE_SECONDS="0")
        bins = [str(Path(sys.executable).parent), str(Path(chp_path()).parent)]
        env["PATH"] = os.pathsep.join([*bins, env["PATH"]])
        self.log = open(root / "jupyterhub.log", "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(config),
             f"--JupyterHub.hub_bind_url=http://127.0.0.1:{self.hub_port}",
             f"--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{self.api_port}"],
            stdout=self.log, stderr=subprocess.STDOUT, env=env, cwd=root / "state", start_new_session=True)
        deadline = time.monotonic() + 90
        while self.api("GET", "/hub/health")[0] != 200:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.log.flush()
                tail = (root / "jupyterhub.log").read_text(errors="replace").splitlines()[-30:]
                raise SystemExit("the hub did not start:\n" + "\n".join(tail))
            time.sleep(0.3)

    def api(self, method, path, data=None, timeout=60):
        body = None if data is None else json.dumps(data).encode()
        request = urllib.request.Request(f"{self.url}{path}", data=body, method=method,
                                         headers={"Authorization": f"token {self.token}"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as r:
                text = r.read().decode()
                return r.status, (json.loads(text) if text.strip().startswith(("{", "[")) else text)
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode(errors="replace")
        except (urllib.error.URLError, OSError) as e:
            return 0, str(e)

    def state(self, login):
        """``"ready"``, ``"gone"`` (the hub gave up: no server, nothing pending) or ``"pending"``."""
        status, user = self.api("GET", f"/hub/api/users/{login}")
        if status != 200:
            return "pending"
        server = (user.get("servers") or {}).get("")
        if server and server.get("ready"):
            return "ready"
        return "gone" if server is None and not user.get("pending") else "pending"

    def stop(self):
        browser.stop_group(self.proc, grace=30)
        self.log.close()


def cpu_seconds(procs):
    total = 0.0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system + t.children_user + t.children_system
        except psutil.Error:
            pass
    return total


def run_kernel(hub, login):
    """A kernel in ``login``'s server that imports gametrees and makes the student's A2 tree."""
    import websocket

    status, kernel = hub.api("POST", f"/user/{login}/api/kernels", {"name": "python3"})
    if status != 201:
        raise SystemExit(f"{login}: starting a kernel answered {status}: {kernel}")
    session, msg_id = uuid.uuid4().hex, uuid.uuid4().hex
    ws = websocket.create_connection(f"ws://127.0.0.1:{hub.port}/user/{login}/api/kernels/"
                                     f"{kernel['id']}/channels?session_id={session}",
                                     header=[f"Authorization: token {hub.token}"],
                                     suppress_origin=True, timeout=120)
    ws.send(json.dumps({"header": {"msg_id": msg_id, "msg_type": "execute_request", "username": login,
                                   "session": session, "date": "", "version": "5.3"},
                        "parent_header": {}, "metadata": {}, "channel": "shell",
                        "content": {"code": KERNEL_CODE.format(login=login), "silent": False,
                                    "store_history": False, "user_expressions": {}, "allow_stdin": False}}))
    while True:
        msg = json.loads(ws.recv())
        if msg.get("parent_header", {}).get("msg_id") == msg_id and msg["header"]["msg_type"] == "status" \
                and msg["content"]["execution_state"] == "idle":
            break
    ws.close()


def storm(hub, n):
    logins = [f"st{n:03d}x{i:03d}" for i in range(n)]
    status, body = hub.api("POST", "/hub/api/users", {"usernames": logins})
    if status not in (200, 201):
        raise SystemExit(f"creating users answered {status}: {body}")
    hub_proc = psutil.Process(hub.proc.pid)
    cpu_before = cpu_seconds([hub_proc, *hub_proc.children(recursive=True)])
    latencies, done = [], threading.Event()

    def probe():
        while not done.is_set():
            t = time.monotonic()
            hub.api("GET", "/hub/api/", timeout=60)
            latencies.append(time.monotonic() - t)
            time.sleep(0.2)

    spawn = {}

    def start(login):
        t = time.monotonic()
        status, body = hub.api("POST", f"/hub/api/users/{login}/server")
        if status not in (201, 202):
            spawn[login] = float("nan")
            print(f"  {login}: HTTP {status} {str(body)[:200]}", file=sys.stderr)
            return
        while (state := hub.state(login)) != "ready":
            if state == "gone" or time.monotonic() - t > 300:  # gone: past c.Spawner.http_timeout, say
                spawn[login] = float("nan")
                print(f"  {login}: not started ({state} after {time.monotonic() - t:.0f} s)", file=sys.stderr)
                return
            time.sleep(0.25)
        spawn[login] = time.monotonic() - t

    prober = threading.Thread(target=probe, daemon=True)
    prober.start()
    starters = [threading.Thread(target=start, args=(login,)) for login in logins]
    for s in starters:
        s.start()
    for s in starters:
        s.join()
    done.set()
    prober.join()
    cpu_spawn = cpu_seconds([hub_proc, *hub_proc.children(recursive=True)]) - cpu_before
    started = [login for login in logins if spawn[login] == spawn[login]]  # a failed start is NaN
    if not started:
        raise SystemExit(f"N = {n}: no server started")
    idle = [rss_mb(pid) for pid in map(server_pid, started) if pid]
    for login in started:
        run_kernel(hub, login)
    working = [rss_mb(pid) for pid in map(server_pid, started) if pid]
    for login in logins:
        hub.api("DELETE", f"/hub/api/users/{login}/server")
    deadline = time.monotonic() + 120
    while any(server_pid(login) for login in logins) and time.monotonic() < deadline:
        time.sleep(0.5)
    for login in logins:
        hub.api("DELETE", f"/hub/api/users/{login}")
    times = sorted(spawn.values())
    failed = sum(t != t for t in times)
    times = [t for t in times if t == t]
    return {
        "N": n, "failed": failed,
        "spawn median": statistics.median(times), "spawn p90": times[math.ceil(0.9 * len(times)) - 1],
        "spawn max": max(times),
        "latency median": statistics.median(latencies), "latency max": max(latencies),
        "idle MB": statistics.mean(idle), "working MB": statistics.mean(working), "CPU-s": cpu_spawn / n,
    }


def spawn_limit(cores: float, measured: dict = MEASURED) -> int:
    """``c.JupyterHub.concurrent_spawn_limit`` for ``cores`` free cores: starts in flight share the cores, so
    each of L starts takes about L x CPU-s / cores seconds; L is chosen to keep that within half of
    ``HTTP_TIMEOUT``.

    >>> spawn_limit(4, {"CPU-s per spawn": 3.0})
    40
    """
    if cores <= 0:
        raise ValueError(f"cores must be positive, got {cores!r}")
    return max(1, math.floor(cores * HTTP_TIMEOUT / 2 / measured["CPU-s per spawn"]))


def sizing(students: int, server_memory_gb: float = 64, cores: float = 4, measured: dict = MEASURED) -> dict:
    """What ``students`` need, extrapolated from ``measured`` (one server's memory and a start's CPU).

    * **memory, all working**: every student with A2 run (``A2 MB`` each) plus ``SYSTEM_GB``;
    * **memory, pre-started and idle**: every server started, nobody working yet (``idle MB`` each);
    * **cores for a storm**: free cores for every student pressing *Start* together to be served within
      ``HTTP_TIMEOUT`` (N x CPU-s / HTTP_TIMEOUT);
    * **pre-start minutes**: the time to start every server ahead of class on ``cores`` free cores, at
      ``spawn_limit(cores)`` at a time;
    * **set-up**: one server while the memory of all working fits ``server_memory_gb``, else Zero to
      JupyterHub with that many nodes of ``server_memory_gb``.

    >>> r = sizing(100, server_memory_gb=16, cores=2, measured={"idle MB": 100, "A2 MB": 300,
    ...                                                         "CPU-s per spawn": 3.0})
    >>> r["memory GB"], r["idle GB"], r["storm cores"], r["pre-start min"], r["nodes"]
    (31.0, 11.0, 5, 2.5, 2)
    """
    if students < 1:
        raise ValueError(f"students must be at least 1, got {students!r}")
    if server_memory_gb <= SYSTEM_GB:
        raise ValueError(f"server_memory_gb must be more than the system's {SYSTEM_GB} GB, "
                         f"got {server_memory_gb!r}")
    working = students * measured["A2 MB"] / 1000 + SYSTEM_GB
    cpu = students * measured["CPU-s per spawn"]
    nodes = math.ceil(students * measured["A2 MB"] / 1000 / (server_memory_gb - SYSTEM_GB))
    return {"students": students, "memory GB": round(working, 1),
            "idle GB": round(students * measured["idle MB"] / 1000 + SYSTEM_GB, 1),
            "storm cores": math.ceil(cpu / HTTP_TIMEOUT), "pre-start min": round(cpu / cores / 60, 1),
            "nodes": nodes, "set-up": "one server" if nodes == 1 else f"Zero to JupyterHub, {nodes} nodes"}


def sizing_table(classes=(50, 200, 500), server_memory_gb: float = 64, cores: float = 4) -> str:
    """INSTRUCTORS.md's sizing table (Markdown): :func:`sizing` of each class size."""
    lines = [(f"| students | memory, all working | memory, pre-started and idle | free cores for a storm "
              f"(all within {HTTP_TIMEOUT} s) | pre-starting on {cores:g} free cores | set-up "
              f"({server_memory_gb:g} GB servers) |"),
             "| --- | --- | --- | --- | --- | --- |"]
    for n in classes:
        r = sizing(n, server_memory_gb, cores)
        lines.append(f"| {n} | {r['memory GB']:g} GB | {r['idle GB']:g} GB | {r['storm cores']} | "
                     f"{r['pre-start min']:g} min | {r['set-up']} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, nargs="+", default=[10, 20],
                        help="storm sizes (default 10 20)")
    parser.add_argument("--env", help="a students' environment made by make_env.sh (default: make one)")
    parser.add_argument("--sizing", action="store_true",
                        help="start nothing: print the sizing table extrapolated from the measured figures")
    parser.add_argument("--classes", type=int, nargs="+", default=[50, 200, 500],
                        help="class sizes of --sizing (default 50 200 500)")
    parser.add_argument("--server-memory", type=float, default=64,
                        help="memory of one server or node in GB, for --sizing (default 64)")
    parser.add_argument("--cores", type=float, default=4,
                        help="free cores for pre-starting, for --sizing (default 4)")
    args = parser.parse_args()
    if args.sizing:
        if any(n < 1 for n in args.classes) or args.cores <= 0 or args.server_memory <= SYSTEM_GB:
            parser.error(f"--sizing: class sizes from 1, --cores above 0, --server-memory above {SYSTEM_GB}")
        print(f"Extrapolated from the measured figures {MEASURED} (not measured at these sizes):\n")
        print(sizing_table(args.classes, args.server_memory, args.cores))
        limit = spawn_limit(args.cores)
        print(f"\nc.JupyterHub.concurrent_spawn_limit for {args.cores:g} free cores: {limit}")
        return
    if any(n < 1 or n > 500 for n in args.students):
        parser.error("--students: each size from 1 to 500")
    if chp_path() is None:
        parser.error("configurable-http-proxy is missing: "
                     "npm install --prefix .ci/node configurable-http-proxy@5")
    root = Path(tempfile.mkdtemp(prefix="gt-storm-"))
    try:
        env_dir = Path(args.env) if args.env else root / "env"
        if not args.env:
            print("making the students' environment (make_env.sh student) ...", flush=True)
            subprocess.run(["bash", str(DEPLOY / "make_env.sh"), "student", str(env_dir)], check=True,
                           env=dict(os.environ, PYTHON=sys.executable, GAMETREES_SINGLE_USER="1"))
        hub = Hub(root, env_dir)
        rows = []
        try:
            for n in args.students:
                r = storm(hub, n)
                rows.append([r["N"], r["failed"], f"{r['spawn median']:.1f}", f"{r['spawn p90']:.1f}",
                             f"{r['spawn max']:.1f}", f"{r['latency median'] * 1000:.0f}",
                             f"{r['latency max'] * 1000:.0f}", f"{r['idle MB']:.0f}",
                             f"{r['working MB']:.0f}",
                             f"{r['CPU-s']:.1f}"])
        finally:
            hub.stop()
        table(f"Login storm: N servers started at once ({psutil.cpu_count()} cores, "
              f"{psutil.virtual_memory().total / 2**30:.0f} GB)",
              ["N", "failed", "spawn s med", "p90", "max", "hub ms med", "max", "MB idle", "MB working",
               "CPU-s/spawn"], rows)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
