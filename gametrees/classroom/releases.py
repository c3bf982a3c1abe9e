"""Student versions of the assignments: :func:`release` (nbgrader's own preprocessors, no database).

May import: the standard library; nbgrader and nbformat inside functions only.
"""

from __future__ import annotations

from pathlib import Path

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
    if src.suffix != ".ipynb" or not src.exists():
        raise ValueError(f"src must be a notebook (.ipynb) or a folder of notebooks, got {str(src)!r}")
    return [src]


def release(src, dst):
    """Write the student version of assignment notebooks.

    Runs nbgrader's own preprocessors, in the order ``nbgrader
    generate_assignment`` runs them, without its gradebook: lock the
    read-only cells, replace every solution region by ``# YOUR CODE HERE``
    and ``raise NotImplementedError()`` (nbgrader's ``ClearSolutions``),
    clear outputs, remove hidden tests and mark schemes, and record the
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
        name ending in ``.ipynb``.

    Returns
    -------
    list of pathlib.Path
        The notebooks written.

    Raises
    ------
    ValueError
        If ``src`` is neither a notebook nor a folder with notebooks, or a
        notebook has a solution region outside a solution cell.
    """
    import nbformat

    try:
        import nbgrader  # noqa: F401
    except ImportError:
        raise ImportError("release() uses nbgrader's preprocessors: pip install nbgrader "
                          "(it is in requirements.txt)") from None
    from nbgrader.preprocessors import (
        CheckCellMetadata,
        ClearHiddenTests,
        ClearMarkScheme,
        ClearOutput,
        ClearSolutions,
        ComputeChecksums,
        LockCells,
    )

    notebooks = _notebooks(src)
    dst = Path(dst)
    single_file = dst.suffix == ".ipynb"
    if single_file and len(notebooks) > 1:
        raise ValueError(f"dst {str(dst)!r} is a notebook name, but src holds {len(notebooks)} notebooks")
    written = []
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        resources = {}
        steps = (CheckCellMetadata(), LockCells(), ClearSolutions(), ClearOutput(), ClearHiddenTests(),
                 ClearMarkScheme(), ComputeChecksums(), CheckCellMetadata())
        for step in steps:
            try:
                nb, resources = step.preprocess(nb, resources)
            except RuntimeError as exc:
                raise ValueError(f"{path.name}: {exc}") from None
        out = dst if single_file else dst / path.name
        out.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, out)
        written.append(out)
    return written
