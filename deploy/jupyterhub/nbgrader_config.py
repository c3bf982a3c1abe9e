"""nbgrader's settings for everyone on a gametrees course's JupyterHub.

The hub (``jupyterhub_config.py`` beside this file) puts this folder on every user's
``JUPYTER_CONFIG_PATH``, so nbgrader reads this file in each user's server, terminal and
kernel, and sets the variables it reads. The instructor adds ``c.CourseDirectory.root`` in their own
``~/.jupyter/nbgrader_config.py`` (INSTRUCTORS.md, "The course on JupyterHub").
"""

import os

c = get_config()  # noqa: F821 -- defined by nbgrader when it reads this file

c.CourseDirectory.course_id = os.environ.get("GAMETREES_COURSE_ID", "gametrees")
c.Exchange.root = os.environ.get("GAMETREES_EXCHANGE", "/srv/nbgrader/exchange")

if os.environ.get("GAMETREES_ROLE") == "student" and os.environ.get("JUPYTERHUB_USER"):
    # Submissions are filed under the student's hub login, also in containers where every user's
    # unix name is the same (root, jovyan): the id the grader uses to make the student's trees.
    c.CourseDirectory.student_id = os.environ["JUPYTERHUB_USER"]

# nbgrader's folder exchange, guarded (gametrees.classroom.exchange): a submission filed under another
# student's id by their classmate's account is set aside at collect, never collected in place of the
# student's own; the course's inbound folder is sticky.
c.ExchangeFactory.collect = "gametrees.classroom.exchange.GuardedCollect"
c.ExchangeFactory.release_assignment = "gametrees.classroom.exchange.GuardedRelease"
