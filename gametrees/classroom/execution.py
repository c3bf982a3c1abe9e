"""nbgrader's execution of a submission, inside the sandbox: :class:`SandboxedExecute` and :func:`main`.

nbgrader's ``Execute`` preprocessor starts the student's kernel as the grading
user, with the whole machine in reach (the gradebook, the course, a
classmate's submission, the installed package) and able to leave a daemon
behind. :class:`SandboxedExecute` takes its place in the autograde
preprocessors. It writes the notebook and a copy of the submission's own
files into a fresh scratch folder and runs :mod:`gametrees.classroom.notebook_run`
there, inside :mod:`gametrees.classroom.isolation`'s walls: it executes the
notebook as nbgrader's ``Execute`` would (the same settings: ``c.Execute.*``)
and writes it back to the scratch folder. The kernel and everything it starts
live and die in that sandbox, which is killed after ``submission_limit``
seconds at the latest.

The executed notebook comes back on the sandbox's standard output (the
scratch folder is read-only inside; the kernel writes only to size-limited
tmpfs folders that vanish with it), as data, never trusted: only the outputs and
execution counts of each code cell are taken, by position, onto the notebook
nbgrader sent (its sources and metadata stay nbgrader's), each output checked
against nbformat's schema and capped in size. A run that was stopped, or a
notebook that does not come back whole, gives the cells no outputs and one
error output saying why. Points never come from these outputs for a question
the grader knows (:mod:`gametrees.classroom.verdicts` decides them in its own
sandboxes); the outputs are what the student sees as feedback.

May import: the standard library, :mod:`gametrees.classroom.isolation`; nbgrader, nbformat and traitlets.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from nbgrader.preprocessors import Execute
from traitlets import Float

from . import isolation

#: Seconds the whole execution of one submission's notebook may take (the kernel's start included).
SUBMISSION_LIMIT = 300.0
#: Bytes of an executed notebook read back from the sandbox (on its standard output), and of a submission's
#: files copied in.
MAX_NOTEBOOK = 64 * 2**20
MAX_FILES = 64 * 2**20
#: The run inside the sandbox: a script (never imported here), so that it loads no more than it needs.
RUNNER = Path(__file__).with_name("notebook_run.py")
#: The settings of nbgrader's ``Execute`` passed to the run inside (notebook_run.py's ``SETTINGS``).
_SETTINGS = ("timeout", "interrupt_on_timeout", "raise_on_iopub_timeout",
             "error_on_timeout", "extra_arguments",
             "startup_timeout", "iopub_timeout", "kernel_name")


def _copy_files(source, target):
    """Copy the submission's own files (no links, nothing past :data:`MAX_FILES` in all) into ``target``."""
    total = 0
    if not source or not Path(source).is_dir():
        return
    for root, dirs, files in os.walk(source, followlinks=False):
        rel = Path(root).relative_to(source)
        dirs[:] = [d for d in dirs if not (Path(root) / d).is_symlink()]
        (target / rel).mkdir(parents=True, exist_ok=True)
        for name in files:
            path = Path(root) / name
            if path.is_symlink() or not path.is_file() or name.endswith(".ipynb"):
                continue
            total += path.stat().st_size
            if total > MAX_FILES:
                return
            shutil.copyfile(path, target / rel / name)


def sandbox_env(scratch):
    """The whole environment of the kernel's sandbox: no variable of the grader's, homes in the scratch
    folder."""
    home = str(Path(scratch) / "home")
    env = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": home,
           "MPLCONFIGDIR": f"{home}/.matplotlib", "JUPYTER_RUNTIME_DIR": f"{home}/runtime",
           "JUPYTER_DATA_DIR": f"{home}/data", "JUPYTER_CONFIG_DIR": f"{home}/config",
           "IPYTHONDIR": f"{home}/.ipython", "MPLBACKEND": "agg", "OPENBLAS_NUM_THREADS": "1",
           "OMP_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1", "NBGRADER_EXECUTION": "autograde",
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    for key in ("GAMETREES_CLEAN_GRADER", "GAMETREES_CHECK_LIMIT", "TZ"):
        if key in os.environ:
            env[key] = os.environ[key]
    return env


def collect(proc, seconds, limit=MAX_NOTEBOOK, tail=4096):
    """``(stdout, stderr's last bytes, why it stopped or None)`` of a sandbox's run, read as untrusted.

    Standard output (the executed notebook) is kept up to ``limit`` bytes, standard error only its last
    ``tail`` bytes, so whatever the code writes the grader holds at most that much; a run past ``seconds``,
    or an output past ``limit``, is stopped (the caller kills the sandbox).
    """
    deadline = time.monotonic() + seconds
    out, err = bytearray(), bytearray()
    streams = {proc.stdout.fileno(): out, proc.stderr.fileno(): err}
    stopped = None
    while streams:
        wait = deadline - time.monotonic()
        if wait <= 0:
            stopped = (f"the notebook did not finish running within {seconds:g} s (the limit for one "
                       "submission): it was stopped there")
            break
        ready, _, _ = select.select(list(streams), [], [], wait)
        for fd in ready:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                del streams[fd]
                continue
            buf = streams[fd]
            buf += chunk
            if buf is err and len(err) > tail:
                del err[:-tail]
        if len(out) > limit:
            stopped = f"the executed notebook is larger than {limit // 2**20} MB"
            break
    if stopped is None:
        try:
            proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            stopped = (f"the notebook did not finish running within {seconds:g} s (the limit for one "
                       "submission): it was stopped there")
    return bytes(out), bytes(err), stopped


def _error(text):
    return {"output_type": "error", "ename": "GradingStopped", "evalue": text,
            "traceback": [f"GradingStopped: {text}"]}


def merge_outputs(nb, executed):
    """Copy each code cell's outputs and execution count from ``executed`` (untrusted data) onto ``nb``.

    Returns None, or why nothing was taken (the cells then keep no output). Only outputs that are valid
    nbformat outputs are taken; sources and metadata always stay ``nb``'s.
    """
    import nbformat
    from nbformat.v4.rwbase import rejoin_lines
    from nbformat.validator import ValidationError

    if not isinstance(executed, dict) or not isinstance(executed.get("cells"), list):
        return "the executed notebook did not come back whole"
    cells = executed["cells"]
    if len(cells) != len(nb.cells) or any(not isinstance(c, dict) or c.get("cell_type") != o.cell_type
                                          for c, o in zip(cells, nb.cells)):
        return "the executed notebook's cells are not the ones sent"
    for cell, ours in zip(cells, nb.cells):
        if ours.cell_type != "code":
            continue
        outputs = cell.get("outputs")
        count = cell.get("execution_count")
        ours.execution_count = count if type(count) is int and 0 <= count < 10**9 else None
        kept = []
        for output in outputs if isinstance(outputs, list) else []:
            try:
                node = nbformat.from_dict(output)
                one = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(outputs=[node])])
                nbformat.validate(one)
                rejoin_lines(one)  # text kept as one string, as nbgrader's preprocessors expect
            except (ValidationError, TypeError, ValueError, AttributeError, KeyError, RecursionError):
                continue
            kept.append(one.cells[0].outputs[0])
        ours.outputs = kept
    return None


class SandboxedExecute(Execute):
    """nbgrader's ``Execute``, run inside the sandbox (:mod:`gametrees.classroom.isolation`).

    Configured like ``Execute`` (``c.Execute.timeout`` and the rest apply); ``submission_limit`` bounds
    the whole run.
    """

    submission_limit = Float(SUBMISSION_LIMIT, help="Seconds the execution of one notebook may take in all, "
                                                    "the kernel's start included.").tag(config=True)

    def preprocess(self, nb, resources):
        import nbformat

        walls = isolation.current()
        started = time.monotonic()
        scratch = Path(tempfile.mkdtemp(prefix="gametrees-kernel-"))
        try:
            info = resources.get("nbgrader", {})
            # nbgrader's own layout, so the kernel finds the student's id in its folder as under nbgrader
            names = [str(info.get(k) or "") for k in ("student", "assignment")]
            work = scratch / "autograded" / Path(*names) if all(n and Path(n).name == n for n in names) else \
                scratch / "work"
            _copy_files(resources.get("metadata", {}).get("path"), scratch / "files")
            nbformat.write(nb, scratch / "in.ipynb")
            settings = {k: getattr(self, k) for k in _SETTINGS if hasattr(self, k)}
            settings["kernel_name"] = "python3"
            (scratch / "settings.json").write_text(json.dumps(settings, default=str))
            files = [str(scratch / "in.ipynb"), str(scratch / "settings.json"), str(scratch / "files")]
            if walls.kind == "docker":  # the image has gametrees installed, not this file at this path
                argv = ["python", "-m", "gametrees.classroom.notebook_run", *files]
            else:
                argv = [isolation.interpreter(True), str(RUNNER), *files]
            box = walls.start(argv, scratch=str(scratch), cwd=str(work), env=sandbox_env(scratch),
                              packages=True, writable=[work, scratch / "home"], stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            with box:
                out, err, stopped = collect(box.proc, self.submission_limit)
            if stopped is None and box.proc.returncode != 0:
                last = err.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
                stopped = (f"the notebook's run ended early (exit status {box.proc.returncode}) "
                           f"{last[0][:200]}")
            executed = None
            if stopped is None:
                try:
                    executed = json.loads(out.decode("utf-8"))
                except (ValueError, RecursionError):
                    stopped = "the executed notebook could not be read back"
            for cell in nb.cells:
                if cell.cell_type == "code":
                    cell.outputs, cell.execution_count = [], None
            why = stopped or merge_outputs(nb, executed)
            if why:
                first = next((c for c in nb.cells if c.cell_type == "code"), None)
                if first is not None:
                    first.outputs.append(nbformat.from_dict(_error(why)))
                self.log.warning("%s", why)
            resources.setdefault("gametrees", {})["execution"] = {
                "isolation": walls.kind, "seconds": round(time.monotonic() - started, 2), "stopped": why}
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return nb, resources
