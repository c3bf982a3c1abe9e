"""The class report names the submissions nbgrader's guarded collect set aside (gametrees.classroom.exchange).

The collect itself, with real unix accounts submitting under each other's ids, is driven on a real hub
by tests/test_hub_hardening.py; here, the report an instructor reads afterwards.
"""

from __future__ import annotations

import shutil

from courses import A1, ROOT

from gametrees import assignments as ga
from gametrees.classroom.report import set_aside, set_aside_path

STUDENT = ROOT / "notebooks" / "assignments"


def test_the_report_names_a_set_aside_submission_and_who_wrote_it(tmp_path, capsys):
    course = tmp_path / "course"
    for student in ("ann", "bob"):
        (course / "autograded" / student / "A1").mkdir(parents=True)
        shutil.copy(STUDENT / A1.name, course / "autograded" / student / "A1")
    aside = set_aside_path(course, "A1", "ann", "bob", "2026-11-27 13:00:00.000000 UTC")
    aside.mkdir(parents=True)
    shutil.copy(STUDENT / A1.name, aside)
    assert set_aside(course, "A1") == [("ann", "bob", aside)]
    assert set_aside(course, "A2") == []

    assert ga.main(["report", str(course), "A1", "--no-chart"]) == 0
    out = capsys.readouterr().out
    assert ("SET ASIDE, not collected: a submission filed under ann by the account bob "
            f"(a copy in {aside})") in out
