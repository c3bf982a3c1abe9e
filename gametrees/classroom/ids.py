"""The student's id, the seed of their variant: :func:`student_id`, :func:`id_warnings`, :data:`ENV_VAR`,
:data:`DEFAULT_ID`.

May import: the standard library only.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

#: The environment variable an instructor sets to preview a student's variant.
ENV_VAR = "GAMETREES_STUDENT_ID"
#: The id used when none is given (the instructor's version, a learner practising).
DEFAULT_ID = "practice"
#: A file with one known student id a line (optional; nbgrader's gradebook is read when found).
LIST_VAR = "GAMETREES_STUDENT_LIST"
#: The last id :func:`student_id` chose, where it came from, and what is worth a warning.
LAST = {"id": None, "source": None, "warnings": []}


# ============================================================================
# The student's id: the seed of their variant
# ============================================================================


def normal(text):
    """An id as it seeds the trees: surrounding space removed, lower case (``" JDoe "`` is ``"jdoe"``)."""
    return str(text).strip().lower()


def _nbgrader_student(cwd):
    """The student folder of nbgrader's ``autograded/<student>/<assignment>`` layout, or None."""
    parts = Path(cwd).resolve().parts
    if len(parts) >= 3 and parts[-3] == "autograded":
        return parts[-2]
    return None


def known_students(cwd=None):
    """The ids in nbgrader's student list (normalised), or None when there is none to read.

    Read from the file named by ``GAMETREES_STUDENT_LIST`` (one id a line), else from the
    ``student`` table of a ``gradebook.db`` in the folder or up to three folders above it
    (nbgrader keeps it in the course folder; autograding runs three levels below).
    """
    listed = os.environ.get(LIST_VAR, "").strip()
    if listed:
        try:
            lines = Path(listed).read_text(encoding="utf-8").splitlines()
        except OSError:
            return None
        return {normal(x) for x in lines if x.strip()}
    here = Path(cwd or os.getcwd()).resolve()
    for folder in [here, *list(here.parents)[:3]]:
        db = folder / "gradebook.db"
        if db.is_file():
            try:
                with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
                    return {normal(row[0]) for row in con.execute("SELECT id FROM student")}
            except sqlite3.Error:
                return None
    return None


def student_id(given=None):
    """The id that seeds this student's exercises (normalised: ``"JDoe"`` and ``" jdoe "`` are ``"jdoe"``).

    In order:

    1. while ``nbgrader autograde`` runs the notebook (it sets
       ``NBGRADER_EXECUTION=autograde`` and runs in
       ``autograded/<student>/<assignment>/``), the student's folder name,
       always: answers are checked against the tree of the student who
       handed them in. A typed id or ``GAMETREES_STUDENT_ID`` that disagrees
       is reported (:func:`id_warnings`), never used;
    2. the environment variable ``GAMETREES_STUDENT_ID`` (an instructor
       previews a student's variant with it);
    3. ``given``, the id the student typed in the notebook;
    4. ``"practice"`` on an instructor's server of the course hub
       (``GAMETREES_ROLE=instructor``, set by ``deploy/jupyterhub``): an
       instructor version is edited, re-run and saved with the practice trees;
    5. ``JUPYTERHUB_USER``, the hub login, when nothing is typed;
    6. ``"practice"``, with a warning.

    A missing id, or one that is not in nbgrader's student list (when one
    can be read, see :func:`known_students`), is kept in
    :func:`id_warnings`, which every graded check shows.

    Parameters
    ----------
    given : str or int, optional
        The id from the notebook (``STUDENT_ID = "jdoe"``); empty means none.

    Returns
    -------
    str

    Raises
    ------
    TypeError
        If ``given`` is neither a str, an int nor None.

    Examples
    --------
    >>> import os
    >>> for var in ("GAMETREES_STUDENT_ID", "JUPYTERHUB_USER", "NBGRADER_EXECUTION", "GAMETREES_ROLE"):
    ...     _ = os.environ.pop(var, None)
    >>> student_id("jdoe"), student_id(" JDoe "), student_id(""), student_id(1234567)
    ('jdoe', 'jdoe', 'practice', '1234567')
    >>> student_id(None), id_warnings()[0][:50]
    ('practice', 'No student id: your trees and games are the shared')
    """
    if given is not None and (isinstance(given, bool) or not isinstance(given, (str, int))):
        raise TypeError(f"given must be a student id (a str such as 'jdoe', or an int), got {given!r}")
    typed = normal("" if given is None else given)
    env = normal(os.environ.get(ENV_VAR, ""))
    hub = normal(os.environ.get("JUPYTERHUB_USER", ""))
    warnings = []
    folder = None
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        folder = _nbgrader_student(os.getcwd())
    if folder:
        chosen, source = normal(folder), "the folder nbgrader filed the submission under"
        for other, where in ((typed, "typed in the notebook"), (env, f"in {ENV_VAR}")):
            if other and other != chosen:
                warnings.append(f"The id {other!r} {where} differs from the submission's folder {chosen!r}: "
                                f"graded against {chosen!r}'s trees.")
    elif env:
        chosen, source = env, f"the environment variable {ENV_VAR}"
        if typed and typed != env:
            warnings.append(f"{ENV_VAR}={env!r} overrides the id {typed!r} typed in the notebook.")
    elif typed:
        chosen, source = typed, "the id typed in the notebook"
    elif os.environ.get("GAMETREES_ROLE") == "instructor":
        # The instructor's server on the course hub (deploy/jupyterhub): an instructor version is edited,
        # re-run and saved with the practice trees, never with the instructor's login as a student id.
        chosen, source = DEFAULT_ID, "the instructor's server on the course hub (GAMETREES_ROLE=instructor)"
    elif hub:
        chosen, source = hub, "your JupyterHub login (JUPYTERHUB_USER)"
    else:
        chosen, source = DEFAULT_ID, "no id given"
        warnings.append("No student id: your trees and games are the shared practice ones, not yours, so "
                        "answers that pass here will fail when graded. Type your course login in STUDENT_ID "
                        "and run the notebook again.")
    if chosen != DEFAULT_ID:
        known = known_students()
        if known is not None and chosen not in known:
            warnings.append(f"The id {chosen!r} is not in the course's student list: check it is your course "
                            "login, exactly as your instructor uses it.")
    LAST.update(id=chosen, source=source, warnings=warnings)
    return chosen


def id_warnings():
    """What was worth a warning when the id was last chosen (a list of sentences; empty when all is well)."""
    return list(LAST["warnings"])
