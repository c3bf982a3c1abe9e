"""The course as a static website (``python -m gametrees site OUT_DIR``).

``build``    :func:`build_site`: every lesson as a page in order, the lesson map as the index, the
             assignments' student versions as downloads, a page on how to run the lessons, and a
             self-hosted MathJax; nothing on a page is fetched from another host.

May import: the standard library at module level; nbformat, nbconvert and jinja2 inside functions.
"""

from .build import SiteReport, build_site

__all__ = ["SiteReport", "build_site"]
