"""JupyterHub for a gametrees course: students, instructors, nbgrader's exchange.

Start it with ``jupyterhub -f deploy/jupyterhub/jupyterhub_config.py`` (INSTRUCTORS.md, "The course
on JupyterHub", goes through every step). The settings below come from environment variables, so
the file itself needs no edits; each has a default for a single-server course:

=============================  ===================================  ==================================
variable                       default                              what
=============================  ===================================  ==================================
GAMETREES_COURSE_ID            ``gametrees``                        nbgrader's course id
GAMETREES_INSTRUCTORS          ``instructor``                       hub logins of the instructors
                                                                    (comma-separated); hub admins
GAMETREES_STUDENT_LIST         (none: any system user may log in)   a file with one student login a
                                                                    line: only they and the
                                                                    instructors may log in
GAMETREES_STUDENT_ENV          ``/opt/gametrees/student``           ``make_env.sh student``'s folder
GAMETREES_INSTRUCTOR_ENV       ``/opt/gametrees/instructor``        ``make_env.sh instructor``'s
GAMETREES_EXCHANGE             ``/srv/nbgrader/exchange``           nbgrader's exchange folder
GAMETREES_HUB_STATE            ``/srv/jupyterhub``                  the hub's database and cookie
                                                                    secret
GAMETREES_HUB_URL              ``http://127.0.0.1:8000``            where the hub listens: this machine
                                                                    only, for a reverse proxy with
                                                                    HTTPS in front (INSTRUCTORS.md)
GAMETREES_SSL_CERT,            (none)                               the hub's own HTTPS: certificate
GAMETREES_SSL_KEY                                                   and key files (with an
                                                                    ``https://`` GAMETREES_HUB_URL)
GAMETREES_MEMORY_LIMIT         ``1G``                               memory of one student's server
                                                                    with its kernels and terminals
GAMETREES_INSTRUCTOR_MEMORY    ``4G``                               the same for an instructor's
GAMETREES_PROCESS_LIMIT        ``256``                              processes (threads included) of
                                                                    one user's server
GAMETREES_CULL_IDLE_SECONDS    ``3600``                             stop a server idle this long
                                                                    (0: never)
GAMETREES_SPAWN_LIMIT          ``20``                               servers starting at once; more
                                                                    are asked to try again (a
                                                                    lecture's login storm:
                                                                    INSTRUCTORS.md)
GAMETREES_ACTIVE_LIMIT         ``0`` (no limit)                     servers running at once; more
                                                                    are asked to try again later
=============================  ===================================  ==================================

Users log in with their system accounts (PAM) and each server runs as its user
(``LocalProcessSpawner``), in that user's home folder, which the hub makes private (mode 700)
when it starts (every instructor's and listed student's home) and again before each server starts.
Each server runs in a cgroup of its own with at most ``GAMETREES_MEMORY_LIMIT`` of memory and
``GAMETREES_PROCESS_LIMIT`` processes (:class:`gametrees.classroom.isolation.Cgroup`, as the grader's
sandboxes: cgroup v1, or a v2 tree delegated to the hub); where the machine gives the hub no cgroup,
rlimits instead (memory per process, processes per account), and the hub's log says which. Kernels
talk over unix sockets only their user may connect to (``jupyter_config.py`` beside this file:
``KernelManager.transport = "ipc"``, for the server's kernels and for those nbgrader's *Validate* or a
command in a terminal starts), never over TCP ports classmates could reach.

Students' servers run ``jupyterhub-singleuser`` from the student environment, instructors' from the
instructor environment. Every server gets ``GAMETREES_ENV`` (its environment: ``profile.sh`` beside
this file, installed as ``/etc/profile.d/gametrees.sh``, puts its ``bin`` back first on ``PATH`` in
login shells, which a terminal starts), ``GAMETREES_ROLE`` (``student`` or ``instructor``), the
course id and the exchange folder, its environment's ``bin`` first on ``PATH`` (for ``nbgrader``
in a terminal and nbgrader's own ``alembic``), and this folder on ``JUPYTER_CONFIG_PATH`` (for
``nbgrader_config.py`` and ``jupyter_config.py``), which every user must be able to read: the hub
refuses to start where they cannot (a checkout under ``/root``, say).

``GAMETREES_HUB_TRY_OUT=1`` is for trying the set-up on one machine and for the tests, never for a
course: any login with the password in ``GAMETREES_HUB_PASSWORD`` is accepted, and every server
runs as the hub's own unix user with its home in ``GAMETREES_HUB_HOMES/<login>``, so students are
not separated from each other; their kernels' sockets sit in ``GAMETREES_HUB_RUNTIME/<login>``
(default: a folder under ``/tmp``), a short path (a unix socket's has at most 107 characters).
"""

import hashlib
import os
import pwd
import resource
import stat
import sys
import tempfile
from pathlib import Path

from jupyterhub.spawner import LocalProcessSpawner, SimpleLocalProcessSpawner

from gametrees.classroom.isolation import Cgroup

c = get_config()  # noqa: F821 -- defined by JupyterHub when it reads this file

HERE = Path(__file__).resolve().parent


def _setting(name, default):
    return os.environ.get(name, "").strip() or default


def _bytes(name, default):
    """A size setting (``512M``, ``1G``, or bytes) in bytes; a clear error naming the variable otherwise."""
    text = _setting(name, default)
    units = {"K": 2**10, "M": 2**20, "G": 2**30}
    try:
        value = int(float(text[:-1]) * units[text[-1].upper()]) if text[-1].upper() in units else int(text)
    except (ValueError, IndexError):
        raise ValueError(f"{name} must be a size such as 512M or 1G, got {text!r}") from None
    if value < 64 * 2**20:
        raise ValueError(f"{name} must be at least 64M (a server with one kernel needs about 300M), "
                         f"got {text!r}")
    return value


COURSE_ID = _setting("GAMETREES_COURSE_ID", "gametrees")
INSTRUCTORS = {u.strip() for u in _setting("GAMETREES_INSTRUCTORS", "instructor").split(",") if u.strip()}
STUDENT_LIST = _setting("GAMETREES_STUDENT_LIST", "")
STUDENT_ENV = Path(_setting("GAMETREES_STUDENT_ENV", "/opt/gametrees/student"))
INSTRUCTOR_ENV = Path(_setting("GAMETREES_INSTRUCTOR_ENV", "/opt/gametrees/instructor"))
EXCHANGE = _setting("GAMETREES_EXCHANGE", "/srv/nbgrader/exchange")
STATE = Path(_setting("GAMETREES_HUB_STATE", "/srv/jupyterhub"))
CULL_IDLE_SECONDS = int(_setting("GAMETREES_CULL_IDLE_SECONDS", "3600"))
MEMORY = {"student": _bytes("GAMETREES_MEMORY_LIMIT", "1G"),
          "instructor": _bytes("GAMETREES_INSTRUCTOR_MEMORY", "4G")}
PROCESSES = int(_setting("GAMETREES_PROCESS_LIMIT", "256"))
SPAWN_LIMIT = int(_setting("GAMETREES_SPAWN_LIMIT", "20"))
ACTIVE_LIMIT = int(_setting("GAMETREES_ACTIVE_LIMIT", "0"))
TRY_OUT = os.environ.get("GAMETREES_HUB_TRY_OUT") == "1"


def closed_to_others(folder):
    """What on the way to ``folder``'s settings other users cannot enter or read, or None.

    Every user's server reads ``jupyter_config.py`` and ``nbgrader_config.py`` from this folder as that
    user; where it cannot (a checkout under ``/root``), Jupyter skips them without a word, and kernels
    listen on TCP ports every account may connect to.
    """
    for parent in [folder, *folder.parents]:
        if not parent.stat().st_mode & stat.S_IXOTH:
            return parent
    for name in ("jupyter_config.py", "nbgrader_config.py"):
        if not (folder / name).stat().st_mode & stat.S_IROTH:
            return folder / name
    return None


if not TRY_OUT and (closed := closed_to_others(HERE)) is not None:
    raise RuntimeError(f"{closed} is closed to other users, but every user's server reads its settings from "
                       f"{HERE}: put the checkout where every user may read it (INSTRUCTORS.md, section 8, "
                       "step 2: /opt/gametrees/src)")

# -- the hub itself ----------------------------------------------------------------------------
c.JupyterHub.bind_url = _setting("GAMETREES_HUB_URL", "http://127.0.0.1:8000")
SSL_CERT, SSL_KEY = _setting("GAMETREES_SSL_CERT", ""), _setting("GAMETREES_SSL_KEY", "")
if bool(SSL_CERT) != bool(SSL_KEY):
    raise ValueError("GAMETREES_SSL_CERT and GAMETREES_SSL_KEY go together: set both or neither")
if SSL_CERT:
    c.JupyterHub.ssl_cert, c.JupyterHub.ssl_key = SSL_CERT, SSL_KEY
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")

# -- who may log in ------------------------------------------------------------------------------
c.Authenticator.admin_users = set(INSTRUCTORS)
if STUDENT_LIST:
    students = {line.strip() for line in Path(STUDENT_LIST).read_text().splitlines()
                if line.strip() and not line.startswith("#")}
    c.Authenticator.allowed_users = students | INSTRUCTORS
else:
    c.Authenticator.allow_all = True



def role_of(name):
    """``"instructor"`` for a login in GAMETREES_INSTRUCTORS, else ``"student"``."""
    return "instructor" if name in INSTRUCTORS else "student"


class Capped:
    """A spawner whose servers run in a cgroup of their own: memory and processes capped (see above)."""

    cgroup = None
    limits_by = ""

    def _limits(self):
        return MEMORY[role_of(self.user.name)], PROCESSES

    async def start(self):
        memory, processes = self._limits()
        self.cgroup = Cgroup(memory, processes)
        if not self.cgroup.active:
            self.cgroup = None
        self.limits_by = "cgroup" if self.cgroup else "rlimit"
        self.log.info("%s's server: at most %d MiB of memory and %d processes, held by %s", self.user.name,
                      memory // 2**20, processes, "a cgroup" if self.cgroup else "rlimits (no cgroup here)")
        return await super().start()

    def make_preexec_fn(self, name):
        then = super().make_preexec_fn(name)
        files = self.cgroup.procs_files() if self.cgroup else []
        memory, processes = self._limits()

        def preexec():  # between fork and exec, as root: join the cgroup, else set rlimits; then the user
            for path in files:
                with open(path, "w") as f:
                    f.write(str(os.getpid()))
            if not files:
                resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
                if not TRY_OUT:  # counts every process of the account: the hub's own in try-out mode
                    resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))
            then()

        return preexec

    async def stop(self, now=False):
        await super().stop(now=now)
        if self.cgroup is not None:  # whatever the server left behind (a kernel that outlived it) ends here
            self.cgroup.remove()
            self.cgroup = None


class CappedSpawner(Capped, LocalProcessSpawner):
    """Each user's server as their own unix user, capped."""


class CappedTryOutSpawner(Capped, SimpleLocalProcessSpawner):
    """The try-out mode's servers (all as the hub's user), capped."""


if TRY_OUT:
    _homes_hash = hashlib.sha256(os.environ["GAMETREES_HUB_HOMES"].encode()).hexdigest()[:10]
    TRY_OUT_RUNTIME = _setting("GAMETREES_HUB_RUNTIME",
                               os.path.join(tempfile.gettempdir(), f"gametrees-hub-{_homes_hash}"))
    c.JupyterHub.authenticator_class = "dummy"
    c.DummyAuthenticator.password = os.environ["GAMETREES_HUB_PASSWORD"]
    c.JupyterHub.spawner_class = CappedTryOutSpawner
    c.SimpleLocalProcessSpawner.home_dir_template = os.path.join(os.environ["GAMETREES_HUB_HOMES"],
                                                                 "{username}")
    if os.getuid() == 0:  # as in many containers: Jupyter refuses to run as root unless told
        c.Spawner.args = ["--allow-root"]
else:
    c.JupyterHub.spawner_class = CappedSpawner

# -- a lecture's login storm (INSTRUCTORS.md: the sizing table, pre-starting before class) -----------
# A start costs about 3 CPU-seconds (benchmarks/hub_storm.py), so starts in flight share the free cores:
# at most SPAWN_LIMIT at once (20: two free cores start them within half the 60 s below; `hub_storm.py
# --sizing --cores N` prints the limit for N), the others see "Too many users trying to log in right
# now. Try again in ..." (HTTP 429) instead of a start that times out. ACTIVE_LIMIT caps the servers
# running at once (what the memory holds: about 300 MB each); 0 is no cap.
c.JupyterHub.concurrent_spawn_limit = SPAWN_LIMIT
c.JupyterHub.active_server_limit = ACTIVE_LIMIT

# -- each user's server ----------------------------------------------------------------------------
c.Spawner.default_url = "/lab"
c.Spawner.http_timeout = 60  # a started server has this long to answer the hub
c.Spawner.start_timeout = 120  # the spawner has this long to start it
# Only these of the hub's own variables reach a server (not its PYTHONPATH or LD_LIBRARY_PATH): the
# rest comes from prepare_server below. Trying out a checkout, its PYTHONPATH goes to every server too.
c.Spawner.env_keep = ["LANG", "LC_ALL", "JUPYTERHUB_SINGLEUSER_APP"] + (["PYTHONPATH"] if TRY_OUT else [])


def home_of(spawner):
    """The user's home folder: the try-out template, or the system account's home."""
    if TRY_OUT:
        return Path(spawner.home_dir)
    return Path(pwd.getpwnam(spawner.user.name).pw_dir)


def prepare_server(spawner):
    """Before a server starts: its environment's ``jupyterhub-singleuser``, the course's variables,
    and a private home folder (nobody else may read a student's notebooks or feedback)."""
    name = spawner.user.name
    role = role_of(name)
    env = INSTRUCTOR_ENV if role == "instructor" else STUDENT_ENV
    command = env / "bin" / "jupyterhub-singleuser"
    if not command.exists():
        raise RuntimeError(f"{command} not found: make the {role} environment with "
                           f"deploy/jupyterhub/make_env.sh {role} {env}")
    spawner.cmd = [str(command)]
    home = home_of(spawner)
    home.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(home, 0o700)
    if not TRY_OUT:
        account = pwd.getpwnam(name)
        os.chown(home, account.pw_uid, account.pw_gid)
    if TRY_OUT:  # homes under a long temporary path: the kernels' sockets in a short folder
        spawner.environment["JUPYTER_RUNTIME_DIR"] = os.path.join(TRY_OUT_RUNTIME, name)
    spawner.environment.update({
        # The environment's commands first (nbgrader runs alembic, a terminal runs nbgrader); not the
        # hub's own PATH, which may hold folders the user cannot enter.
        "PATH": os.pathsep.join([str(env / "bin"), "/usr/local/bin", "/usr/bin", "/bin"]),
        "VIRTUAL_ENV": str(env),
        "GAMETREES_ENV": str(env),
        "GAMETREES_ROLE": role,
        "GAMETREES_COURSE_ID": COURSE_ID,
        "GAMETREES_EXCHANGE": EXCHANGE,
        "JUPYTER_CONFIG_PATH": str(HERE),
    })


c.Spawner.pre_spawn_hook = prepare_server


def make_homes_private(names):
    """Every listed user's home folder mode 700 now, not only at their first login (an instructor's holds
    the course's solutions)."""
    for name in sorted(names):
        try:
            home = Path(pwd.getpwnam(name).pw_dir)
        except KeyError:
            continue
        if home.is_dir() and home.stat().st_mode & 0o077:
            os.chmod(home, 0o700)
            print(f"made {home} private (mode 700)", file=sys.stderr)


if not TRY_OUT:
    make_homes_private(INSTRUCTORS | (students if STUDENT_LIST else set()))

# -- stop servers nobody uses (memory: INSTRUCTORS.md measures a student's server) -----------------
if CULL_IDLE_SECONDS > 0:
    c.JupyterHub.services = [{
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={CULL_IDLE_SECONDS}"],
    }]
    c.JupyterHub.load_roles = [{
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }]
