"""The course's JupyterHub as an admin sets it up on a server, and what its users meet (tests/hub_server.py).

INSTRUCTORS.md section 8, steps 2 to 5 as written (as root, real unix accounts: an instructor and two
students, the victim ``jdoe`` and the classmate ``asmith`` of the guide, under names of this run),
the hub on https://127.0.0.1 with its own certificate, PAM logins and each server as its user. Then,
through JupyterLab's own requests (terminals and kernels over the hub's proxy), what a person meets:

* the course and the instructor's home are private from the moment they exist, before the hub or
  the instructor ever started; a student cannot read them from their terminal;
* the hub answers HTTPS on 127.0.0.1 only; PAM logins; a student added through the REST API (what the
  Admin page does) logs in without a restart;
* a terminal, a login shell, finds ``nbgrader`` and ``python`` of the course's environment;
* the exchange is sticky; ``nbgrader submit A2 --student <victim>`` typed by the classmate is set
  aside at collect, and the victim's own submission is the one collected;
* kernels' channels are on no TCP port (ipc); the classmate cannot connect to the victim's kernel's socket;
* a memory hog is killed at its server's cap while the victim's kernel keeps its state; the
  number of processes one server may start is capped too.

Runs as root only (it makes accounts, and removes them after). Skipped where it cannot run, unless
GT_REQUIRE_HUB=1 (CI sets it).
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import time

import pytest
from hub_server import ServerCourse, server_missing

MEMORY_LIMIT = "700M"
PROCESS_LIMIT = 160
ASSIGNMENT = "A2"
NOTEBOOK = "A2/A2_alpha_beta.ipynb"

_missing = server_missing()
if _missing and os.environ.get("GT_REQUIRE_HUB") == "1":
    raise RuntimeError(f"GT_REQUIRE_HUB=1 but the hub test with real accounts cannot run: {_missing}")
pytestmark = [pytest.mark.hub, pytest.mark.skipif(_missing is not None, reason=_missing or "")]


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def python_c(script: str) -> str:
    """``python -c`` with ``script`` as one line a terminal can take (bash's ``$'...'`` quoting)."""
    quoted = script.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n")
    return f"python -c $'{quoted}'"


@pytest.fixture(scope="module")
def server():
    course = ServerCourse()
    try:
        course.make_env()
        course.accounts_and_course()
        # Before the hub ever ran, and before the instructor ever logged in.
        course.before_hub = {
            "modes": {str(p): _mode(p) for p in (f"/home/{course.instructor}", course.course,
                                                  f"/home/{course.victim}", course.exchange)},
            "grep": course.runs_as(course.other, f"grep -rl 'BEGIN SOLUTION' /home/{course.instructor}"),
        }
        t = time.monotonic()
        course.start(memory=MEMORY_LIMIT, processes=PROCESS_LIMIT)
        for login in (course.instructor, course.victim, course.other):
            course.start_server(login)
        course.timings["start the hub and three servers"] = time.monotonic() - t
        yield course
    finally:
        course.stop()
        course.clean_up()
        print("\nhub timings (s): " + ", ".join(f"{k} {v:.1f}" for k, v in course.timings.items()))


def test_homes_and_the_course_are_private_from_the_moment_they_exist(server):
    modes = server.before_hub["modes"]
    for path in (f"/home/{server.instructor}", str(server.course), f"/home/{server.victim}"):
        assert modes[path] == 0o700, f"{path} was {oct(modes[path])} before the hub started"
    grep = server.before_hub["grep"]
    assert grep.returncode != 0 and "A2_alpha_beta" not in grep.stdout, grep.stdout + grep.stderr
    # And from a student's own JupyterLab terminal, once the hub runs.
    shown, status = server.terminal(server.other, f"cat {server.course}/source/{NOTEBOOK} | head -c 200")
    assert "Permission denied" in shown and "nbgrader" not in shown, shown


def test_the_hub_speaks_https_on_the_address_the_guide_gives_and_logs_in_with_pam(server):
    import urllib.error
    import urllib.request

    import psutil

    listening = [c.laddr for c in psutil.net_connections("inet")
                 if c.status == "LISTEN" and c.laddr.port == server.port]
    assert listening and {a.ip for a in listening} == {"127.0.0.1"}, listening
    with pytest.raises((urllib.error.URLError, ConnectionError, OSError)):  # no plain HTTP there
        urllib.request.urlopen(f"http://127.0.0.1:{server.port}/hub/login", timeout=10).read()

    assert server.log_in(server.victim, server.passwords[server.victim]) == 302, "the system password logs in"
    assert server.log_in(server.victim, "wrong" + server.passwords[server.victim]) == 403


def test_a_student_enrolled_through_the_rest_api_logs_in_without_a_restart(server):
    late = server.victim.replace("gtv", "gtl")
    server.made.append(late)
    subprocess.run(["useradd", "-m", "-K", "HOME_MODE=0700", "-s", "/bin/bash", late], check=True)
    subprocess.run(["chpasswd"], input=f"{late}:{server.passwords[server.victim]}\n", text=True, check=True)
    assert server.log_in(late, server.passwords[server.victim]) == 403, "not on the student list yet"
    status, body = server.api("POST", "/hub/api/users", {"usernames": [late]})  # what the Admin page does
    assert status == 201, body
    assert server.log_in(late, server.passwords[server.victim]) == 302
    assert server.proc.poll() is None and server.server_ready(server.victim), "no restart, no server stopped"


def test_a_terminal_is_a_login_shell_with_the_course_tools(server):
    for login in (server.victim, server.instructor):
        shown, status = server.terminal(login, "shopt -q login_shell && echo LOGIN; "
                                               "command -v nbgrader python; nbgrader --version")
        assert status == 0, shown
        assert "LOGIN" in shown, "JupyterLab's terminal is a login shell (the case /etc/profile breaks)"
        assert f"{server.env_dir}/bin/nbgrader" in shown and f"{server.env_dir}/bin/python" in shown, shown


def test_a_submission_under_a_classmates_id_is_set_aside_and_the_victims_is_collected(server):
    shown, status = server.terminal(server.instructor, "cd ~/course && nbgrader generate_assignment A2 "
                                                       "&& nbgrader release_assignment A2")
    assert status == 0, shown
    assert _mode(server.exchange) == 0o1777
    course_folder = server.exchange / "gametrees-test"
    assert _mode(course_folder / "inbound") & stat.S_ISVTX, "release makes the course's inbound sticky"
    mark = ("import nbformat, sys; nb = nbformat.read('A2/A2_alpha_beta.ipynb', 4); "
            "nb.cells.append(nbformat.v4.new_markdown_cell('written by ' + sys.argv[1])); "
            "nbformat.write(nb, 'A2/A2_alpha_beta.ipynb')")
    for login, submit in ((server.victim, "nbgrader submit A2"),
                          (server.other, f"nbgrader submit A2 --student {server.victim}")):
        shown, status = server.terminal(login, f"cd ~ && nbgrader fetch_assignment A2 && "
                                               f"{python_c(mark)} {login} && {submit}")
        assert status == 0, f"{login}: {shown}"
        time.sleep(1.1)  # the classmate's submission is the newer one, as in the attack
    # The classmate cannot move the instructor's folder out of the exchange (sticky bit).
    shown, status = server.terminal(server.other, f"mv {course_folder} {server.exchange}/moved")
    assert status != 0 and course_folder.is_dir(), shown

    shown, status = server.terminal(server.instructor, "cd ~/course && nbgrader collect A2")
    assert status == 0, shown
    assert "Set aside" in shown and server.other in shown, shown
    collected = (server.course / "submitted" / server.victim / NOTEBOOK).read_text()
    assert f"written by {server.victim}" in collected and f"written by {server.other}" not in collected
    (aside,) = (server.course / "quarantined" / ASSIGNMENT / server.victim).iterdir()
    assert aside.name.startswith(f"{server.other}+")
    assert f"written by {server.other}" in (aside / "A2_alpha_beta.ipynb").read_text()
    assert not (server.course / "submitted" / server.other).exists()


def _kernel_process(login, kernel_id):
    import psutil

    for p in psutil.process_iter(["username", "cmdline"]):
        if p.info["username"] == login and any(kernel_id in part for part in p.info["cmdline"] or []):
            return p
    raise AssertionError(f"no process of {login}'s kernel {kernel_id}")


def test_kernels_are_on_private_sockets_a_classmate_cannot_reach(server):
    kernel = server.kernel(server.victim)
    try:
        assert kernel.run("secret = 6 * 7; print(secret)").strip() == "42"
        process = _kernel_process(server.victim, kernel.id)
        # ipykernel's one TCP listener is the pipe (a zmq PULL socket) its forked child processes send their
        # output into, each message with a random key: nothing can be read from it. The channels: not TCP.
        tcp = [c.laddr for c in process.net_connections("inet") if c.status == "LISTEN"]
        assert len(tcp) <= 1 and all(a.ip == "127.0.0.1" for a in tcp), tcp
        connection_file = next(p for p in process.cmdline() if p.endswith(f"kernel-{kernel.id}.json"))
        info = json.loads(open(connection_file).read())
        assert info["transport"] == "ipc", info
        runtime = os.path.dirname(connection_file)
        assert runtime.startswith(f"/home/{server.victim}/") and _mode(runtime) & 0o777 == 0o700, runtime
        socket_path = f"{info['ip']}-{info['iopub_port']}"
        assert stat.S_ISSOCK(os.stat(socket_path).st_mode)
        probe = ("import socket; s = socket.socket(socket.AF_UNIX)\n"
                 f"try: s.connect({socket_path!r}); print('CONNECTED')\n"
                 "except OSError as e: print(type(e).__name__)")
        shown, status = server.terminal(server.other, python_c(probe))
        assert "PermissionError" in shown and "CONNECTED" not in shown, shown
    finally:
        kernel.close()


def test_a_memory_hog_is_capped_and_its_neighbour_keeps_working(server):
    from gametrees.classroom.isolation import Cgroup

    probe = Cgroup(2**30, 64)
    by = "a cgroup" if probe.active else "rlimits"
    probe.remove()
    assert f"{server.other}'s server: at most 700 MiB of memory and {PROCESS_LIMIT} processes, held by {by}" \
        in server.log_path.read_text(), server.log_tail()
    neighbour = server.kernel(server.victim)
    try:
        assert neighbour.run("kept = sum(range(1000)); print(kept)").strip() == "499500"
        hog = "x = b'x' * (1500 * 2**20); print('ALLOCATED', len(x))"
        shown, status = server.terminal(server.other, python_c(hog))
        assert "ALLOCATED" not in shown, "1.5 GB in a server capped at 700 MB"
        assert status == 137 or "MemoryError" in shown, shown  # killed at the cgroup's cap, or refused
        assert neighbour.run("print(kept)").strip() == "499500", "the neighbour's kernel kept its state"
        assert server.server_ready(server.other), "the hog's own server survives"
        shown, status = server.terminal(server.other, "echo still here")
        assert "still here" in shown
        forks = ("import subprocess\nps = []\ntry:\n    for _ in range(1000): "
                 "ps.append(subprocess.Popen(['sleep', '60']))\n"
                 "except OSError as e: print('STOPPED', type(e).__name__)\n"
                 "print('STARTED', len(ps))\nfor p in ps: p.kill()\n")
        shown, status = server.terminal(server.other, python_c(forks))
        assert "STOPPED" in shown, shown
        started = int(shown.split("STARTED")[-1].split()[0])
        assert 0 < started < PROCESS_LIMIT, shown
    finally:
        neighbour.close()
