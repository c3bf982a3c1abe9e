"""The operating system's walls around student code (gametrees/classroom/isolation.py), tried from inside.

Each test starts a sandbox as grading does (:meth:`Isolation.start`: the child's view, or the kernel's
with the student environment) and runs code that has already escaped every Python-level guard (there is
none here at all): what it reaches is what the walls let through. The end-to-end escapes through nbgrader
and the grading command are in tests/test_isolation.py.
"""

import os
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import psutil
import pytest

import gametrees
from gametrees.classroom import isolation
from gametrees.classroom.isolation import Isolation, IsolationUnavailable

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(gametrees.__file__).resolve().parent

if not isolation.bwrap_available():
    if os.environ.get("GT_REQUIRE_BWRAP"):
        pytest.fail("GT_REQUIRE_BWRAP is set but bubblewrap cannot make a sandbox here", pytrace=False)
    pytest.skip("bubblewrap is not installed (apt-get install bubblewrap)", allow_module_level=True)


def run(code, *, packages=False, timeout=60, walls=None, scratch=None):
    """Run ``code`` in a fresh sandbox; ``(exit status, stdout)``."""
    walls = walls or Isolation("bwrap")
    with tempfile.TemporaryDirectory(prefix="walls-") as tmp:
        python = isolation.interpreter(packages)
        args = [python, "-c", textwrap.dedent(code)] if packages else [python, "-I", "-S", "-c",
                                                                       textwrap.dedent(code)]
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONPATH": str(PACKAGE.parent)}
        work = os.path.join(scratch or tmp, "work")
        with walls.start(args, scratch=scratch or tmp, env=env, packages=packages, writable=[work], cwd=work,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT) as box:
            out, _ = box.proc.communicate(timeout=timeout)
            return box.proc.returncode, out.decode("utf-8", "replace")


def test_the_child_finds_no_gametrees_even_after_site_main_and_no_installed_package():
    code, out = run(f"""
        import site, sys, os
        site.main()                      # what an escaped child does first
        sys.path.insert(0, {str(PACKAGE.parent)!r})
        for name in ("gametrees", "nbgrader", "networkx", "numpy"):
            try:
                __import__(name)
                print("IMPORTED", name)
            except ImportError:
                print("missing", name)
        print("checkout visible:", os.path.exists({str(ROOT)!r}), os.path.exists({str(PACKAGE)!r}))
        print("uid", os.getuid())
    """)
    assert code == 0, out
    assert "IMPORTED" not in out and out.count("missing") == 4
    assert "checkout visible: False False" in out and "uid 65534" in out


def test_no_network_not_even_this_machines_loopback():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(0.5)
    port = server.getsockname()[1]
    try:
        code, out = run(f"""
            import socket
            try:
                socket.create_connection(("127.0.0.1", {port}), timeout=2)
                print("CONNECTED")
            except OSError as exc:
                print("refused", type(exc).__name__)
        """)
        with pytest.raises(socket.timeout):
            server.accept()
    finally:
        server.close()
    assert "refused" in out and "CONNECTED" not in out


def test_writes_land_only_in_the_scratch_folder(tmp_path):
    canary = tmp_path / "canary.txt"
    target = PACKAGE / "classroom" / "verdicts.py"
    before = target.read_bytes()
    code, out = run(f"""
        import os
        for path in ({str(canary)!r}, {str(target)!r}, "/usr/written-by-student", "/etc/passwd"):
            try:
                with open(path, "a") as f:
                    f.write("pwned")
                print("WROTE", path)
            except OSError as exc:
                print("refused", path, type(exc).__name__)
        open("mine.txt", "w").write("ok")       # the scratch folder is the working folder
        print("scratch ok", os.path.exists("mine.txt"))
    """)
    assert code == 0, out
    # the canary's folder does not exist inside (only /tmp's own tmpfs): refused too, and nothing outside
    assert "WROTE" not in out, out
    assert not canary.exists() and target.read_bytes() == before
    assert not Path("/usr/written-by-student").exists() and "scratch ok True" in out


def test_the_kernels_view_has_the_package_read_only_and_nothing_else_of_the_checkout():
    code, out = run(f"""
        import os, gametrees
        print("package", os.path.dirname(gametrees.__file__))
        print("instructor", os.path.exists({str(ROOT / "instructor")!r}),
              "tests", os.path.exists({str(ROOT / "tests")!r}))
        try:
            verdicts = os.path.join(os.path.dirname(gametrees.__file__), "classroom", "verdicts.py")
            open(verdicts, "a").write("#")
            print("WROTE package")
        except OSError as exc:
            print("package read-only", type(exc).__name__)
    """, packages=True)
    assert code == 0, out
    assert f"package {PACKAGE}" in out and "instructor False tests False" in out
    assert "package read-only" in out


def _marked(marker):
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        try:
            if any(marker in part for part in proc.info["cmdline"] or []):
                found.append(proc.pid)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return found


def test_nothing_outlives_the_sandbox_not_even_a_double_forked_daemon():
    marker = f"gt-daemon-{os.getpid()}-{time.monotonic_ns()}"
    walls = Isolation("bwrap")
    with tempfile.TemporaryDirectory() as tmp:
        python = isolation.interpreter(False)
        daemon = (f"import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
                  f"        os.execv({python!r},\n"
                  f"                 [{python!r}, '-c', 'import time; time.sleep(120)', {marker!r}])\n"
                  "    os._exit(0)\ntime.sleep(60)\n")
        box = walls.start([python, "-I", "-S", "-c", daemon], scratch=tmp, env={"PATH": "/usr/bin"})
        for _ in range(100):
            if _marked(marker):
                break
            time.sleep(0.05)
        assert _marked(marker), "the daemon did not start"
        box.kill()
    for _ in range(100):
        if not _marked(marker):
            break
        time.sleep(0.05)
    assert not _marked(marker)


def test_a_fork_bomb_meets_the_process_limit_and_is_gone_afterwards():
    walls = Isolation("bwrap", processes=40)
    code, out = run("""
        import os, time
        made = 0
        try:
            while made < 500:
                if os.fork() == 0:
                    time.sleep(30)
                    os._exit(0)
                made += 1
        except OSError as exc:
            print("stopped", made, type(exc).__name__, flush=True)
        print("made", made, flush=True)
        os._exit(0)
    """, walls=walls)
    assert "stopped" in out, out
    made = int(out.split("made")[-1])
    assert made < 40
    assert walls.limits_by in ("cgroup", "rlimit")


def test_many_files_under_the_file_size_limit_cannot_fill_the_disk(tmp_path):
    """Each file stays under the file-size limit, but the writable folders are tmpfs mounts of bounded size:
    the working folder, /tmp and /dev/shm fill up inside, nothing reaches this machine's disk."""
    walls = Isolation("bwrap", disk=8 * 2**20, file_size=4 * 2**20)
    code, out = run("""
        import os
        for where in (".", "/tmp", "/dev/shm"):
            written = 0
            try:
                for i in range(64):
                    with open(os.path.join(where, f"fill{i}"), "wb") as f:
                        f.write(b"x" * (2 * 2**20))
                    written += 2
            except OSError as exc:
                print(where, "full at", written, "MB", exc.errno)
            else:
                print(where, "NOT FULL", written)
        try:
            open("/dev/mine", "w")
            print("WROTE /dev")
        except OSError:
            print("dev read-only")
    """, walls=walls, scratch=str(tmp_path))
    assert "NOT FULL" not in out and "WROTE" not in out, out
    assert out.count("full at") == 3 and "dev read-only" in out
    assert list(tmp_path.iterdir()) == [tmp_path / "work"] and not list((tmp_path / "work").iterdir())


def test_what_a_run_writes_on_its_pipes_is_held_only_up_to_the_limits():
    """A kernel that floods standard error (or output) costs the grader at most the bytes it keeps."""
    from gametrees.classroom.execution import collect

    flood = ("import os\nfor _ in range(64):\n    os.write(2, b'e' * 2**20)\n    os.write(1, b'o' * 2**18)\n")
    proc = subprocess.Popen([sys.executable, "-c", flood], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err, stopped = collect(proc, 60, limit=2**20, tail=4096)
    finally:
        proc.kill()
        proc.wait()
    assert len(err) <= 4096 and stopped == "the executed notebook is larger than 1 MB"
    assert len(out) <= 2**20 + 2**16


def test_a_memory_bomb_fails_inside_and_harms_nothing_outside():
    walls = Isolation("bwrap", memory=512 * 2**20)
    code, out = run("""
        try:
            hog = bytearray(2 * 1024**3)
            print("ALLOCATED", len(hog))
        except MemoryError:
            print("MemoryError")
    """, walls=walls)
    assert "MemoryError" in out and "ALLOCATED" not in out


def test_other_processes_are_invisible_and_cannot_be_killed():
    code, out = run(f"""
        import os, signal
        print("pids", sorted(int(p) for p in os.listdir("/proc") if p.isdigit())[:5])
        try:
            os.kill({os.getpid()}, signal.SIGKILL)
            print("KILLED")
        except OSError as exc:
            print("refused", type(exc).__name__)
        print("parent", os.getppid())
    """)
    assert "KILLED" not in out and "refused" in out
    assert "pids [1, 2]" in out or "pids [1, 2, 3]" in out or "pids [1]" in out, out


def test_without_bubblewrap_the_grader_refuses_with_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))   # no bwrap on this PATH
    with pytest.raises(IsolationUnavailable, match="apt-get install bubblewrap.*--unsafe-no-isolation"):
        Isolation("bwrap").check()
    Isolation("none").check()  # the explicit way out needs nothing


def test_the_grading_command_refuses_without_bubblewrap_before_grading(tmp_path):
    course = tmp_path / "course"
    (course / "source" / "A2").mkdir(parents=True)
    (course / "submitted" / "s1" / "A2").mkdir(parents=True)
    env = {**os.environ, "PATH": str(Path(sys.executable).parent)}  # python, no bwrap
    out = subprocess.run([sys.executable, "-m", "gametrees.assignments", "autograde", str(course), "A2"],
                         capture_output=True, text=True, env=env, timeout=120, check=False)
    assert out.returncode == 2, out.stdout + out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "bubblewrap" in lines[0] and "apt-get install bubblewrap" in lines[0]
    assert not (course / "autograded").exists()


def test_docker_command_has_the_same_walls():
    walls = Isolation("docker")
    cmd = walls.command(["/usr/bin/python3", "-c", "pass"], scratch="/tmp/scratch",
                        env={"HOME": "/tmp/scratch"})
    joined = " ".join(cmd)
    for part in ("--network none", "--read-only", "--user 65534:65534", f"--memory {walls.memory}",
                 f"--pids-limit {walls.processes}", "-v /tmp/scratch:/tmp/scratch", "--cap-drop ALL"):
        assert part in joined
    assert cmd[-3:] == ["python3", "-c", "pass"]


@pytest.mark.parametrize("kind", ["jail", "", None])
def test_an_unknown_isolation_is_refused_by_name(kind):
    with pytest.raises(ValueError, match="isolation must be one of bwrap, docker, none"):
        Isolation(kind)
