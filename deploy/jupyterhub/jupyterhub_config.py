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
GAMETREES_HUB_URL              ``http://:8000``                     where the hub listens
GAMETREES_CULL_IDLE_SECONDS    ``3600``                             stop a server idle this long
                                                                    (0: never)
=============================  ===================================  ==================================

Users log in with their system accounts (PAM) and each server runs as its user
(``LocalProcessSpawner``), in that user's home folder, which the hub makes private (mode 700)
before the server starts. Students' servers run ``jupyterhub-singleuser`` from the student
environment, instructors' from the instructor environment. Every server gets
``GAMETREES_ROLE`` (``student`` or ``instructor``), the course id and the exchange folder, its
environment's ``bin`` first on ``PATH`` (for ``nbgrader`` in a terminal and nbgrader's own
``alembic``), and this folder on ``JUPYTER_CONFIG_PATH`` for ``nbgrader_config.py``.

``GAMETREES_HUB_TRY_OUT=1`` is for trying the set-up on one machine and for the tests, never for a
course: any login with the password in ``GAMETREES_HUB_PASSWORD`` is accepted, and every server
runs as the hub's own unix user with its home in ``GAMETREES_HUB_HOMES/<login>``, so students are
not separated from each other.
"""

import os
import pwd
import sys
from pathlib import Path

c = get_config()  # noqa: F821 -- defined by JupyterHub when it reads this file

HERE = Path(__file__).resolve().parent


def _setting(name, default):
    return os.environ.get(name, "").strip() or default


COURSE_ID = _setting("GAMETREES_COURSE_ID", "gametrees")
INSTRUCTORS = {u.strip() for u in _setting("GAMETREES_INSTRUCTORS", "instructor").split(",") if u.strip()}
STUDENT_LIST = _setting("GAMETREES_STUDENT_LIST", "")
STUDENT_ENV = Path(_setting("GAMETREES_STUDENT_ENV", "/opt/gametrees/student"))
INSTRUCTOR_ENV = Path(_setting("GAMETREES_INSTRUCTOR_ENV", "/opt/gametrees/instructor"))
EXCHANGE = _setting("GAMETREES_EXCHANGE", "/srv/nbgrader/exchange")
STATE = Path(_setting("GAMETREES_HUB_STATE", "/srv/jupyterhub"))
CULL_IDLE_SECONDS = int(_setting("GAMETREES_CULL_IDLE_SECONDS", "3600"))
TRY_OUT = os.environ.get("GAMETREES_HUB_TRY_OUT") == "1"

# -- the hub itself ----------------------------------------------------------------------------
c.JupyterHub.bind_url = _setting("GAMETREES_HUB_URL", "http://:8000")
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

if TRY_OUT:
    c.JupyterHub.authenticator_class = "dummy"
    c.DummyAuthenticator.password = os.environ["GAMETREES_HUB_PASSWORD"]
    c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
    c.SimpleLocalProcessSpawner.home_dir_template = os.path.join(os.environ["GAMETREES_HUB_HOMES"], "{username}")
    if os.getuid() == 0:  # as in many containers: Jupyter refuses to run as root unless told
        c.Spawner.args = ["--allow-root"]
else:
    c.JupyterHub.spawner_class = "jupyterhub.spawner.LocalProcessSpawner"

# -- each user's server ----------------------------------------------------------------------------
c.Spawner.default_url = "/lab"
c.Spawner.http_timeout = 60
c.Spawner.start_timeout = 120


def role_of(name):
    """``"instructor"`` for a login in GAMETREES_INSTRUCTORS, else ``"student"``."""
    return "instructor" if name in INSTRUCTORS else "student"


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
    spawner.environment.update({
        # The environment's commands first (nbgrader runs alembic, a terminal runs nbgrader); not the
        # hub's own PATH, which may hold folders the user cannot enter.
        "PATH": os.pathsep.join([str(env / "bin"), "/usr/local/bin", "/usr/bin", "/bin"]),
        "VIRTUAL_ENV": str(env),
        "GAMETREES_ROLE": role,
        "GAMETREES_COURSE_ID": COURSE_ID,
        "GAMETREES_EXCHANGE": EXCHANGE,
        "JUPYTER_CONFIG_PATH": str(HERE),
    })


c.Spawner.pre_spawn_hook = prepare_server

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
