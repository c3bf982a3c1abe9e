"""nbgrader's folder exchange with a guard against submissions filed under another student's id.

nbgrader files a submission under the id the submitting command names (``nbgrader submit A2 --student
v01``), and its ``collect`` keeps the newest submission of each id, only warning ("cheating attempt?")
when the unix account that wrote it is not the id's. On a server where every student has their own
unix account (``deploy/jupyterhub/``), a student could so replace a classmate's submission.

:class:`GuardedCollect` collects as nbgrader does, except that a submission filed under an id that
names a unix account, written by another account, is **set aside**: never collected, never in place
of the id's own submissions, copied to ``COURSE/quarantined/<assignment>/<id>/<owner>+<timestamp>``
(the exchange's copy stays where it is), and named in an error line of ``collect`` and in the class
report (:mod:`gametrees.classroom.report`). Where the ids are not unix accounts (a hub whose servers
all run as one user, a container's ``jovyan``), the owner says nothing about the student and
submissions are collected as nbgrader collects them.

:class:`GuardedRelease` releases as nbgrader does and makes the course's ``inbound`` folder sticky
(students may add submissions there but not rename or remove anyone else's), and warns when the
exchange folder itself is not sticky. ``deploy/jupyterhub/nbgrader_config.py`` sets both::

    c.ExchangeFactory.collect = "gametrees.classroom.exchange.GuardedCollect"
    c.ExchangeFactory.release_assignment = "gametrees.classroom.exchange.GuardedRelease"

May import: the standard library, nbgrader and :mod:`gametrees.classroom.report` (where set-aside
submissions are kept, and read for the report).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import stat

from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.exchange.default.release_assignment import ExchangeReleaseAssignment

from .report import set_aside_path


def _account(uid):
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def _is_account(name):
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


class GuardedCollect(ExchangeCollect):
    """nbgrader's collect, with submissions filed under another account's id set aside (module docstring)."""

    def _claimed_by_another(self, record):
        """The account that wrote a submission filed under an id that is another unix account, else None."""
        student = record["username"]
        owner = _account(os.stat(os.path.join(self.inbound_path, record["filename"])).st_uid)
        if owner == student or not _is_account(student):
            return None
        return owner

    def _chosen(self, records):
        """nbgrader's choice among one student's submissions: the newest (before the due date if asked)."""
        records = self._sort_by_timestamp(records)
        if self.duedate is not None and self.before_duedate:
            before = [r for r in records if r["timestamp"] <= self.duedate]
            return before[0] if before else records[0]
        return records[0]

    def init_src(self):
        super().init_src()
        student = self.coursedir.student_id or "*"
        pattern = os.path.join(self.inbound_path, f"{student}+{self.coursedir.assignment_id}+*")
        by_student, aside = {}, []
        for path in glob.glob(pattern):
            record = self._path_to_record(path)
            owner = self._claimed_by_another(record)
            if owner is None:
                by_student.setdefault(record["username"], []).append(record)
            else:
                aside.append((record, owner))
        if not aside:
            return
        self.src_records = [self._chosen(records) for records in by_student.values()]
        for record, owner in aside:
            dest = set_aside_path(self.coursedir.root, self.coursedir.assignment_id, record["username"],
                                  owner, record["filename"].rsplit("+", 3)[2])
            if not dest.exists():
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copytree(os.path.join(self.inbound_path, record["filename"]), dest)
            self.log.error("Set aside, not collected: a submission filed under %s by the account %s "
                           "(%s); a copy is in %s", record["username"], owner, record["filename"], dest)


class GuardedRelease(ExchangeReleaseAssignment):
    """nbgrader's release, with a sticky ``inbound`` folder and a warning for an exchange without one."""

    def ensure_root(self):
        super().ensure_root()
        if not os.stat(self.root).st_mode & stat.S_ISVTX:
            self.log.warning("The exchange %s has no sticky bit: a student can rename or remove another's "
                             "folders in it. As root: chmod 1777 %s", self.root, self.root)

    def init_dest(self):
        super().init_dest()
        mode = os.stat(self.inbound_path).st_mode
        if not mode & stat.S_ISVTX:
            os.chmod(self.inbound_path, stat.S_IMODE(mode) | stat.S_ISVTX)
