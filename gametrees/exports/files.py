"""Files an export writes: the formats, checks before working, and whole files only.

Files are written only where they are told to go: a relative path is taken
from the current working folder, and a missing folder is an error (nothing
creates folders behind your back). A file is written whole or not at all: it
is first written beside its destination under a temporary name, then moved
into place (:class:`AtomicFile`), so a failed export never leaves half a file
or clobbers an older one. :func:`check_target` checks a path before any work
is done (the command line checks every path before writing the first).

Every file an export writes carries :data:`MARK` (in a TikZ comment, or in
the SVG/PDF/PNG/GIF/MP4 metadata), so :func:`is_own_output` can tell a file
that an earlier export wrote, which :func:`export`, :func:`animate` and the
command line overwrite, from any other file, which they overwrite only with
``force=True`` (``--force``): :func:`check_overwrite`.

This module imports the standard library only (no matplotlib): the command
line reads the formats from here to answer ``--help`` quickly.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["ANIMATION_FORMATS", "FIGURE_FORMATS", "MARK", "AtomicFile", "check_overwrite", "check_target",
           "is_own_output"]

#: Suffixes :func:`export` writes, and what each is.
FIGURE_FORMATS = {
    ".svg": "SVG (matplotlib)",
    ".pdf": "PDF (matplotlib)",
    ".png": "PNG (matplotlib)",
    ".tex": "a standalone LaTeX document with a TikZ picture",
    ".tikz": "a bare TikZ picture (tikzpicture environment)",
}
#: Suffixes :func:`animate` writes.
ANIMATION_FORMATS = {
    ".gif": "animated GIF (Pillow)",
    ".mp4": "MP4 video (needs ffmpeg)",
}

#: The words every exported file carries (see :func:`is_own_output`).
MARK = "drawn by gametrees"


# ----------------------------------------------------------------------------
# Paths: check before working, write whole files only
# ----------------------------------------------------------------------------


def check_target(path, formats, what):
    """``path`` as a Path with its lower-case suffix, checked: known format, writable folder."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file name (str or pathlib.Path), got {type(path).__name__}")
    path = Path(path)
    suffix = path.suffix.lower()
    supported = ", ".join(formats)
    if not suffix:
        raise ValueError(f"{str(path)!r} has no suffix: {what} writes {supported} (chosen by the suffix)")
    if suffix not in formats:
        raise ValueError(f"unknown format {suffix!r} for {str(path)!r}: {what} writes {supported}")
    folder = path.parent
    if not folder.exists():
        raise FileNotFoundError(
            f"cannot write {str(path)!r}: the folder {str(folder)!r} does not exist "
            "(create it first; export does not create folders)"
        )
    if not folder.is_dir():
        raise NotADirectoryError(f"cannot write {str(path)!r}: {str(folder)!r} is not a folder")
    if path.is_dir():
        raise IsADirectoryError(f"cannot write {str(path)!r}: it is a folder")
    if path.exists() and not path.is_file():
        raise ValueError(f"cannot write {str(path)!r}: it exists and is not a regular file "
                         "(a pipe, a device or a socket); give a file name")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(f"cannot write {str(path)!r}: the folder {str(folder)!r} is not writable")
    if path.exists() and not os.access(path, os.W_OK):
        raise PermissionError(f"cannot write {str(path)!r}: the file exists and is read-only")
    return path, suffix


def is_own_output(path, window=65536):
    """True if the file ``path`` was written by an export (it carries :data:`MARK`).

    Looks for the mark in the first and the last ``window`` bytes (metadata sits
    at the start of a TikZ, SVG, PNG or GIF file and at the end of a PDF or an
    MP4). A missing or unreadable file, or anything but a regular file, is not
    an export's output.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "notes.tex").write_text("my exam")
    >>> is_own_output(folder / "notes.tex")
    False
    >>> _ = (folder / "tree.tex").write_text(f"% A game tree {MARK} 1.0")
    >>> is_own_output(folder / "tree.tex")
    True
    """
    path = Path(path)
    mark = MARK.encode("ascii")
    try:
        if not path.is_file():
            return False
        with open(path, "rb") as file:
            head = file.read(window)
            size = file.seek(0, os.SEEK_END)
            tail = b""
            if size > window:
                file.seek(max(window, size - window))
                tail = file.read(window)
    except OSError:
        return False
    return mark in head or mark in tail


def check_overwrite(path, force, option="force=True"):
    """Refuse, with a FileExistsError naming ``path`` and ``option``, to replace an existing file that no
    export wrote (see :func:`is_own_output`), unless ``force``.

    >>> import tempfile, pathlib
    >>> notes = pathlib.Path(tempfile.mkdtemp()) / "notes.tex"
    >>> _ = notes.write_text("my exam")
    >>> check_overwrite(notes, force=False)
    Traceback (most recent call last):
    ...
    FileExistsError: '...notes.tex' exists and was not written by an export: give force=True ...
    >>> check_overwrite(notes, force=True)
    """
    if not isinstance(force, bool):
        raise TypeError(f"force must be True or False, got {force!r}")
    if not force and os.path.lexists(path) and not is_own_output(path):
        raise FileExistsError(f"{str(path)!r} exists and was not written by an export: give {option} to "
                              "overwrite it, or another path")


class AtomicFile:
    """A temporary file beside ``path`` that replaces ``path`` only when writing succeeded.

    >>> with AtomicFile(path) as tmp:   # doctest: +SKIP
    ...     tmp.write_text(source)       # ``path`` appears only if this succeeds

    An error while writing names ``path``, the file the user asked for, never
    the temporary file.
    """

    def __init__(self, path):
        self.path = path

    def _error(self, error):
        """``error`` (an OSError) again, naming the file asked for instead of the temporary one."""
        reason = error.strerror or str(error)
        return type(error)(error.errno, f"cannot write {str(self.path)!r}: {reason}")

    def __enter__(self):
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.stem}.", suffix=f".partial{self.path.suffix}",
                                       dir=self.path.parent)
        except OSError as error:
            raise self._error(error) from None
        os.close(fd)
        self.tmp = Path(tmp)
        return self.tmp

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            try:
                os.chmod(self.tmp, 0o666 & ~_umask())
                os.replace(self.tmp, self.path)
            except OSError as error:
                self.tmp.unlink(missing_ok=True)
                raise self._error(error) from None
            return False
        self.tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.filename is not None and str(exc.filename) == str(self.tmp):
            raise self._error(exc) from None
        return False


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask
