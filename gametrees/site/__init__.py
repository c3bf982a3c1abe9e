"""The course as a static website, and the notebooks as stored for readers without a kernel.

``readers``   :func:`for_readers`: a notebook without widget views or widget state
``build``     :func:`build_site` (``python -m gametrees site OUT_DIR``): every lesson as a page in
              order, the lesson map as the index, the assignments' student versions as downloads, a
              page on how to run the lessons, and a self-hosted MathJax; nothing on a page is fetched
              from another host.

May import: the standard library at module level; nbformat, nbconvert and jinja2 inside functions
(``readers`` imports nbconvert: it is loaded only where notebooks are converted).
"""

from .build import SiteReport, build_site

__all__ = ["SiteReport", "build_site"]
