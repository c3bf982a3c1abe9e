"""Student versions of the assignments: :func:`release` (nbgrader's own preprocessors, no database).

Every student version :func:`release` writes carries its mark in the notebook's metadata
(:data:`MARK`: who made it and a digest of its cells), so that a later release, even with ``--force``,
replaces only a student version it made itself and nobody changed since (:func:`made_by_release`), never
a lesson, an instructor version or a student's work.

May import: the standard library, :mod:`gametrees.classroom.questions`; nbgrader and nbformat inside
functions only.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .questions import problems

#: The notebook metadata key of release's mark: ``{"made_by": ..., "cells": <SHA-256 of the cells>}``.
MARK = "gametrees_release"
_MADE_BY = "python -m gametrees.assignments release"

# ============================================================================
# Student versions (nbgrader's preprocessors) and grading
# ============================================================================


def _notebooks(src):
    src = Path(src)
    if src.is_dir():
        found = sorted(p for p in src.glob("*.ipynb"))
        if not found:
            raise ValueError(f"no notebooks (*.ipynb) in {str(src)!r}")
        return found
    if not src.exists():
        raise ValueError(f"src {str(src)!r} not found: give an instructor notebook (.ipynb) or a folder of "
                         "them")
    if src.suffix != ".ipynb":
        raise ValueError(f"src must be a notebook (.ipynb) or a folder of notebooks, got {str(src)!r}")
    return [src]


def _cells_digest(cells):
    """The SHA-256 of the cells' types and sources: what a person changes when they work in a notebook."""
    text = [(c.get("cell_type"), "".join(c.get("source", "")) if isinstance(c.get("source"), list)
             else str(c.get("source", ""))) for c in cells]
    return hashlib.sha256(json.dumps(text, ensure_ascii=False).encode("utf-8")).hexdigest()


def made_by_release(path):
    """True if notebook ``path`` is a student version :func:`release` wrote, its cells unchanged since.

    Any other file (a lesson, an instructor version, a student's work, a notebook from ``nbgrader
    generate_assignment``, something that is not a notebook) is False: release never replaces it.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "lesson.ipynb"
    >>> _ = path.write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    >>> made_by_release(path)
    False
    """
    try:
        nb = json.loads(Path(path).read_text(encoding="utf-8"))
        mark, cells = nb["metadata"][MARK], nb["cells"]
        return mark["made_by"] == _MADE_BY and mark["cells"] == _cells_digest(cells)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def holds_answers(path):
    """What in notebook ``path`` a release must not overwrite: ``"solutions"`` (a ``### BEGIN SOLUTION``
    region), ``"answers"`` (a solution cell that is not the cleared ``# YOUR CODE HERE`` stub), or None."""
    try:
        nb = json.loads(Path(path).read_text(encoding="utf-8"))
        cells = nb.get("cells", [])
    except (OSError, ValueError, AttributeError):
        return "something that is not a notebook"
    for cell in cells:
        src = cell.get("source", "")
        src = "".join(src) if isinstance(src, list) else str(src)
        if "### BEGIN SOLUTION" in src:
            return "solutions"
    for cell in cells:
        meta = (cell.get("metadata", {}) or {}).get("nbgrader", {}) or {}
        src = cell.get("source", "")
        src = "".join(src) if isinstance(src, list) else str(src)
        if meta.get("solution") and cell.get("cell_type") == "code" and "YOUR CODE HERE" not in src:
            return "answers"
    return None


def _targets(notebooks, src, dst, force):
    """Where each notebook goes; a ValueError (nothing written) if a target is the source, lies in the
    source folder, or exists and ``force`` is not given."""
    src, dst = Path(src).resolve(), Path(dst)
    single_file = dst.suffix == ".ipynb"
    if single_file and len(notebooks) > 1:
        raise ValueError(f"dst {str(dst)!r} is a notebook name, but src holds {len(notebooks)} notebooks")
    outs = [dst if single_file else dst / p.name for p in notebooks]
    folder = src if src.is_dir() else src.parent
    for path, out in zip(notebooks, outs):
        where = out.resolve()
        if where == path.resolve() or (src.is_dir() and (where.parent == folder or folder in where.parents)):
            raise ValueError(f"dst {str(dst)!r} is the source {str(src)!r} (or inside it): release never "
                             "writes into its source; give another folder")
    for out in outs:
        for parent in [out, *out.parents]:
            if parent.exists():
                if parent != out and not parent.is_dir():
                    raise ValueError(f"dst {str(dst)!r}: {str(parent)!r} is a file, not a folder")
                break
        if out.exists() and not out.is_file():
            raise ValueError(f"dst {str(out)!r} exists and is not a notebook file")
        held = holds_answers(out) if out.is_file() else None
        if held:
            raise ValueError(f"{str(out)!r} holds {held}: release never writes over a notebook with "
                             "solutions or a student's answers (not even with --force); move it away first")
        if out.is_file() and not made_by_release(out):
            raise ValueError(f"{str(out)!r} is not a student version release made (no release mark, or "
                             "changed since): release replaces only its own (not even with --force); move it "
                             "away first or give another dst")
    existing = [out for out in outs if out.exists()]
    if existing and not force:
        raise ValueError(f"{str(existing[0])!r} "
                         f"exists{f' (and {len(existing) - 1} more)' if len(existing) > 1 else ''}: release "
                         "does not overwrite without force=True (--force)")
    return outs


def release(src, dst, force=False):
    """Write the student version of assignment notebooks.

    Runs nbgrader's own preprocessors, in the order ``nbgrader
    generate_assignment`` runs them, without its gradebook: lock the
    read-only cells, replace every solution region by ``# YOUR CODE HERE``
    and ``raise NotImplementedError()`` (nbgrader's ``ClearSolutions``),
    clear outputs and the saved widget state, remove hidden tests and mark schemes, and record the
    checksums of the locked and test cells (so that ``nbgrader autograde``
    notices a changed test).

    Use ``nbgrader generate_assignment`` in a course set up with nbgrader;
    this function serves courses that hand out notebooks another way, and
    the tests.

    Parameters
    ----------
    src : path
        A notebook, or a folder of notebooks (all ``*.ipynb`` in it).
    dst : path
        A folder (created if needed); each notebook is written there under
        its own name. With a single notebook, ``dst`` may also be a file
        name ending in ``.ipynb``. Never the source, nor a folder inside it.
    force : bool
        Overwrite student versions that exist at ``dst`` and that release made, unchanged since (their
        metadata carries :data:`MARK`). Never any other file, not even with ``force``: the source, a
        lesson, an instructor version, a student's work.

    Returns
    -------
    list of pathlib.Path
        The notebooks written.

    Raises
    ------
    ValueError
        If ``src`` is not found or is neither a notebook nor a folder with
        notebooks; if ``dst`` is the source or inside its folder, lies under
        a file, or a file there exists and ``force`` is False, or is not a
        student version release made (unchanged since), or holds solutions
        or a student's answers (even with ``force``: nothing is written
        then); if a notebook has a solution region outside a solution cell;
        or if a question declared in it (``ga.question``) names an unknown
        kind, check or option (the message names it; nothing is written).
    """
    import nbformat

    try:
        import nbgrader  # noqa: F401
    except ImportError:
        raise ImportError("release() uses nbgrader's preprocessors: pip install nbgrader "
                          "(pip install -r requirements-instructor.txt)") from None
    from nbgrader.preprocessors import (
        CheckCellMetadata,
        ClearHiddenTests,
        ClearMarkScheme,
        ClearOutput,
        ClearSolutions,
        ComputeChecksums,
        LockCells,
    )

    if not isinstance(force, bool):
        raise TypeError(f"force must be True or False, got {force!r}")
    notebooks = _notebooks(src)
    outs = _targets(notebooks, src, dst, force)
    written = []
    prepared = []
    for path, out in zip(notebooks, outs):
        nb = nbformat.read(path, as_version=4)
        refused = problems([(c.get("metadata", {}).get("nbgrader", {}) or {}, c.source) for c in nb.cells
                            if c.cell_type == "code"])
        if refused:
            raise ValueError(f"{path.name}: {refused[0]}")
        resources = {}
        steps = (CheckCellMetadata(), LockCells(), ClearSolutions(), ClearOutput(), ClearHiddenTests(),
                 ClearMarkScheme(), ComputeChecksums(), CheckCellMetadata())
        for step in steps:
            try:
                nb, resources = step.preprocess(nb, resources)
            except RuntimeError as exc:
                raise ValueError(f"{path.name}: {exc}") from None
        nb.metadata.pop("widgets", None)  # the instructor's saved widget state: not the student's
        for cell in nb.cells:  # nor when the instructor's kernel ran each cell
            cell.metadata.pop("execution", None)
        nb.metadata[MARK] = {"made_by": _MADE_BY, "cells": _cells_digest(nb.cells)}  # see made_by_release
        prepared.append((nb, out))
    for nb, out in prepared:  # written only when every notebook was prepared
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, out)
        except OSError as exc:
            raise ValueError(f"cannot write {str(out)!r}: {exc.strerror or exc}") from None
        written.append(out)
    return written
