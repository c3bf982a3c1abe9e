"""Walls the operating system keeps around every piece of student code that grading runs: :class:`Isolation`.

Python-level guards (the child's audit hook, source scans) are a second layer
only: Python code can switch them off from inside (a frame or ``gc`` walk to
the hook's closure takes about ten lines). So each execution of a student's
code, nbgrader's kernel running the notebook and the child interpreter that
runs the graded functions, is started by :meth:`Isolation.start` inside
walls the kernel enforces:

* ``bwrap`` (Debian's ``bubblewrap``, the default): new user, PID, network,
  IPC, UTS and cgroup namespaces; uid and gid 65534 inside; a read-only view
  of only what the code needs (the system's ``/usr``, the Python, and for the
  kernel the student environment and the ``gametrees`` package folder; never
  the course folder, the exchange, other submissions, the gradebook or the
  project's checkout); one writable scratch folder; ``--die-with-parent`` and
  its own PID namespace, so nothing it starts outlives it; no network at all.
  The scratch folder is read-only inside; the only writable places are
  size-limited tmpfs mounts (the working folders the caller names, ``/tmp``,
  ``/dev/shm``), gone with the sandbox: what comes out, comes out on a pipe.
* ``docker``: the same walls from a container (``--network none``, a
  read-only root, the scratch folder the only writable mount, a non-root
  user), for servers that run Docker; INSTRUCTORS.md builds its image.
* ``none``: no walls (``--unsafe-no-isolation``); every verdict then says so.

Limits hold for everything started inside: memory per process
(``RLIMIT_AS``), file size (``RLIMIT_FSIZE``), and the number of processes
and the memory of the whole sandbox: a cgroup of its own where this machine
lets the grader make one (as root with cgroup v1 or a delegated v2 tree),
else ``RLIMIT_NPROC`` (which binds every account but root).
:attr:`Isolation.limits_by` says which. Wall-clock limits are the caller's:
:meth:`Confined.kill` ends the whole sandbox at once.

:meth:`Isolation.check` is the check made before grading: it starts a sandbox
that runs ``python -I -S -c pass`` and raises :class:`IsolationUnavailable` with
one line saying what to install when that fails (fail closed).

May import: the standard library only.
"""

from __future__ import annotations

import errno
import glob
import os
import resource
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
import uuid
from pathlib import Path

#: The uid and gid student code runs as inside the sandbox (``nobody``).
SANDBOX_UID = 65534
#: Default limits: memory per process (bytes), processes in one sandbox, largest file written (bytes).
MEMORY = 3 * 2**30
PROCESSES = 128
FILE_SIZE = 64 * 2**20
#: Bytes each writable folder inside may hold (the working folder, ``/tmp``; ``/dev/shm`` a quarter): a
#: size-limited tmpfs, so many files under the file-size limit cannot fill the disk or, for an account
#: without a cgroup, memory.
DISK = 256 * 2**20
#: The images ``--isolation docker`` runs: the kernel's (the student environment; INSTRUCTORS.md builds it
#: from deploy/grading/Dockerfile) and the child's (a bare Python: no gametrees, no installed package).
DOCKER_IMAGE = "gametrees-grading"
DOCKER_CHILD_IMAGE = "python:3.11-slim"
KINDS = ("bwrap", "docker", "none")


class IsolationUnavailable(ValueError):
    """No working sandbox here: grading refuses to start (the message says what to install)."""


def _install_hint():
    return ("bubblewrap is needed to grade student code behind the operating system's walls: install it "
            "(Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap), or pass "
            "--unsafe-no-isolation to grade without walls (every verdict will say so)")


# ============================================================================
# What the code inside may see
# ============================================================================


def _real(path):
    return os.path.realpath(path)


def _site_dirs():
    """Every folder of installed packages of the base interpreter and of the system (hidden from the
    child)."""
    base = {"base": sys.base_prefix, "platbase": sys.base_exec_prefix}
    found = {sysconfig.get_paths(vars=base)[k] for k in ("purelib", "platlib")}
    for pattern in ("/usr/lib/python3*/dist-packages", "/usr/lib/python3*/site-packages",
                    "/usr/local/lib/python3*/dist-packages", "/usr/local/lib/python3*/site-packages",
                    "/usr/lib/python3/dist-packages"):
        found.update(glob.glob(pattern))
    return sorted({_real(p) for p in found if os.path.isdir(p)})


def _under(path, folder):
    path, folder = Path(path), Path(folder)
    return path == folder or folder in path.parents


def visible_paths(packages):
    """``(read_only, hidden)``: the folders the sandbox shows read-only, and the folders under them hidden.

    ``packages`` False (the child that runs graded functions): the system and the Python's standard
    library only, every folder of installed packages hidden (so no gametrees, whichever way it is
    installed). True (nbgrader's kernel): also the running environment (``sys.prefix``) and the
    ``gametrees`` package folder itself (only that folder of an editable checkout, never the checkout).
    """
    read_only = ["/usr"]
    for prefix in (sys.base_prefix, sys.base_exec_prefix):
        real = _real(prefix)
        if not any(_under(real, r) for r in read_only):
            read_only.append(real)
    hidden = []
    if packages:
        for extra in (sys.prefix, str(Path(__file__).resolve().parents[1])):
            real = _real(extra)
            if not any(_under(real, r) for r in read_only):
                read_only.append(real)
        env_sites = {_real(p) for p in sys.path if p and os.path.isdir(p)}
        hidden = [d for d in _site_dirs() if d not in env_sites]
    else:
        hidden = _site_dirs()
    hidden = [d for d in hidden if any(_under(d, r) for r in read_only)]
    return read_only, hidden


def interpreter(packages):
    """The Python the sandbox runs: the environment's for the kernel, the base interpreter for the child."""
    if packages:
        return sys.executable
    return _real(getattr(sys, "_base_executable", None) or sys.executable)


# ============================================================================
# Limits: a cgroup of the sandbox's own where possible, rlimits always
# ============================================================================


class Cgroup:
    """A cgroup of its own (pids and memory), or nothing where this machine does not let us make one.

    Made beside this process's own cgroup (v1: in its ``pids`` and ``memory`` hierarchies; v2: below
    it, in a delegated tree, its controllers turned on for its children first), with at most
    ``processes`` tasks and ``memory`` bytes. :attr:`active` says whether it
    was made; a process joins it by writing its pid to each of :meth:`procs_files` (before it runs what
    should be held); :meth:`remove` ends what is left in it and removes it. The grader makes one per
    sandbox; the course's JupyterHub (``deploy/jupyterhub/jupyterhub_config.py``) one per user's server.
    """

    ROOT = Path("/sys/fs/cgroup")
    #: v2: where the processes of a delegated cgroup move so that its children may have controllers.
    LEAF = "gametrees-supervisor"
    CONTROLLERS = ("memory", "pids")

    def __init__(self, memory, processes):
        self.dirs = []
        name = f"gametrees-{uuid.uuid4().hex[:12]}"
        try:
            self._make(name, memory, processes)
        except OSError:
            self.remove()
            self.dirs = []

    @staticmethod
    def _own(controller):
        """This process's cgroup path in ``controller``'s hierarchy (v1), or in the unified one (``""``)."""
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, names, path = line.split(":", 2)
            if controller in names.split(",") or (controller == "" and names == ""):
                return path
        return None

    def _make(self, name, memory, processes):
        v1 = all((self.ROOT / c / "cgroup.procs").exists() for c in ("pids", "memory"))
        if v1:
            for controller, limits in (("pids", {"pids.max": processes}),
                                       ("memory", {"memory.limit_in_bytes": memory,
                                                   "memory.memsw.limit_in_bytes": memory})):
                own = self._own(controller)
                if own is None:
                    raise OSError("no cgroup")
                folder = self.ROOT / controller / own.lstrip("/") / name
                folder.mkdir()
                self.dirs.append(folder)
                for key, value in limits.items():
                    target = folder / key
                    if target.exists():
                        try:
                            target.write_text(str(value))
                        except OSError:
                            if key == "pids.max" or key == "memory.limit_in_bytes":
                                raise
            return
        own = self._own("")
        if own is None or not (self.ROOT / "cgroup.controllers").exists():
            raise OSError("no cgroup")
        base = self.ROOT / own.lstrip("/")
        if base.name == self.LEAF:  # this process was moved to the leaf below (an earlier Cgroup)
            base = base.parent
        self._enable_controllers(base)
        folder = base / name
        folder.mkdir()
        self.dirs.append(folder)
        (folder / "pids.max").write_text(str(processes))
        (folder / "memory.max").write_text(str(memory))

    @classmethod
    def _enable_controllers(cls, base):
        """v2: the memory and pids controllers on for the children of ``base`` (this process's cgroup).

        A cgroup's children get a controller only when it is named in the cgroup's
        ``cgroup.subtree_control``, and a cgroup that holds processes may not name any (cgroup v2's "no
        internal processes" rule: EBUSY). Under systemd with ``Delegate=yes`` the hub's service cgroup
        holds the hub itself; so its processes first move to a leaf of their own (:attr:`LEAF`, as
        systemd's ``DelegateSubgroup=`` would), then the controllers are named. Raises OSError when
        ``base`` was not given the controllers (not delegated): the caller falls back to rlimits.
        """
        control = base / "cgroup.subtree_control"
        missing = [c for c in cls.CONTROLLERS if c not in control.read_text().split()]
        if not missing:
            return
        if not set(missing) <= set((base / "cgroup.controllers").read_text().split()):
            raise OSError(f"the controllers {missing} are not delegated to {base}")
        line = " ".join(f"+{c}" for c in missing)
        try:
            cls._write(control, line)
        except OSError as error:
            if error.errno != errno.EBUSY:
                raise
            leaf = base / cls.LEAF
            leaf.mkdir(exist_ok=True)
            for pid in (base / "cgroup.procs").read_text().split():
                try:
                    cls._write(leaf / "cgroup.procs", pid)
                except ProcessLookupError:
                    pass  # ended meanwhile
            cls._write(control, line)

    @staticmethod
    def _write(path, text):
        """One write to a cgroup file (the kernel answers each write on its own)."""
        with open(path, "w") as f:
            f.write(text)

    @property
    def active(self):
        return bool(self.dirs)

    def procs_files(self):
        return [str(d / "cgroup.procs") for d in self.dirs]

    def kill(self):
        for folder in self.dirs:
            try:
                pids = (folder / "cgroup.procs").read_text().split()
            except OSError:
                continue
            for pid in pids:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, PermissionError, ValueError):
                    pass

    def remove(self):
        for folder in reversed(self.dirs):
            for _ in range(50):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    self.kill()
                    time.sleep(0.02)
        self.dirs = []


def _preexec(memory, file_size, processes, procs_files):
    """What runs in the new process before it becomes the sandbox: its cgroup, its limits, its own session."""
    files = list(procs_files)

    def setup():  # pragma: no cover -- runs between fork and exec
        pid = str(os.getpid())
        for path in files:
            with open(path, "w") as f:
                f.write(pid)
        limits = [(resource.RLIMIT_AS, memory), (resource.RLIMIT_FSIZE, file_size), (resource.RLIMIT_CORE, 0)]
        if not files and os.getuid() != 0:
            limits.append((resource.RLIMIT_NPROC, processes + _own_processes()))
        for what, value in limits:
            try:
                resource.setrlimit(what, (value, value))
            except (ValueError, OSError):
                pass
        os.setsid()

    return setup


def _own_processes():  # pragma: no cover -- counted between fork and exec
    """Processes this account already runs (``RLIMIT_NPROC`` counts them all)."""
    uid = os.getuid()
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    count += 1
            except OSError:
                pass
    return count


# ============================================================================
# A running sandbox
# ============================================================================


class Confined:
    """One running sandbox: :attr:`proc` (its ``subprocess.Popen``) and :meth:`kill`."""

    def __init__(self, proc, cgroup, container=None):
        self.proc, self._cgroup, self._container = proc, cgroup, container

    def kill(self):
        """End the sandbox and everything in it (idempotent)."""
        if self._container:
            subprocess.run(["docker", "kill", self._container], capture_output=True, check=False, timeout=30)
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.proc.kill()
            except ProcessLookupError:
                pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass
        if self._cgroup is not None:
            self._cgroup.kill()
            self._cgroup.remove()
            self._cgroup = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()
        return False


class Isolation:
    """How student code is walled in while it is graded.

    Parameters
    ----------
    kind : {"bwrap", "docker", "none"}
    memory : int
        Bytes of memory one process inside may map, and the whole sandbox may use where a cgroup holds it.
    processes : int
        Processes and threads the sandbox may run at once.
    file_size : int
        Bytes of the largest file the code may write.
    disk : int
        Bytes each writable folder inside may hold (see :data:`DISK`).
    docker_image, docker_child_image : str
        The images ``kind="docker"`` runs: the kernel's (with the student environment) and the child's.

    Examples
    --------
    >>> Isolation("none").unsafe
    True
    >>> Isolation("jail")
    Traceback (most recent call last):
    ...
    ValueError: isolation must be one of bwrap, docker, none, got 'jail'
    """

    def __init__(self, kind="bwrap", *, memory=MEMORY, processes=PROCESSES, file_size=FILE_SIZE, disk=DISK,
                 docker_image=DOCKER_IMAGE, docker_child_image=DOCKER_CHILD_IMAGE):
        if kind not in KINDS:
            raise ValueError(f"isolation must be one of {', '.join(KINDS)}, got {kind!r}")
        for name, value in (("memory", memory), ("processes", processes), ("file_size", file_size),
                            ("disk", disk)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
        self.kind, self.memory, self.processes, self.file_size = kind, memory, processes, file_size
        self.disk = disk
        self.docker_image, self.docker_child_image = docker_image, docker_child_image
        self.limits_by = None

    @property
    def unsafe(self):
        """True when there are no walls (``--unsafe-no-isolation``)."""
        return self.kind == "none"

    def __repr__(self):
        return f"Isolation({self.kind!r})"

    # -- the command ---------------------------------------------------------------------------------

    def command(self, argv, *, scratch, cwd=None, env=None, packages=False, writable=()):
        """The command line that runs ``argv`` inside this isolation (``argv`` itself for ``"none"``).

        ``scratch`` is shown read-only; each folder in ``writable`` (under ``scratch``) is an empty
        size-limited tmpfs inside.
        """
        env = dict(env or {})
        cwd = str(cwd or scratch)
        writable = [str(w) for w in writable]
        if self.kind == "none":
            return list(argv)
        if self.kind == "docker":
            cmd = ["docker", "run", "--rm", "-i", "--network", "none", "--read-only", "--user",
                   f"{SANDBOX_UID}:{SANDBOX_UID}", "--memory", str(self.memory), "--pids-limit",
                   str(self.processes), "--ulimit", f"fsize={self.file_size}", "--cap-drop", "ALL",
                   "--security-opt", "no-new-privileges", "--tmpfs", f"/tmp:rw,size={self.disk},mode=1777",
                   "-v", f"{scratch}:{scratch}:ro"]
            for folder in writable:
                cmd += ["--tmpfs", f"{folder}:rw,size={self.disk},mode=1777"]
            cmd += ["-w", cwd]
            for key, value in env.items():
                if key not in ("PATH", "PYTHONPATH"):  # the image's own
                    cmd += ["-e", f"{key}={value}"]
            image = self.docker_image if packages else self.docker_child_image
            return cmd + [image] + [Path(a).name if i == 0 else a for i, a in enumerate(argv)]
        bwrap = shutil.which("bwrap")
        if bwrap is None:
            raise IsolationUnavailable(_install_hint())
        cmd = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--uid", str(SANDBOX_UID),
               "--gid", str(SANDBOX_UID), "--hostname", "sandbox", "--proc", "/proc", "--dev", "/dev",
               "--size", str(self.disk // 4), "--tmpfs", "/dev/shm", "--remount-ro", "/dev",
               "--size", str(self.disk), "--tmpfs", "/tmp"]
        read_only, hidden = visible_paths(packages)
        for link in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
            if os.path.islink(link):
                cmd += ["--symlink", os.readlink(link), link]
            elif os.path.isdir(link):
                cmd += ["--ro-bind", link, link]
        for path in read_only:
            cmd += ["--ro-bind", path, path]
        if packages:  # fontconfig's settings, for matplotlib's font list (else it prints an error on stderr)
            cmd += ["--ro-bind-try", "/etc/fonts", "/etc/fonts"]
        for path in hidden:
            cmd += ["--tmpfs", path, "--remount-ro", path]
        cmd += ["--ro-bind", str(scratch), str(scratch)]
        for folder in writable:
            cmd += ["--size", str(self.disk), "--tmpfs", folder]
        cmd += ["--chdir", cwd, "--clearenv"]
        for key, value in env.items():
            cmd += ["--setenv", key, str(value)]
        return cmd + ["--"] + list(argv)

    def start(self, argv, *, scratch, cwd=None, env=None, packages=False, writable=(), **popen):
        """Start ``argv`` inside the walls; returns a :class:`Confined` (kill it when done).

        ``scratch`` is a folder the caller makes (and removes) with what the code may read; inside it is
        read-only, and each folder of ``writable`` (under ``scratch``, made here if missing) is an empty
        tmpfs of at most ``disk`` bytes: the only places the code may write (with ``/tmp``). What the
        code hands back comes on its standard output. ``env`` is the whole environment inside;
        ``packages`` whether the student environment is visible (the kernel). Other keyword arguments go
        to :class:`subprocess.Popen` (``stdin``, ``stdout``, ``stderr``).
        """
        for folder in writable:
            os.makedirs(folder, exist_ok=True)
        cmd = self.command(argv, scratch=scratch, cwd=cwd, env=env, packages=packages, writable=writable)
        cgroup = Cgroup(self.memory, self.processes) if self.kind != "docker" else None
        if cgroup is not None and not cgroup.active:
            cgroup = None
        self.limits_by = "cgroup" if cgroup is not None else ("docker" if self.kind == "docker" else "rlimit")
        container = None
        if self.kind == "docker":
            container = f"gametrees-{uuid.uuid4().hex[:12]}"
            cmd = cmd[:3] + ["--name", container] + cmd[3:]
        try:
            proc = subprocess.Popen(cmd, env=env if self.kind == "none" else _outer_env(), cwd=cwd or scratch,
                                    close_fds=True,
                                    preexec_fn=_preexec(self.memory, self.file_size, self.processes,
                                                        cgroup.procs_files() if cgroup else ()),
                                    **popen)
        except BaseException:
            if cgroup is not None:
                cgroup.remove()
            raise
        return Confined(proc, cgroup, container)

    # -- the check before grading ----------------------------------------------------------------------

    def check(self):
        """Raise :class:`IsolationUnavailable` (one line: what to install) unless a sandbox starts here."""
        if self.kind == "none":
            return
        if self.kind == "docker":
            if shutil.which("docker") is None:
                raise IsolationUnavailable("--isolation docker needs Docker (the docker command and a "
                                           "running engine); bubblewrap is the default: apt-get install "
                                           "bubblewrap")
            for image in (self.docker_image, self.docker_child_image):
                probe = subprocess.run(["docker", "image", "inspect", image], capture_output=True,
                                       check=False, timeout=60)
                if probe.returncode != 0:
                    raise IsolationUnavailable(f"--isolation docker: no image {image!r} (INSTRUCTORS.md, "
                                               "'Grading with Docker', says how to build or pull it)")
            return
        if shutil.which("bwrap") is None:
            raise IsolationUnavailable(_install_hint())
        with tempfile.TemporaryDirectory(prefix="gametrees-probe-") as scratch:
            box = self.start([interpreter(False), "-I", "-S", "-c", "pass"], scratch=scratch,
                             writable=[os.path.join(scratch, "work")], cwd=os.path.join(scratch, "work"),
                             env={"PATH": "/usr/bin:/bin"}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            with box:
                try:
                    _, err = box.proc.communicate(timeout=60)
                except subprocess.TimeoutExpired:
                    err = b"timed out"
                code = box.proc.returncode
        if code != 0:
            said = err.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
            raise IsolationUnavailable(f"bubblewrap is installed but cannot make a sandbox here ({said[0]}): "
                                       "user namespaces may be disabled (sysctl "
                                       "kernel.unprivileged_userns_clone=1); or pass --unsafe-no-isolation "
                                       "to grade without walls")


def _outer_env():
    """The environment bwrap itself starts with (the code inside gets only what ``env`` says)."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}


# ============================================================================
# The isolation of this process's grading
# ============================================================================

_CURRENT = []


def use(isolation):
    """Make ``isolation`` the one :func:`current` returns (the grading command sets it once)."""
    if not isinstance(isolation, Isolation):
        raise TypeError(f"isolation must be an Isolation, got {type(isolation).__name__}")
    _CURRENT[:] = [isolation]


def current():
    """The isolation grading uses here: the one set by :func:`use`; else bubblewrap where it works, else none.

    The grading command (:func:`gametrees.classroom.autograding.autograde`) always sets its own, and refuses
    to grade without walls unless told to; the fallback serves ``grade NOTEBOOK`` on a learner's machine.
    """
    if not _CURRENT:
        _CURRENT.append(Isolation("bwrap" if bwrap_available() else "none"))
    return _CURRENT[0]


def bwrap_available():
    """Whether bubblewrap can make a sandbox here (for tests and the docs' checks)."""
    try:
        Isolation("bwrap").check()
    except IsolationUnavailable:
        return False
    return True
