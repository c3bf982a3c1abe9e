"""Jupyter Server's settings for every user's server on a gametrees course's JupyterHub.

The hub (``jupyterhub_config.py`` beside this file) puts this folder on every user's
``JUPYTER_CONFIG_PATH``, so each server reads this file as it starts.
"""

c = get_config()  # noqa: F821 -- defined by Jupyter Server when it reads this file

# Kernels talk to their server over unix sockets beside their connection file, in the user's private
# runtime folder (~/.local/share/jupyter/runtime, mode 700), not over TCP ports on 127.0.0.1 that any
# account on the server can connect to (and so read a classmate's code and outputs on IOPub).
c.KernelManager.transport = "ipc"
