"""Settings for every Jupyter program of every user on a gametrees course's JupyterHub.

The hub (``jupyterhub_config.py`` beside this file) puts this folder on every user's
``JUPYTER_CONFIG_PATH``. Every Jupyter application reads ``jupyter_config.py`` before its own file: the
user's server as it starts, and also what starts kernels outside it, nbgrader's *Validate* (in the
server, through nbgrader's own settings) and ``jupyter nbconvert --execute`` or ``nbgrader validate``
typed in a terminal. (A ``jupyter_server_config.py`` would reach the server's own kernels only.)
"""

c = get_config()  # noqa: F821 -- defined by the Jupyter application that reads this file

# Kernels talk to their client over unix sockets, not over TCP ports on 127.0.0.1 that any account on the
# server can connect to (and so read a classmate's code and outputs on IOPub). The server's kernels have
# theirs beside their connection file, in the user's private runtime folder
# (~/.local/share/jupyter/runtime, mode 700); a kernel started from a command, in the folder the command
# runs in (``kernel-ipc-1`` ...), which only its user may connect to (the socket's mode comes from the
# user's umask: 022 leaves others no write, and connecting needs write).
c.KernelManager.transport = "ipc"
