"""Animations for slides: :func:`animate` writes the replay of a search as a GIF (or an MP4).

One frame per event of the trace, the event's sentence as the caption, the
same drawing as the notebook replay (:class:`gametrees.drawing.Drawing`).
GIFs are written with Pillow (which comes with matplotlib), MP4s with ffmpeg
when it is installed.

This module may import matplotlib, Pillow, :mod:`gametrees.search`,
:mod:`gametrees.trace`, :mod:`gametrees.drawing` and the other modules of
:mod:`gametrees.exports`.
"""

from __future__ import annotations

import io
import math
import numbers

import numpy as np
from matplotlib import animation
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from ..drawing import Drawing, setup_axes
from ..search import SearchResult
from ..trace import frames
from . import FPS_RANGE
from .files import ANIMATION_FORMATS, MARK, AtomicFile, check_overwrite, check_target
from .flavours import matplotlib_text

__all__ = ["animate"]

#: The longest a GIF shows its last frame, in seconds (a frame's duration is a 16-bit count of 1/100 s).
MAX_HOLD = 600.0

def animate(result, path, *, fps=1.0, dpi=150, max_width=1600, caption=True, max_frames=1000, hold=3.0,
            force=False, **options):
    """Write the replay of a search as an animated GIF (or MP4): one frame per event.

    Each frame is the notebook's drawing of the search after one event of
    the trace (``gt.draw(result, k=...)``) with the event's sentence as the
    caption ("Step 11 of 26: Go down from A to C, ..."). For slides: put the
    GIF on a slide, or the MP4 where a presentation program wants video.

    Parameters
    ----------
    result : SearchResult
        A search with a trace (``trace=True``; the default on trees).
    path : str or pathlib.Path
        ``.gif`` (Pillow, which comes with matplotlib) or ``.mp4`` (needs
        ffmpeg on the PATH). The folder must exist.
    fps : float
        Frames (events) per second, ``0.01 <= fps <= 50``
        (:data:`~gametrees.exports.FPS_RANGE`). Default 1: a step a
        second, slow enough to read the caption along.
    dpi : float
        Dots per inch of the frames. Lowered when a frame would be wider
        than ``max_width`` pixels.
    max_width : int
        The widest a frame may be, in pixels (default 1600: a full-HD slide).
    caption : bool
        Write the event's sentence above each frame.
    max_frames : int
        Refuse (ValueError) a trace of more events than this: a search that
        long is no animation for a slide (search a smaller tree, or use
        ``trace_depth=``).
    hold : float
        GIF only: the last frame (the finished search) stays at least this
        many seconds (at most 600) before the animation loops.
    force : bool
        Replace an existing file that no export wrote. Without it, an
        existing ``path`` is replaced only if an earlier export wrote it.
    **options
        Passed to the drawing (as in :func:`gametrees.draw`): ``boards``,
        ``labels``, ``moves``, ``windows``, ``legend``, ``values``,
        ``max_depth``, ``max_children``, ``nodes``, ``max_nodes``.

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    ValueError
        A result without a trace ("search with trace=True"), an unknown
        suffix, a bad ``fps``, too many events.
    RuntimeError
        ``.mp4`` without ffmpeg installed.
    FileNotFoundError, NotADirectoryError, PermissionError
        The folder is missing or not writable (the message names the path).
    FileExistsError
        ``path`` exists, no export wrote it, and ``force`` is False.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from PIL import Image
    >>> import gametrees as gt
    >>> r = gt.alphabeta(gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    >>> gif = gt.animate(r, pathlib.Path(tempfile.mkdtemp()) / "alphabeta.gif", fps=2)
    >>> with Image.open(gif) as im:
    ...     im.n_frames == len(r.trace), im.width <= 1600
    (True, True)
    >>> gt.animate(gt.alphabeta(gt.TicTacToe()), "never.gif")
    Traceback (most recent call last):
    ...
    ValueError: this alphabeta result has no trace to animate: search with trace=True
    """
    _check_options(result, fps, dpi, max_width, max_frames, hold, caption, options)
    target, suffix = check_target(path, ANIMATION_FORMATS, "animate")
    check_overwrite(target, force)
    writer = _writer(target, suffix, fps, hold)
    movie = _Movie(result, caption=caption, dpi=dpi, max_width=max_width, **options)
    with AtomicFile(target) as tmp:
        with writer.saving(movie.figure, str(tmp), movie.dpi):
            for k in range(len(result.trace)):
                movie.show(k)
                writer.grab_frame(facecolor="white")
    return target


def _check_options(result, fps, dpi, max_width, max_frames, hold, caption, options):
    """Refuse a result without a trace, an option out of range, or a trace longer than ``max_frames``."""
    if not isinstance(result, SearchResult):
        raise TypeError(f"animate expects a SearchResult (e.g. gt.alphabeta(tree)), "
                        f"got {type(result).__name__}")
    if result.trace is None or result.graph is None:
        raise ValueError(f"this {result.algorithm} result has no trace to animate: search with trace=True")
    for bad in ("ax", "k", "tree", "title"):
        if bad in options:
            raise TypeError(f"animate draws its own frames: {bad}= is not an option here (caption= is)")
    low, high = FPS_RANGE
    if isinstance(fps, bool) or not isinstance(fps, numbers.Real):
        raise TypeError(f"fps must be a number of frames per second in {low:g}..{high:g}, got {fps!r}")
    if not low <= fps <= high:
        raise ValueError(f"fps must be a number of frames per second in {low:g}..{high:g} "
                         f"(a step at most every {1 / low:g} s), got {fps!r}")
    if isinstance(dpi, bool) or not isinstance(dpi, numbers.Real) or not 20 <= dpi <= 600:
        raise ValueError(f"dpi must be a number of dots per inch in 20..600, got {dpi!r}")
    if isinstance(max_width, bool) or not isinstance(max_width, numbers.Integral) or max_width < 200:
        raise ValueError(f"max_width must be a number of pixels >= 200, got {max_width!r}")
    if isinstance(max_frames, bool) or not isinstance(max_frames, numbers.Integral) or max_frames < 1:
        raise ValueError(f"max_frames must be an int >= 1, got {max_frames!r}")
    if isinstance(hold, bool) or not isinstance(hold, numbers.Real) or not 0 <= hold <= MAX_HOLD:
        raise ValueError(f"hold must be a number of seconds in 0..{MAX_HOLD:g} (a GIF shows a frame "
                         f"at most {MAX_HOLD:g} s), got {hold!r}")
    if not isinstance(caption, bool):
        raise TypeError(f"caption must be True or False, got {caption!r}")
    if len(result.trace) > max_frames:
        raise ValueError(
            f"the trace has {len(result.trace)} events, more than max_frames={max_frames}: an animation "
            "that long is no use on a slide; search a smaller tree (or with trace_depth=), "
            "or raise max_frames"
        )


def _writer(target, suffix, fps, hold):
    """The matplotlib writer of an ``.mp4`` (ffmpeg) or a ``.gif``."""
    if suffix == ".mp4":
        if not animation.writers.is_available("ffmpeg"):
            raise RuntimeError(
                f"cannot write {str(target)!r}: MP4 needs ffmpeg, which is not installed (not on the PATH); "
                "write a .gif instead, or install ffmpeg"
            )
        return animation.FFMpegWriter(fps=fps, codec="h264", extra_args=["-pix_fmt", "yuv420p"],
                                      metadata={"comment": MARK})
    return _GifWriter(fps=fps, hold=hold)


class _Movie:
    """One figure for every frame of a search; :meth:`show` paints frame k onto it."""

    def __init__(self, result, *, caption, dpi, max_width, **options):
        self.trace = result.trace
        self.frames = frames(self.trace)
        # (MCTS on a tree: the whole tree, so that the playouts below the grown part show.)
        tree = getattr(result, "replay_tree", None) or result.graph
        self.drawing = drawing = Drawing(tree, framed=True, **options)
        n = len(self.trace)
        # The same geometry for every frame: the one with the longest caption (wrapped).
        self.captions = []
        geom = None
        lines = -1
        for fr in self.frames:
            text = f"Step {fr.k + 1} of {n}: {fr.text}" if caption else None
            g, wrapped = drawing.geometry(text)
            self.captions.append(wrapped)
            count = wrapped.count("\n") + 1 if wrapped else 0
            if count > lines:
                geom, lines = g, count
        self.geom = geom
        # Whole pixels, even ones (video codecs want even sizes), at most max_width wide.
        self.dpi = min(float(dpi), max_width / geom.width)
        w_px = max(2, int(geom.width * self.dpi) // 2 * 2)
        h_px = max(2, int(math.ceil(geom.height * self.dpi / 2)) * 2)
        # (+0.5: matplotlib floors inches x dpi; a hair over the whole pixel floors to it exactly)
        self.figure = Figure(figsize=((w_px + 0.5) / self.dpi, (h_px + 0.5) / self.dpi), dpi=self.dpi,
                             facecolor="white")
        FigureCanvasAgg(self.figure)
        self.size = (w_px, h_px)
        self.ax = self.figure.add_axes((0.0, 0.0, 1.0, geom.axes_h * self.dpi / (h_px + 0.5)))
        setup_axes(self.ax, geom)
        self._background()
        self.artists = []

    def _background(self):
        """The legend (the same in every frame, and half the cost of drawing one) as a picture.

        It is drawn once, at the frames' dpi, and kept as a figure image
        under the tree: every frame then draws only the tree and its caption.
        """
        extra = {"current", "todo"} | ({"window"} if any(e.alpha is not None for e in self.trace) else set())
        static = self.drawing.paint_legend(self.ax, self.geom, extra=extra)
        if not static:
            return
        canvas = self.figure.canvas
        canvas.draw()
        pixels = np.asarray(canvas.buffer_rgba()).copy()
        for artist in static:
            artist.remove()
        self.figure.figimage(pixels, 0, 0, origin="upper", zorder=-1, resize=False)

    def show(self, k):
        for artist in self.artists:
            artist.remove()
        fr = self.frames[k]
        self.artists = self.drawing.paint(self.ax, self.geom, self.drawing.scene(fr), None, legend=False)
        text = self.captions[k]
        self.ax.set_title(matplotlib_text(text) or "", fontsize=10, loc="left", x=0.012, ha="left")


class _GifWriter(animation.PillowWriter):
    """PillowWriter that keeps frames small: palette images, and a longer last frame.

    Frames are line art: 128 colours hold them (antialiasing included), a
    palette frame takes a quarter of the memory of an RGBA one, and Pillow
    then stores only the rectangle that changed from one frame to the next.
    """

    def __init__(self, *args, hold=0.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.hold = hold

    def grab_frame(self, **savefig_kwargs):
        buf = io.BytesIO()
        self.fig.savefig(buf, **{**savefig_kwargs, "format": "rgba", "dpi": self.dpi})
        im = Image.frombuffer("RGBA", self.frame_size, buf.getbuffer(), "raw", "RGBA", 0, 1)
        self._frames.append(im.convert("RGB").quantize(colors=128, method=Image.Quantize.FASTOCTREE,
                                                       dither=Image.Dither.NONE))

    def finish(self):
        if not self._frames:
            return
        step = int(round(1000 / self.fps))
        durations = [step] * len(self._frames)
        durations[-1] = max(step, int(round(1000 * self.hold)))
        self._frames[0].save(self.outfile, format="GIF", save_all=True, append_images=self._frames[1:],
                             duration=durations, loop=0, comment=MARK.encode("ascii"))
