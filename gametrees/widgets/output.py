"""What every widget shows: its figure as a PNG, and a static output where widgets do not run.

Widgets draw on their own matplotlib Figure (:func:`new_figure`, never
pyplot), send it to the browser as PNG bytes (:func:`render_png`), and add a
PNG and a plain-text summary to their output (:func:`bundle_with_png`) for
GitHub, nbviewer and static HTML exports, where no widget front end runs.

:func:`page_note` is the last child of every widget (drawn on top): the widgets' small
style sheet, and the line "Run the cell to use the controls" that shows only
where the controls cannot work (a notebook reopened without running it, a
stopped kernel: ipywidgets marks such views ``jupyter-widgets-disconnected``).

This module may import matplotlib, Pillow and ipywidgets; it knows nothing of game trees.
"""

from __future__ import annotations

import base64
import html
import io

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["OFFLINE_NOTE", "bundle_with_png", "new_figure", "page_note", "render_png"]


# ----------------------------------------------------------------------------
# Rendering a matplotlib Figure to PNG bytes (fast, no pyplot)
# ----------------------------------------------------------------------------


def render_png(fig, draw=True) -> bytes:
    """The figure as PNG bytes, fast and small.

    Agg renders (unless ``draw=False``: the canvas holds the picture already);
    the image is reduced to a palette of 96 colours (line art with
    antialiasing needs no more; it halves the encoding time and makes the PNG
    3x smaller to send to the browser) and lightly compressed.
    """
    from PIL import Image

    canvas = fig.canvas
    if draw:
        canvas.draw()
    w, h = canvas.get_width_height(physical=True)
    image = Image.frombuffer("RGBA", (w, h), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    image = image.convert("RGB").quantize(colors=96, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    image.save(out, format="png", compress_level=1)
    return out.getvalue()


def new_figure(dpi=100):
    fig = Figure(dpi=dpi)
    FigureCanvasAgg(fig)
    return fig


def bundle_with_png(widget, data, png, text, *, note=None, content=None, alt=""):
    """Add a static PNG and a plain-text summary to a widget's mime bundle.

    With ``note``, also a ``text/html`` for pages where no kernel runs: the
    note (what the widget does once its cell is run) above ``content`` (HTML, e.g. a
    kernel-free player) or else the picture. JupyterLab shows the live widget;
    exporters and a JupyterLab that has not run the cell show this.
    """
    if data is None:
        data = {}
    data = dict(data)
    data["text/plain"] = text
    if png:
        data["image/png"] = base64.b64encode(png).decode("ascii")
    if note:
        picture = (f'<img src="data:image/png;base64,{data["image/png"]}" '
                   f'alt="{html.escape(alt, quote=True)}" '
                   'style="display: block; max-width: 100%; height: auto;">'
                   if png else "")
        data["text/html"] = ('<div class="gt-static"><div class="gt-static-note" style="color: #555; '
                             f'font-style: italic;">{html.escape(note)}</div>{content or picture}</div>')
    return data


# ----------------------------------------------------------------------------
# What the page shows around the controls
# ----------------------------------------------------------------------------

#: The line a widget shows on its saved picture when its controls cannot work.
OFFLINE_NOTE = "Run the cell to use the controls (this is the picture saved with the notebook)."

# The widgets' style sheet (it travels in the page_note widget, saved with the notebook too):
# - the note shows only while ipywidgets marks the view disconnected (no kernel behind it);
# - there, the controls are dimmed and do not take clicks, and ipywidgets' broken-link
#   icon on every control is left out: the one line says it;
# - a replay's Play widget: the play/pause button says "play"/"pause" in words (an icon-only
#   button has no name for a screen reader), and its stop button, which jumps back to
#   step 1, is not shown: pause stops where it is, "reset" goes back to step 1;
# - text lines 1.4 high (ipywidgets sets 28 px: a replay's explanation pushed its tree below
#   the fold at 1366x900).
_STYLE = """<style>
.gt-widget > .gt-note { display: none; order: -1; }  /* the last child, shown first */
.gt-widget > .gt-note.jupyter-widgets-disconnected { display: block; color: #1a1a1a; background: #fff3cd;
  border: 1px solid #c9a227; padding: 2px 8px; font-weight: bold; }
.gt-widget > .gt-note.jupyter-widgets-disconnected::before { content: none; }
.gt-widget .gt-widget > .gt-note.jupyter-widgets-disconnected { display: none; }  /* one note per output */
.gt-widget.jupyter-widgets-disconnected::before,
.gt-widget .jupyter-widgets-disconnected::before { content: none; }
.gt-widget .widget-html-content { line-height: 1.4; }  /* text in lines of 1.4, not 28 px rows */
.gt-widget :is(button, input, select, .widget-slider, .widget-play).jupyter-widgets-disconnected,
.gt-widget .jupyter-widgets-disconnected :is(button, input, select, textarea) {
  opacity: 0.45; pointer-events: none; }
.gt-widget .widget-play button:nth-child(2) { display: none; }
.gt-widget .widget-play button:first-child { width: auto; padding: 0 10px; }
.gt-widget .widget-play i.fa-play::after {
  content: " play"; font-family: var(--jp-ui-font-family, sans-serif); }
.gt-widget .widget-play i.fa-pause::after {
  content: " pause"; font-family: var(--jp-ui-font-family, sans-serif); }
</style>"""


def page_note():
    """The last child of every widget (whose root also gets the class ``gt-widget``), shown on top.

    Hidden while the widget is live; where its controls cannot work it shows
    :data:`OFFLINE_NOTE` above the saved picture (see the module docstring).
    """
    import ipywidgets as widgets

    note = widgets.HTML(_STYLE + html.escape(OFFLINE_NOTE))
    note.add_class("gt-note")
    return note
