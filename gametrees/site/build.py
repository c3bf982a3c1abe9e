"""The course as a static website: :func:`build_site` (``python -m gametrees site OUT_DIR``).

What it writes into ``OUT_DIR``:

``index.html``
    The lesson map: every lesson ``notebooks/NN_*.ipynb`` in order, its title (the notebook's first
    heading) and what it teaches (the README's lesson table), and the assignments' downloads.
``NN_*.html``
    Each lesson as nbconvert's ``lab`` template shows it, with links to the previous and next lessons and
    to the index. The notebooks are read, never written: each is converted from a copy in memory, made
    *for readers* (:func:`gametrees.site.readers.for_readers`: no widget state, no widget views, so a
    replay shows its kernel-free player and a widget its picture). Links between lessons point at their
    pages.
``how-to-run.html``
    How to run the lessons for real: the README's command that opens them (its first ``jupyter lab``
    command), read from README.md at build time, and what a reader of the site cannot do without Python.
``downloads/*.ipynb``
    The assignments' student versions (``notebooks/assignments/``, copied byte for byte; never the
    instructor versions), refused if one holds an nbgrader solution region.
``mathjax/``
    MathJax 2.7 from the PyPI package ``jupyter-server-mathjax``: the parts the pages load (TeX input,
    HTML-CSS output with the STIX-Web font), so the maths is typeset with no network.
``site.css``, ``.gametrees-site.json``
    The site's style, and the list of files this build wrote (a later build recognises the folder as
    its own, replaces those files and removes the ones it no longer writes; nothing else is touched).

Nothing on a page is fetched from another host: the ``lab`` template's require.js, widget manager,
mermaid and CDN MathJax are left out or replaced (``templates/gametrees-lab/index.html.j2``).

Safety: ``OUT_DIR`` must be new, empty or an earlier build (else ``force=True``), and never the
notebooks' folder, a folder inside it, or one holding it.

May import: the standard library; nbformat, nbconvert and jinja2 inside functions only (the command
line's ``--help`` loads none of them).

Examples
--------
The lesson map and the README's command, as the index and the how-to page show them:

>>> lessons = course_lessons()
>>> [(lesson.name, lesson.title) for lesson in lessons[:2]]
[('00_start_here', '00 Start here'), ('01_game_trees', '01 Games and game trees')]
>>> readme_command().startswith("python3 -m venv .venv")
True
"""

from __future__ import annotations

import html
import json
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

__all__ = [
    "MARKER",
    "Assignment",
    "Lesson",
    "Page",
    "SiteReport",
    "build_site",
    "course_assignments",
    "course_lessons",
    "course_root",
    "readme_command",
]

#: The file that marks a folder as a site this command built (and lists what it wrote).
MARKER = ".gametrees-site.json"
_GENERATOR = "python -m gametrees site"
_LESSONS = "notebooks"
_LESSON_GLOB = "[0-9][0-9]_*.ipynb"
_ASSIGNMENTS = "notebooks/assignments"
_DOWNLOADS = "downloads"
_MATHJAX = "mathjax"
_CSS = "site.css"
_HOW_TO = "how-to-run.html"
_INDEX = "index.html"
#: nbgrader's markers of what a student version must not hold.
_SOLUTION_MARKERS = ("### BEGIN SOLUTION", "### BEGIN HIDDEN TESTS")
#: The parts of jupyter-server-mathjax's MathJax 2.7 that the pages load: the combined configuration,
#: the TeX input, the MathML element jax, the HTML-CSS output and its STIX-Web font (set in
#: templates/gametrees-lab/gt_site_mathjax.html.j2), the extensions the configuration names, English
#: messages. The 100+ other languages, the SVG output (its menu item is hidden) and the accessibility
#: explorer stay out.
_MATHJAX_PARTS = ("MathJax.js", "LICENSE", "config/TeX-AMS-MML_HTMLorMML-full.js", "config/Safe.js",
                  "jax/input", "jax/element", "jax/output/HTML-CSS", "fonts/HTML-CSS/STIX-Web",
                  "extensions", "localization/en")
_MATHJAX_LEFT_OUT = ("extensions/a11y",)
_MATHJAX_QUERY = "?config=TeX-AMS-MML_HTMLorMML-full,Safe"
_TEMPLATES = Path(__file__).resolve().parent / "templates"


@dataclass(frozen=True)
class Lesson:
    """One lesson of the map: ``name`` (file name without ``.ipynb``), ``title`` (its first heading),
    ``teaches`` (the README's words, as HTML), ``path`` (the notebook)."""

    name: str
    title: str
    teaches: str
    path: Path

    @property
    def href(self) -> str:
        return f"{self.name}.html"


@dataclass(frozen=True)
class Assignment:
    """One assignment's student version: ``title`` (its first heading), ``summary`` (its first paragraph,
    as HTML), ``path`` (the notebook in ``notebooks/assignments``)."""

    name: str
    title: str
    summary: str
    path: Path

    @property
    def href(self) -> str:
        return f"{_DOWNLOADS}/{self.path.name}"


@dataclass(frozen=True)
class Page:
    """A file the build wrote: ``path`` relative to the site, ``title``, ``kind`` (``"lesson"``,
    ``"index"``, ``"how-to"``, ``"download"``), ``size`` in bytes, ``seconds`` it took to make."""

    path: str
    title: str
    kind: str
    size: int
    seconds: float


@dataclass
class SiteReport:
    """What :func:`build_site` wrote: the pages and downloads, the MathJax files, the time taken."""

    out_dir: Path
    pages: list = field(default_factory=list)
    mathjax_files: int = 0
    mathjax_bytes: int = 0
    removed: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def total_bytes(self) -> int:
        return sum(p.size for p in self.pages) + self.mathjax_bytes

    def lines(self) -> list[str]:
        """The report as the command line prints it: one line per file, then the totals."""
        out = [f"wrote {self.out_dir / p.path}: {p.title}, {_size(p.size)}"
               + (f", {p.seconds:.1f} s" if p.kind == "lesson" else "") for p in self.pages]
        out.append(f"wrote {self.out_dir / _MATHJAX}/: MathJax, {self.mathjax_files} files, "
                   f"{_size(self.mathjax_bytes)}")
        if self.removed:
            files = "file" if len(self.removed) == 1 else "files"
            out.append(f"removed {len(self.removed)} {files} an earlier build wrote and this one does not: "
                       + ", ".join(self.removed[:5]) + (" ..." if len(self.removed) > 5 else ""))
        lessons = sum(p.kind == "lesson" for p in self.pages)
        downloads = sum(p.kind == "download" for p in self.pages)
        out.append(f"site: {lessons} lessons, {downloads} downloads, {_size(self.total_bytes)} in "
                   f"{self.seconds:.1f} s; open {self.out_dir / _INDEX}")
        return out


def _size(n: int) -> str:
    return f"{n / 1024:.1f} kB" if n < 1024 * 1024 else f"{n / 1024 / 1024:.1f} MB"


# ----------------------------------------------------------------------------------------------------
# The course: where it is, its lessons and assignments, the README's words
# ----------------------------------------------------------------------------------------------------


def course_root(root=None) -> Path:
    """The folder holding ``notebooks/`` and ``README.md``: ``root`` if given, else the checkout this
    package was loaded from, else the current folder.

    Raises
    ------
    ValueError
        If the folder holds no ``notebooks/`` folder or no ``README.md``.
    """
    candidates = [Path(root)] if root is not None else [Path(__file__).resolve().parents[2], Path.cwd()]
    for folder in candidates:
        if (folder / _LESSONS).is_dir() and (folder / "README.md").is_file():
            return folder.resolve()
    where = str(candidates[0]) if root is not None else "this gametrees checkout or the current folder"
    raise ValueError(f"no course found in {where}: the site is built from a folder holding notebooks/ "
                     "and README.md (the gametrees repository)")


def _readme(root) -> str:
    return (course_root(root) / "README.md").read_text(encoding="utf-8")


def readme_command(root=None) -> str:
    """The README's command that opens the lessons on a fresh machine: the first command in a ``bash``
    block that starts JupyterLab (``jupyter lab``).

    Raises
    ------
    ValueError
        If no ``bash`` block of README.md starts JupyterLab.
    """
    for block in re.findall(r"^```(?:bash|sh)\n(.*?)^```", _readme(root), re.DOTALL | re.MULTILINE):
        for line in block.splitlines():
            if re.search(r"\bjupyter[ -]lab\b", line.split("#")[0]):
                return line.strip()
    raise ValueError("README.md has no ```bash block that starts JupyterLab (jupyter lab ...): the how-to "
                     "page quotes the command that opens the lessons")


def _readme_teaches(root) -> dict:
    """The README's lesson table: notebook file name -> what it teaches (markdown)."""
    text = _readme(root)
    head = re.search(r"^\|\s*notebook\s*\|\s*what it teaches\s*\|\s*$", text, re.MULTILINE)
    if not head:
        raise ValueError("README.md has no lesson table (| notebook | what it teaches |): the index shows it")
    rows = {}
    for line in text[head.end():].lstrip("\n").splitlines()[1:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2:
            rows[cells[0].strip("`")] = " | ".join(cells[1:])
    return rows


def _read(path):
    import nbformat

    return nbformat.read(path, as_version=4)


def _heading_and_paragraph(nb, path) -> tuple[str, str]:
    """A notebook's first ``#`` heading and the paragraph after it (markdown)."""
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        lines = cell.source.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("# "):
                rest = "\n".join(lines[i + 1:]).strip().split("\n\n")[0]
                return line[2:].strip(), rest.strip()
    raise ValueError(f"{path}: no '# ' heading in any markdown cell: a page needs a title")


def _inline_html(markdown: str) -> str:
    """Markdown (a table cell, a paragraph) as HTML without the paragraph tags around it."""
    from nbconvert.filters import markdown2html

    out = markdown2html(markdown).strip()
    one_paragraph = out.startswith("<p>") and out.endswith("</p>") and out.count("<p>") == 1
    return out[3:-4].strip() if one_paragraph else out


def course_lessons(root=None) -> list:
    """The lessons ``notebooks/NN_*.ipynb`` in order, as :class:`Lesson` (title and what it teaches).

    Raises
    ------
    ValueError
        If there is no lesson, or the README's lesson table does not describe one of them.
    """
    root = course_root(root)
    teaches = _readme_teaches(root)
    paths = sorted((root / _LESSONS).glob(_LESSON_GLOB))
    if not paths:
        raise ValueError(f"no lessons ({_LESSONS}/{_LESSON_GLOB}) in {root}")
    lessons = []
    for path in paths:
        if path.name not in teaches:
            raise ValueError(f"README.md's lesson table has no row for {path.name}: the index takes what "
                             "each lesson teaches from it")
        title, _ = _heading_and_paragraph(_read(path), path)
        lessons.append(Lesson(path.stem, title, _inline_html(teaches[path.name]), path))
    return lessons


def course_assignments(root=None) -> list:
    """The assignments' student versions ``notebooks/assignments/*.ipynb``, as :class:`Assignment`.

    Raises
    ------
    ValueError
        If one holds an nbgrader solution region or hidden tests (an instructor version).
    """
    root = course_root(root)
    found = []
    for path in sorted((root / _ASSIGNMENTS).glob("*.ipynb")):
        nb = _read(path)
        for cell in nb.cells:
            marker = next((m for m in _SOLUTION_MARKERS if m in cell.source), None)
            if marker:
                raise ValueError(f"{path} holds {marker!r}: it is an instructor version, not a student "
                                 "version; the site never publishes solutions")
        title, paragraph = _heading_and_paragraph(nb, path)
        found.append(Assignment(path.stem, title, _inline_html(paragraph), path))
    return found


# ----------------------------------------------------------------------------------------------------
# Where the site goes (Nothing is lost)
# ----------------------------------------------------------------------------------------------------


def _earlier_build(out_dir: Path):
    """The files an earlier build listed in ``out_dir``'s marker, or None if it is no site of ours."""
    marker = out_dir / MARKER
    if not marker.is_file():
        return None
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("generator") != _GENERATOR:
        return None
    if not isinstance(data.get("files"), list):
        return None
    return [f for f in data["files"] if isinstance(f, str)]


def _check_target(out_dir: Path, root: Path, force: bool):
    """Refuse a target that would lose something; returns the files an earlier build wrote (or [])."""
    notebooks = (root / _LESSONS).resolve()
    target = out_dir.resolve()
    if target == notebooks or notebooks in target.parents:
        raise ValueError(f"{out_dir} is inside {notebooks}: the site is built from the notebooks and never "
                         "writes among them; give a folder outside it")
    if target in notebooks.parents:
        raise ValueError(f"{out_dir} holds the notebooks the site is built from ({notebooks}); give a new "
                         "or empty folder, such as site/")
    if target.exists() and not target.is_dir():
        raise ValueError(f"{out_dir} exists and is not a folder")
    earlier = _earlier_build(target) if target.is_dir() else None
    if earlier is not None:
        return earlier
    if target.is_dir() and any(target.iterdir()) and not force:
        raise ValueError(f"{out_dir} is not empty and is not a site built by this command (no {MARKER}): "
                         "give a new or empty folder, or --force to write into it")
    return []


# ----------------------------------------------------------------------------------------------------
# Building
# ----------------------------------------------------------------------------------------------------


def _mathjax_source() -> Path:
    try:
        import jupyter_server_mathjax
    except ImportError:
        raise ValueError("the site's maths needs MathJax from the package jupyter-server-mathjax: "
                         "pip install -r requirements-instructor.txt") from None
    return Path(jupyter_server_mathjax.__file__).resolve().parent / "static"


def _mathjax_files(source: Path) -> list:
    """The MathJax files the site carries (see :data:`_MATHJAX_PARTS`), relative to ``source``."""
    files = []
    for part in _MATHJAX_PARTS:
        path = source / part
        if path.is_file():
            files.append(Path(part))
        elif path.is_dir():
            files.extend(p.relative_to(source) for p in sorted(path.rglob("*")) if p.is_file())
        else:
            raise ValueError(f"jupyter-server-mathjax has no {part} ({source}): a MathJax 2.7 is needed")
    return [f for f in files if not any(f.as_posix().startswith(x + "/") for x in _MATHJAX_LEFT_OUT)]


def _exporter():
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="gametrees-lab", extra_template_basedirs=[str(_TEMPLATES)])
    # Belt and braces: the template leaves these out; were a block to come back, it would name no host.
    exporter.require_js_url = ""
    exporter.jupyter_widgets_base_url = ""
    exporter.widget_renderer_url = ""
    exporter.mermaid_js_url = ""
    exporter.mathjax_url = f"{_MATHJAX}/MathJax.js{_MATHJAX_QUERY}"
    return exporter


def _lesson_links(page: str, lessons, assignments) -> str:
    """Links in a lesson to another lesson's notebook point at its page; to an assignment, its download."""
    targets = {f"{lesson.name}.ipynb": lesson.href for lesson in lessons}
    targets.update({f"assignments/{a.path.name}": a.href for a in assignments})

    def swap(match):
        return f'href="{targets.get(html.unescape(match.group(1)), match.group(1))}{match.group(2) or ""}"'

    return re.sub(r'href="([^"#?]+\.ipynb)(#[^"]*)?"', swap, page)


def _lesson_page(exporter, lesson, previous, following, lessons, assignments) -> str:
    from .readers import for_readers

    nb = for_readers(_read(lesson.path))  # a copy in memory: the notebook itself is never written
    nb.metadata["title"] = f"{lesson.title} · gametrees"
    nav = {"index": _INDEX, "css": _CSS, "mathjax": exporter.mathjax_url,
           "previous": previous and {"href": previous.href, "title": previous.title},
           "next": following and {"href": following.href, "title": following.title}}
    resources = {"metadata": {"name": lesson.title, "path": str(lesson.path.parent)}, "gt_site": nav}
    body, _ = exporter.from_notebook_node(nb, resources=resources)
    return _lesson_links(body, lessons, assignments)


def _pages_env():
    import jinja2

    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(_TEMPLATES)), autoescape=True,
                              undefined=jinja2.StrictUndefined)


def _check_paths(out_dir: Path, rels, notebooks: Path):
    """Refuse (before anything is written) a file of the site that a symbolic link would put outside
    ``out_dir`` or among the notebooks."""
    base = out_dir.resolve()
    for rel in rels:
        path = (out_dir / rel).resolve()
        if path == notebooks or notebooks in path.parents or base not in path.parents:
            raise ValueError(f"{out_dir / rel} leads to {path} (a symbolic link): the site writes only "
                             f"inside {out_dir}, never among the notebooks; remove the link or give "
                             "another folder")


def _write(out_dir: Path, files) -> list:
    """Write ``files`` ((relative path, bytes) pairs) into ``out_dir``; return their sizes."""
    sizes = []
    for rel, data in files:
        path = out_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        sizes.append(len(data))
    return sizes


def build_site(out_dir, *, root=None, force=False) -> SiteReport:
    """Build the course as a static website in ``out_dir`` (see the module's docstring for what it holds).

    Parameters
    ----------
    out_dir : str or Path
        The site's folder: new, empty, or a site built here before (its files are replaced, and the
        ones this build no longer writes are removed; nothing else is touched).
    root : str or Path, optional
        The course's folder (``notebooks/`` and ``README.md``); by default this checkout's.
    force : bool, default False
        Write into a folder that is not empty and not an earlier build (files of the same name are
        replaced). Never allowed inside ``notebooks/``.

    Returns
    -------
    SiteReport
        Every file written with its size (and each lesson's conversion time), the MathJax files, the
        build's time.

    Raises
    ------
    ValueError
        A target that would lose something, a notebook without a title, a lesson missing from the
        README's table, an assignment holding solutions, MathJax not installed. Nothing is written then.

    Examples
    --------
    About 10 s on two cores (tests/test_site.py builds it and opens it in Chromium):

    >>> report = build_site("site")  # doctest: +SKIP
    >>> print("\\n".join(report.lines()))  # doctest: +SKIP
    wrote site/index.html: the lesson map, 4.1 kB
    wrote site/00_start_here.html: 00 Start here, 412.0 kB, 0.9 s
    ...
    """
    t0 = time.perf_counter()
    root = course_root(root)
    out_dir = Path(out_dir)
    earlier = _check_target(out_dir, root, force)
    # Everything is read and converted before anything is written: a failure leaves the folder as it was.
    lessons = course_lessons(root)
    assignments = course_assignments(root)
    command = readme_command(root)
    mathjax_source = _mathjax_source()
    mathjax = _mathjax_files(mathjax_source)
    exporter = _exporter()
    converted = []
    for i, lesson in enumerate(lessons):
        t = time.perf_counter()
        previous = lessons[i - 1] if i else None
        following = lessons[i + 1] if i + 1 < len(lessons) else None
        page = _lesson_page(exporter, lesson, previous, following, lessons, assignments)
        converted.append((lesson, page, time.perf_counter() - t))

    from .. import __version__

    env = _pages_env()
    how_to_title = "How to run the lessons"
    common = {"css": _CSS, "version": __version__}
    downloads = [(a, a.path.read_bytes()) for a in assignments]
    css = (_TEMPLATES / _CSS).read_bytes()
    index = env.get_template("pages/index.html.j2").render(
        title="gametrees: the lessons", lessons=lessons, how_to={"href": _HOW_TO, "title": how_to_title},
        assignments=[{"href": a.href, "title": a.title, "name": a.path.name, "summary": a.summary,
                      "size": _size(len(data))} for a, data in downloads], **common)
    how_to = env.get_template("pages/how-to-run.html.j2").render(
        title=how_to_title, command=command, index=_INDEX, first_lesson=lessons[0].path.name, **common)

    report = SiteReport(out_dir)
    files = [(_INDEX, index.encode("utf-8"))]
    report.pages.append(Page(_INDEX, "the lesson map", "index", 0, 0.0))
    for lesson, page, seconds in converted:
        files.append((lesson.href, page.encode("utf-8")))
        report.pages.append(Page(lesson.href, lesson.title, "lesson", 0, seconds))
    files.append((_HOW_TO, how_to.encode("utf-8")))
    report.pages.append(Page(_HOW_TO, how_to_title, "how-to", 0, 0.0))
    for assignment, data in downloads:
        files.append((assignment.href, data))
        title = f"{assignment.title} (student version)"
        report.pages.append(Page(assignment.href, title, "download", 0, 0.0))
    report.pages = [replace(page, size=len(data)) for page, (_, data) in zip(report.pages, files)]
    files.append((_CSS, css))
    for rel in mathjax:
        data = (mathjax_source / rel).read_bytes()
        files.append((f"{_MATHJAX}/{rel.as_posix()}", data))
        report.mathjax_files += 1
        report.mathjax_bytes += len(data)
    _check_paths(out_dir, [rel for rel, _ in files] + [MARKER], (root / _LESSONS).resolve())

    out_dir.mkdir(parents=True, exist_ok=True)
    _write(out_dir, files)
    written = {rel for rel, _ in files}
    report.removed = _remove_stale(out_dir, earlier, written)
    (out_dir / MARKER).write_text(json.dumps({"generator": _GENERATOR, "version": __version__,
                                              "files": sorted(written)}, indent=1), encoding="utf-8")
    report.seconds = time.perf_counter() - t0
    return report


def _remove_stale(out_dir: Path, earlier, written: set) -> list:
    """Remove the files an earlier build wrote that this one did not (only those; then empty folders)."""
    removed = []
    base = out_dir.resolve()
    for rel in sorted(set(earlier) - written):
        path = (base / rel).resolve()
        if base not in path.parents or not path.is_file():
            continue  # a marker edited by hand: never reach outside the site
        path.unlink()
        removed.append(rel)
        parent = path.parent
        while parent != base and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent
    return removed
