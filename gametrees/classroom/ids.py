"""The student's id, the seed of their variant: :func:`student_id`, :data:`ENV_VAR`, :data:`DEFAULT_ID`.

May import: the standard library only.
"""

from __future__ import annotations

import os
from pathlib import Path

#: The environment variable that overrides every other source of the student id.
ENV_VAR = "GAMETREES_STUDENT_ID"
#: The id used when none is given (the instructor's version, a learner practising).
DEFAULT_ID = "practice"



# ============================================================================
# The student's id: the seed of their variant
# ============================================================================


def _nbgrader_student(cwd):
    """The student folder of nbgrader's ``autograded/<student>/<assignment>`` layout, or None."""
    parts = Path(cwd).resolve().parts
    if len(parts) >= 3 and parts[-3] == "autograded":
        return parts[-2]
    return None


def student_id(given=None):
    """The id that seeds this student's exercises.

    In order:

    1. the environment variable ``GAMETREES_STUDENT_ID``, if set (an
       instructor previews a student's variant with it);
    2. while ``nbgrader autograde`` runs the notebook (it sets
       ``NBGRADER_EXECUTION=autograde`` and runs in
       ``autograded/<student>/<assignment>/``), the student's folder name:
       answers are always checked against the tree of the student who
       handed them in, whatever id was typed in the notebook;
    3. ``given``, the id the student typed in the notebook;
    4. ``"practice"``.

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
    >>> os.environ.pop("GAMETREES_STUDENT_ID", None) and None
    >>> student_id("jdoe"), student_id(""), student_id(None), student_id(1234567)
    ('jdoe', 'practice', 'practice', '1234567')
    """
    if given is not None and (isinstance(given, bool) or not isinstance(given, (str, int))):
        raise TypeError(f"given must be a student id (a str such as 'jdoe', or an int), got {given!r}")
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return env
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        folder = _nbgrader_student(os.getcwd())
        if folder:
            return folder
    text = "" if given is None else str(given).strip()
    return text or DEFAULT_ID
