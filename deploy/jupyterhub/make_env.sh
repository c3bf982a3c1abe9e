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
