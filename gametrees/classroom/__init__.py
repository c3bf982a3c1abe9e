"""The classroom assignments' code, behind the façade :mod:`gametrees.assignments`.

Learners and instructors use ``from gametrees import assignments as ga`` (and
``python -m gametrees.assignments release|grade ...``); the modules here hold
the code, lowest layer first:

``ids``           the student's id, the seed of their variant, and its warnings
``limits``        a time limit on a check in the kernel; checks deferred to the grader
``integrity``     graded exercises (:func:`protect`) and answers asked of the library
``scoring``       :func:`score`: what a graded check cell shows and nbgrader scores
``hidden``        the checks the grader adds after submission; a check's wording in the notebook
``checks``        :func:`check_answer`, :func:`check_code`, :func:`check_best_move`
``connect_four``  the Connect Four evaluation check, reference agents, tournaments
``declarations`` questions an instructor declares in a notebook (:func:`question`), read as data
``course``        checks that a course folder and its gradebook are usable; earlier results kept
``child``         the child interpreter that runs a learner's code for the grader (run, never imported)
``sandbox``       the grader's side of that child: the game proxy over a pipe, limits
``questions``     what each graded cell asks: the three assignments' and the declared ones
``releases``      student versions (solutions cleared) with nbgrader's preprocessors
``verdicts``      each question's points decided outside the student's kernel
``autograding``   nbgrader's autograde with the verdicts in its gradebook (needs nbgrader)
``grading``       running one notebook for its feedback, points from the verdicts
``report``        the class report from the verdicts in the autograded submissions
``lms``           nbgrader's grades as a file Canvas's or Moodle's gradebook imports (needs nbgrader)
``exchange``      nbgrader's exchange guarded: submissions filed under another's id set aside (needs nbgrader)
``cli``           the command line

They may import the public names of :mod:`gametrees.exercises` and its modules,
and of :mod:`gametrees.games`, :mod:`~gametrees.search`, :mod:`~gametrees.trees`,
:mod:`~gametrees.agents` and :mod:`~gametrees.tournaments`; nothing imports them
but :mod:`gametrees.assignments`.
"""
