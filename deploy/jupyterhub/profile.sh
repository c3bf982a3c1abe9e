# The course's Python environment first on PATH in login shells of a gametrees JupyterHub server.
#
# Install it as root:  install -m 644 deploy/jupyterhub/profile.sh /etc/profile.d/gametrees.sh
#
# A JupyterLab terminal starts a login shell (bash -l), and Debian's and Ubuntu's /etc/profile set
# PATH anew, dropping the environment's bin folder the hub put first: without this file, nbgrader
# and python are "command not found" there. The hub sets GAMETREES_ENV in every user's server
# (deploy/jupyterhub/jupyterhub_config.py); outside the hub's servers this file does nothing.
if [ -n "${GAMETREES_ENV:-}" ] && [ -d "$GAMETREES_ENV/bin" ]; then
    case "$PATH" in
        "$GAMETREES_ENV/bin:"*) ;;
        *) PATH="$GAMETREES_ENV/bin:$PATH"; export PATH ;;
    esac
fi
