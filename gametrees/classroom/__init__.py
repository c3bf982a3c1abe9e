"""The classroom assignments' code, behind the façade :mod:`gametrees.assignments`.

Learners and instructors use ``from gametrees import assignments as ga`` (and
``python -m gametrees.assignments release|grade ...``); the modules here hold
the code, lowest layer first:

``ids``           the student's id, the seed of their variant, and its warnings
``integrity``     graded exercises (:func:`protect`) and answers asked of the library
``scoring``       :func:`score`: what a graded check cell shows and nbgrader scores
``checks``        :func:`check_answer`, :func:`check_code`, :func:`check_best_move`
``connect_four``  the Connect Four evaluation check, reference agents, tournaments
``releases``      student versions (solutions cleared) with nbgrader's preprocessors
``grading``       running a notebook and scoring its test cells
``report``        the class report from nbgrader's autograded submissions
``cli``           the command line

They may import the public names of :mod:`gametrees.exercises` and its modules,
and of :mod:`gametrees.games`, :mod:`~gametrees.search`, :mod:`~gametrees.trees`,
:mod:`~gametrees.agents` and :mod:`~gametrees.tournaments`; nothing imports them
but :mod:`gametrees.assignments`.
"""
