"""Instructor exports: searches as animations for slides, trees as figures for exam papers.

=================  ===========================================================
``animations``     :func:`animate`: the replay of a search as a GIF or an MP4
``figures``        :func:`export`: a tree as a question or an answer, as SVG,
                   PDF, PNG, or TikZ (``.tex`` / ``.tikz``)
``tikz``           :func:`to_tikz`: the TikZ source as a string
``flavours``       question or answer: which tree, which search, which words
``files``          the formats, path checks, files written whole or not at all
=================  ===========================================================

:data:`ALGORITHMS` names the searches an answer can run;
:data:`FIGURE_FORMATS` and :data:`ANIMATION_FORMATS` the suffixes written;
:data:`FPS_RANGE` the frames per second an animation may have.
These come from ``files`` and ``flavours``, which do not load matplotlib (the
command line reads them to answer ``--help``); :func:`animate`,
:func:`export` and :func:`to_tikz` load their modules, and with them
matplotlib, the first time they are used.

This package may import every layer below it (games, trees, search, trace,
drawing).
"""

from importlib import import_module

from .files import ANIMATION_FORMATS, FIGURE_FORMATS
from .flavours import ALGORITHMS

#: The least and the most frames per second of an animation: a GIF holds a frame at most 655 s
#: (its durations are 16-bit counts of 1/100 s), and a slide's step is at most 100 s.
FPS_RANGE = (0.01, 50.0)

# The functions whose modules import matplotlib: loaded on first use.
_LAZY = {
    "animate": "gametrees.exports.animations",
    "export": "gametrees.exports.figures",
    "to_tikz": "gametrees.exports.tikz",
}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'gametrees.exports' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


__all__ = ["ALGORITHMS", "ANIMATION_FORMATS", "FIGURE_FORMATS", "FPS_RANGE", "animate", "export", "to_tikz"]
