"""The run of one notebook inside the grading sandbox, as nbgrader's ``Execute`` would run it: :func:`main`.

:class:`gametrees.classroom.execution.SandboxedExecute` starts this file as a
script (``python notebook_run.py IN SETTINGS FILES``) inside the walls of
:mod:`gametrees.classroom.isolation`: it executes ``IN`` with nbclient, with
nbgrader's settings of ``Execute`` (``SETTINGS``, a JSON file: the cell timeout,
interrupt on timeout, the error written on a timeout, the kernel's extra
arguments) and nbgrader's rules (errors allowed, so every cell runs; a reply's
error the outputs do not show is added to them), in the working folder where
it first copies the submission's own files (``FILES``), and writes the executed
notebook to its standard output (the only way out of the sandbox). It is run as a file, never
imported, so that it loads nbclient and nbformat only (not nbgrader, not gametrees): the kernel starts
sooner. What it writes is read back as untrusted data.

May import: the standard library; nbclient and nbformat (inside :func:`main`).
"""

import json
import os
import sys

#: The settings of nbgrader's ``Execute`` that the run takes (the rest are nbgrader's defaults).
SETTINGS = ("timeout", "interrupt_on_timeout", "raise_on_iopub_timeout",
            "error_on_timeout", "extra_arguments",
            "startup_timeout", "iopub_timeout", "kernel_name")


def main(argv=None):  # pragma: no cover -- runs inside the sandbox (tests/test_isolation.py drives it)
    """Execute ``IN`` with ``SETTINGS`` (nbgrader's ``Execute``) beside a copy of ``FILES``; the executed
    notebook on standard output."""
    import shutil

    # jsonschema (under nbformat) loads rfc3987_syntax when it is installed, for an IRI format check that
    # notebooks never use: building its grammar takes about 0.8 s, a third of a submission's run here.
    sys.modules.setdefault("rfc3987_syntax", None)
    import nbformat
    from nbclient import NotebookClient
    from nbformat import NotebookNode

    src, settings_file, files = (argv or sys.argv[1:])[:3]
    # The notebook goes out on this process's own standard output: the kernel gets /dev/null for its.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    if os.path.isdir(files):
        shutil.copytree(files, os.getcwd(), dirs_exist_ok=True)
    with open(settings_file, encoding="utf-8") as f:
        settings = {k: v for k, v in json.load(f).items() if k in SETTINGS}
    if not settings.get("extra_arguments"):
        settings["extra_arguments"] = ["--HistoryManager.hist_file=:memory:"]  # nbgrader's default for Python
    nb = nbformat.read(src, as_version=4)

    def on_cell_executed(cell, execute_reply, **kwargs):
        """nbgrader's rule: an error the outputs do not show (a timeout's) is added to them."""
        content = execute_reply["content"]
        if content["status"] != "error":
            return
        if any(o.output_type == "error" and o.ename == content["ename"] for o in cell.outputs):
            return
        error = NotebookNode(output_type="error", ename=content["ename"], evalue=content["evalue"],
                             traceback=content["traceback"] or ["ERROR: An error occurred while "
                                                                "showtraceback was disabled"])
        cell.outputs.append(error)

    client = NotebookClient(nb, allow_errors=True, resources={"metadata": {"path": os.getcwd()}},
                            on_cell_executed=on_cell_executed, **settings)
    client.execute()
    nbformat.write(nb, out)
    out.close()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
