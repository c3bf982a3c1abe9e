"""A time limit on a check run in the learner's kernel: :func:`time_limit`, :func:`check_limit`,
:class:`OutOfTime`.

nbgrader stops a cell after 30 s (its ``Execute.timeout``) with a
``KeyboardInterrupt`` traceback in the student's feedback. A check of a
function that never returns stops itself first: :func:`time_limit` raises
:class:`OutOfTime` after :func:`check_limit` seconds (20 by default, the
environment variable ``GAMETREES_CHECK_LIMIT`` overrides it), and the check
says "your function did not return within N s". It uses ``SIGALRM``, so it
works in the kernel's main thread (where notebook cells run) and does nothing
elsewhere. The grade itself is decided outside the kernel, with its own limit
per call (:mod:`gametrees.classroom.sandbox`).

May import: the standard library only.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading

_HERE = threading.local()

#: The environment variable that sets the seconds a check in the kernel may take.
LIMIT_VAR = "GAMETREES_CHECK_LIMIT"
#: Set (to "1") by ``python -m gametrees.assignments autograde`` for the kernels nbgrader starts: the costly
#: checks (code, tournaments) then leave their verdict to the grader outside the kernel (see
#: :func:`deferred`).
DEFER_VAR = "GAMETREES_CLEAN_GRADER"


def deferred():
    """Whether a costly check in this kernel leaves its verdict to the grader outside it.

    True only while nbgrader autogrades (``NBGRADER_EXECUTION=autograde``) under the grader's command
    (``GAMETREES_CLEAN_GRADER=1``). The check then earns 0 points in the kernel, so a kernel that sets the
    variable itself gains nothing: the grader decides the points, or nobody gives them.

    Examples
    --------
    >>> import os
    >>> _ = os.environ.pop("GAMETREES_CLEAN_GRADER", None)
    >>> deferred()
    False
    """
    if getattr(_HERE, "outside", 0):
        return False
    return os.environ.get(DEFER_VAR) == "1" and os.environ.get("NBGRADER_EXECUTION") == "autograde"


@contextlib.contextmanager
def outside_kernel():
    """Within the block, in this thread, :func:`deferred` is False: the grader's own checks never defer.

    The grader decides the points in the process that runs nbgrader, whose environment holds both
    variables while nbgrader autogrades (nbgrader sets ``NBGRADER_EXECUTION`` around the whole
    conversion). A flag of this thread, not the environment, says "this is the grader": the
    environment is left alone, so a kernel nbgrader starts meanwhile (in another thread) still defers.
    Setting the flag in a student's kernel only makes the kernel run its checks itself.

    Examples
    --------
    >>> import os
    >>> os.environ.update({"GAMETREES_CLEAN_GRADER": "1", "NBGRADER_EXECUTION": "autograde"})
    >>> with outside_kernel():
    ...     deferred()
    False
    >>> deferred()
    True
    >>> _ = [os.environ.pop(k) for k in ("GAMETREES_CLEAN_GRADER", "NBGRADER_EXECUTION")]
    """
    _HERE.outside = getattr(_HERE, "outside", 0) + 1
    try:
        yield
    finally:
        _HERE.outside -= 1


class OutOfTime(BaseException):
    """The check ran past its limit (a BaseException: a learner's ``except Exception`` cannot swallow it)."""


def check_limit():
    """Seconds a check in the kernel may take: ``GAMETREES_CHECK_LIMIT``, else 20.

    Examples
    --------
    >>> import os
    >>> _ = os.environ.pop("GAMETREES_CHECK_LIMIT", None)
    >>> check_limit()
    20.0
    """
    try:
        value = float(os.environ.get(LIMIT_VAR, "20"))
    except ValueError:
        return 20.0
    return value if 0 < value < 3600 else 20.0


@contextlib.contextmanager
def time_limit(seconds):
    """Within the block, :class:`OutOfTime` is raised after ``seconds`` (main thread only; else no limit).

    Examples
    --------
    >>> with time_limit(5):
    ...     sum(range(10))
    45
    """
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def stop(signum, frame):
        raise OutOfTime(seconds)

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
