"""Questions an instructor declares in an assignment notebook: :func:`question`, :class:`Declaration`.

An instructor adds a graded question without touching the package: one line in a
read-only cell of the instructor notebook names the question's variant, and the
grade cell below checks it the way the shipped questions are checked::

    mine = ga.question("order", seed="{student}/A2/order", difficulty="medium")
    ...
    ga.score(ga.check_answer(mine, visiting_order), 2)           # a question by hand

    leaves = ga.question("code", check="check_alphabeta", variant="{student}/A2/q6",
                         rule=["textbook", "strict"])
    ...
    ga.score(ga.check_code(leaves, alphabeta_value), 3)          # a code question

In the student's kernel :func:`question` builds the exercise (or the code check)
of the student's own variant, for the feedback while working. The grader reads
the same line as data (:func:`read`; literals only, never run) and builds the
same variant from the id the submission is filed under
(:mod:`gametrees.classroom.questions`); nbgrader puts read-only cells back from
the source version before grading, so a student cannot change it. ``release``
refuses a declaration it cannot build, in one line naming it (:func:`problems`).

``"{student}"`` in ``seed`` and ``variant`` is replaced by the student's id. A
list given for a task option of a code check (``rule=["textbook", "strict"]``)
gives each student one of its entries, chosen from their variant.

May import: the standard library, :mod:`gametrees.classroom.ids`,
:mod:`gametrees.classroom.integrity`, :mod:`gametrees.classroom.checks` and the
public names of :mod:`gametrees.exercises`.
"""

from __future__ import annotations

import ast
import hashlib

from .. import exercises as _exercises
from .checks import check_best_move, check_leaf_count
from .ids import LAST, student_id
from .integrity import protect

#: The name a declaration calls, as written in the notebooks (``ga.question(...)``).
CALL = "ga.question"
#: The kinds of question by hand: every kind of :func:`gametrees.exercises.generate`.
ANSWER_KINDS = tuple(sorted(_exercises.KINDS))
#: The checks a code question may name, each with the options it takes (``variant`` aside).
CHECKS = {
    "check_minimax": ("tictactoe", "mutable"),
    "check_alphabeta": ("tictactoe", "rule"),
    "check_expectimax": (),
    "check_best_move": ("alphabeta", "tictactoe"),
    "check_leaf_count": ("rule",),
}
#: The values each option of a check may take.
_VALUES = {"tictactoe": (True, False), "mutable": (True, False), "alphabeta": (True, False),
           "rule": ("textbook", "strict")}
#: The options a declaration of each sort takes besides those of its exercise or check.
_OWN = {"answer": ("seed", "difficulty"), "code": ("check", "variant")}


def checker(name):
    """The check function a code question names (one of :data:`CHECKS`)."""
    own = {"check_best_move": check_best_move, "check_leaf_count": check_leaf_count}
    return own[name] if name in own else getattr(_exercises, name)


def _pick(seed, key, choices):
    """The entry of ``choices`` for the variant ``seed`` (the same every time, spread over the entries)."""
    digest = hashlib.sha256(f"{seed}/{key}".encode()).digest()
    return choices[int.from_bytes(digest[:8], "big") % len(choices)]


class Declaration:
    """One declared question: ``name`` (the notebook's variable), ``kind`` and its ``settings``.

    Parameters
    ----------
    name : str or None
        The variable the notebook assigns it to (``mine = ga.question(...)``).
    kind : str
        An exercise kind (:data:`ANSWER_KINDS`) or ``"code"``.
    **settings
        By hand: ``seed`` (a pattern with ``{student}``), ``difficulty`` and the
        exercise's own options (those of :func:`gametrees.exercises.generate`).
        Code: ``check`` (one of :data:`CHECKS`), ``variant`` (a pattern with
        ``{student}``) and the check's options (a list: one entry per student).

    Raises
    ------
    ValueError
        If the kind, the check or an option is unknown (the message names it).

    Examples
    --------
    >>> d = Declaration("leaves", "code", check="check_alphabeta", variant="{student}/A2/q6",
    ...                 rule=["textbook", "strict"])
    >>> d.options("jdoe")["variant"], d.options("jdoe")["rule"] in ("textbook", "strict")
    ('jdoe/A2/q6', True)
    >>> Declaration("x", "code", check="check_minmax")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ga.question: unknown check 'check_minmax' (expected one of check_alphabeta, ...
    """

    def __init__(self, name, kind, **settings):
        self.name, self.settings = name, dict(settings)
        if not isinstance(kind, str) or (kind != "code" and kind not in ANSWER_KINDS):
            raise ValueError(f"{CALL}: unknown kind {kind!r} (expected 'code' or an exercise kind: "
                             f"{', '.join(ANSWER_KINDS)})")
        self.kind = kind
        if kind == "code":
            check = settings.get("check")
            if check not in CHECKS:
                raise ValueError(f"{CALL}: unknown check {check!r} "
                                 f"(expected one of {', '.join(sorted(CHECKS))})")
            for key in settings:
                if key not in _OWN["code"] + CHECKS[check]:
                    raise ValueError(f"{CALL}: {check} takes no option {key!r} (its options: "
                                     f"{', '.join(_OWN['code'] + CHECKS[check])})")
            for key, value in settings.items():
                if key == "check":
                    continue
                if key == "variant":
                    if not isinstance(value, str) or not value.strip():
                        raise ValueError(f"{CALL}: variant must be a str such as '{{student}}/A2/q6', "
                                         f"got {value!r}")
                    continue
                choices = list(value) if isinstance(value, (list, tuple)) else [value]
                if not choices:
                    raise ValueError(f"{CALL}: option {key!r} lists no choice")
                for choice in choices:
                    if choice not in _VALUES[key] or type(choice) is not type(_VALUES[key][0]):
                        allowed = ", ".join(map(repr, _VALUES[key]))
                        raise ValueError(f"{CALL}: {check}'s option {key!r} must be one of {allowed} "
                                         f"(or a list of them), got {choice!r}")
        else:
            if not isinstance(settings.get("seed", ""), str):
                raise ValueError(f"{CALL}: seed must be a str such as '{{student}}/A2/mine', "
                                 f"got {settings['seed']!r}")
            try:
                self.exercise("practice")
            except (TypeError, ValueError) as exc:
                raise ValueError(f"{CALL}: {kind}: {exc}") from None

    @property
    def check(self):
        """The name of a code question's check (None by hand)."""
        return self.settings.get("check")

    def seed(self, student):
        """The seed of ``student``'s exercise or code variant (``{student}`` replaced)."""
        pattern = self.settings.get("seed" if self.kind != "code" else "variant")
        return None if pattern is None else str(pattern).replace("{student}", student)

    def exercise(self, student):
        """``student``'s exercise of a question by hand."""
        options = {k: v for k, v in self.settings.items() if k not in ("seed", "difficulty")}
        return _exercises.generate(self.kind, seed=self.seed(student) or student,
                                   difficulty=self.settings.get("difficulty", "medium"), **options)

    def options(self, student):
        """The options ``student``'s code check runs with: ``variant`` and one entry of each listed option."""
        seed = self.seed(student)
        out = {}
        for key, value in self.settings.items():
            if key in ("check", "variant"):
                continue
            out[key] = _pick(seed or student, key, list(value)) if isinstance(value, (list, tuple)) else value
        if seed is not None:
            out["variant"] = seed
        return out

    def describe(self, student):
        """What ``student``'s variant is, in words (the class report and the notebook show it)."""
        if self.kind != "code":
            return f"{self.kind} exercise from {self.seed(student) or student!r}"
        options = self.options(student)
        parts = [f"{k} {v!r}" for k, v in options.items() if k != "variant" and isinstance(
            self.settings.get(k), (list, tuple))]
        if "variant" in options:
            parts.append(f"trees from {options['variant']!r}")
        return ", ".join(parts) or "the same for everyone"


class CodeQuestion:
    """A declared code question in the kernel: a check (``check_code(q, fn)``) run on the student's variant.

    Calling it with a learner's function runs the declared check with the student's options; printing it
    says which variant the student has.
    """

    def __init__(self, declaration, student):
        self.declaration, self.student = declaration, student
        self.__name__ = declaration.check

    @property
    def options(self):
        """The options the check runs with for this student (``variant`` and each listed option's entry)."""
        return self.declaration.options(self.student)

    def __call__(self, fn, **more):
        return checker(self.declaration.check)(fn, **{**self.declaration.options(self.student), **more})

    def __repr__(self):
        return f"{self.__name__} on your variant: {self.declaration.describe(self.student)}"


def question(kind, **settings):
    """A declared question's exercise (by hand) or check (code) for this student, in their kernel.

    The notebook's read-only cell assigns it to a name (``mine = ga.question("order", seed=...)``);
    the grader reads that line as data and builds the same variant from the submission's id.

    Parameters
    ----------
    kind : str
        An exercise kind (``"values"``, ``"pruning"``, ``"order"``, ``"window"``, ``"expectimax"``,
        ``"best_move"``, ``"mcts"``) or ``"code"``.
    **settings
        See :class:`Declaration`.

    Returns
    -------
    gametrees.exercises.Exercise or CodeQuestion
        The exercise (protected: its answers asked of the library are flagged), or the code check.

    Raises
    ------
    ValueError
        If the kind, the check or an option is unknown.

    Examples
    --------
    >>> import os
    >>> for var in ("GAMETREES_STUDENT_ID", "NBGRADER_EXECUTION"):
    ...     _ = os.environ.pop(var, None)
    >>> student_id("jdoe")
    'jdoe'
    >>> mine = question("order", seed="{student}/A2/order", difficulty="easy")
    >>> mine.kind, mine.seed
    ('order', 'jdoe/A2/order')
    >>> question("code", check="check_alphabeta", variant="{student}/A2/q6", rule=["textbook", "strict"])
    check_alphabeta on your variant: rule 'textbook', trees from 'jdoe/A2/q6'
    """
    declaration = Declaration(None, kind, **settings)
    student = LAST["id"] if LAST["id"] is not None else student_id()
    if declaration.kind == "code":
        return CodeQuestion(declaration, student)
    ex = declaration.exercise(student)
    protect(ex)
    return ex


# ============================================================================
# Reading declarations as data (the grader, release)
# ============================================================================


def dotted(node):
    """``"ga.question"`` for the expression ``ga.question``: names and attributes, a call written ``()``
    (``"f().y"``, ``"().chdir"`` for a call of something unnamed); ``""`` for anything else.

    Examples
    --------
    >>> dotted(ast.parse("ga.question").body[0].value), dotted(ast.parse("f(x).y").body[0].value)
    ('ga.question', 'f().y')
    >>> dotted(ast.parse("[1][0].y").body[0].value), dotted(ast.parse("(lambda: os)().chdir").body[0].value)
    ('', '().chdir')
    """
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    elif isinstance(node, ast.Call):
        parts.append(dotted(node.func) + "()")
    else:
        return ""
    return ".".join(reversed(parts))


def calls(source):
    """``[(node, assigned name or None)]``: every ``ga.question(...)`` call in ``source`` (empty if it
    does not parse)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    assigned = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned[id(node.value)] = node.targets[0].id
    return [(node, assigned.get(id(node))) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and dotted(node.func) == CALL]


def read(node, name):
    """The :class:`Declaration` of one ``name = ga.question(...)`` call (its arguments read as literals).

    Raises
    ------
    ValueError
        If an argument is not a literal, or the declaration is refused (see :class:`Declaration`).

    Examples
    --------
    >>> (node, name), = calls('mine = ga.question("pruning", seed="{student}/A2/p", difficulty="hard")')
    >>> d = read(node, name)
    >>> d.name, d.kind, d.seed("jdoe")
    ('mine', 'pruning', 'jdoe/A2/p')
    """
    if name is None:
        raise ValueError(f"{CALL}(...) must be assigned to a name on its own line: mine = {CALL}(...)")
    if len(node.args) != 1 or any(k.arg is None for k in node.keywords):
        raise ValueError(f"{name} = {CALL}(...): give the kind first, then settings by name "
                         f"({CALL}(\"order\", seed=\"{{student}}/A2/q6\"))")
    try:
        kind = ast.literal_eval(node.args[0])
        settings = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise ValueError(f"{name} = {CALL}(...): every argument must be written out as a literal "
                         "(a string, number, True/False/None, or a list of them)") from None
    try:
        return Declaration(name, kind, **settings)
    except ValueError as exc:
        raise ValueError(f"{name} = {exc}") from None
