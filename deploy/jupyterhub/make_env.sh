#!/usr/bin/env bash
# Make the Python environment of a gametrees course on JupyterHub:
#
#   deploy/jupyterhub/make_env.sh student    /opt/gametrees/student
#   deploy/jupyterhub/make_env.sh instructor /opt/gametrees/instructor
#
# It installs this checkout of gametrees as a release (not editable: a later `git pull` in the
# checkout does not change the course's trees), the lessons' JupyterLab settings, nbgrader and
# jupyterhub-singleuser. (nbgrader's course settings, nbgrader_config.py beside this script, reach
# every user's server through the hub: jupyterhub_config.py.)
# In a student environment nbgrader's instructor parts (Formgrader, Create Assignment, Course List)
# are disabled and locked, so students see the Assignments tab and nothing of the grading.
# Run it from anywhere, as the user who owns PREFIX (root for /opt).
set -euo pipefail

usage() { echo "usage: $0 student|instructor PREFIX" >&2; exit 2; }
[ $# -eq 2 ] || usage
role=$1 prefix=$2
case "$role" in student|instructor) ;; *) usage ;; esac
[ -e "$prefix" ] && { echo "$prefix exists: remove it first, or choose another folder" >&2; exit 2; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
python=${PYTHON:-python3}

# Every user's server runs this environment's Python, so the Python it is made from must be one that
# every user can run: not one in a folder only its owner may enter (a pyenv or conda Python under
# /root, say). GAMETREES_SINGLE_USER=1 skips the check where every server runs as one user (the hub's
# try-out mode, a container).
if [ "${GAMETREES_SINGLE_USER:-}" != 1 ]; then
    closed=$("$python" - <<'PY'
import os, stat, sys
for start in (os.path.realpath(sys.executable), os.path.realpath(sys.base_prefix)):
    path = start
    while path != os.path.dirname(path):
        path = os.path.dirname(path)
        if not os.stat(path).st_mode & stat.S_IXOTH:
            print(path)
            raise SystemExit
PY
)
    if [ -n "$closed" ]; then
        echo "$python lives under $closed, which other users cannot enter: students' servers could not" \
             "start. Use a Python every user can run, e.g. PYTHON=/usr/bin/python3 $0 $*" >&2
        exit 2
    fi
fi

"$python" -m venv "$prefix"
"$prefix/bin/python" -m pip install --quiet --upgrade pip
"$prefix/bin/python" -m pip install --quiet "$repo" "$repo/jupyterlab-settings" -r "$here/requirements-$role.txt"

if [ "$role" = student ]; then
    for plugin in formgrader create-assignment course-list; do
        "$prefix/bin/jupyter" labextension disable --level=sys_prefix "@jupyter/nbgrader:$plugin" >/dev/null 2>&1
        "$prefix/bin/jupyter" labextension lock --level=sys_prefix "@jupyter/nbgrader:$plugin" >/dev/null 2>&1
    done
    for ext in formgrader course_list; do
        "$prefix/bin/jupyter" server extension disable --sys-prefix "nbgrader.server_extensions.$ext" >/dev/null 2>&1
    done
fi
"$prefix/bin/python" -c "import gametrees, sys; print(f'gametrees {gametrees.__version__} ($role) in {sys.prefix}')"
