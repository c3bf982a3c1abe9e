"""Every node label keeps its strokes in every picture a reader gets, at the dpi that picture uses.

Issue 22: ``gt.animate(..., dpi=100)`` drew node F of the 54-step tree
(``gt.random_tree(3, 3, seed=11, values=(0, 20))``) as "=": its stem, a
little under a pixel wide, was snapped to the pixel grid and vanished (the
outlines are no longer snapped). Unsnapped, a stem that straddles two pixel
columns is drawn as two light grey ones, which a palette (the GIF's 128
colours, the widgets' 96) or a downscale can lose: labels are now fitted to
the pixel grid (:class:`gametrees.drawing.TextCollection`).

Two checks, on each label:

* its strokes survive: the glyphs' outline, placed where the drawing puts
  it (the label's path and offset), is sampled 8 x 8 times per pixel,
  giving how much ink each pixel should have. Every pixel the outline
  covers by at least a third (a stroke, not an antialiased fringe) must
  have at least half that ink in the picture the reader gets, in it or in a
  neighbouring pixel (a fitted label sits up to half a pixel off its
  nominal place). Where the picture is a palette image (GIF frames, the
  widgets' PNGs), the label's pixels also lose at most :data:`MAX_LOSS` of
  luminance against the unquantised frame, and so does the caption above
  an animation;
* its stems and bars are whole: its best long stem (and bar) shows at least
  80 % of the ink of a stroke of its width lying on whole pixels, one dark
  pixel column rather than two light ones.

Pictures: ``gt.animate`` GIFs at 150 dpi (the default, and the CLI's
``export --answer x.gif``), 100 dpi, and lowered to 72 dpi to fit ``max_width``;
the replay widget's frames and its saved picture at 100 dpi (the kernel-free
player shows these frames); the CLI's ``export --answer x.png`` (200 dpi);
``gt.draw``'s inline figure (72 to 200 dpi). Labels in grey (not reached,
pruned) and dark, one and two letters (A..Z, AA..AN) all occur. MP4 is not
checked here (reading it back needs ffmpeg).
"""

import io
import json

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.path import Path
from PIL import Image, ImageSequence

import gametrees as gt
from gametrees.drawing import TextCollection
from gametrees.exports import animations
from gametrees.widgets import replay_widget

STROKE = 1 / 3        # a pixel the outline covers at least this much is part of a stroke
KEPT = 0.5            # ... and must keep at least this share of its ink
MAX_LOSS = 24         # most luminance (of 255) a label's or the caption's pixel may lose to a palette
SAMPLES = 8           # outline samples per pixel, each way


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def issue_tree():
    """The issue's 54-step tree: labels A..Z and AA..AN, grey until reached."""
    result = gt.alphabeta(gt.random_tree(3, 3, seed=11, values=(0, 20)))
    assert len(result.trace) == 54
    return result


# ---------------------------------------------------------------------------------------
# Reading labels off a figure and a picture
# ---------------------------------------------------------------------------------------

def luminance(rgb):
    return np.asarray(rgb, dtype=float)[..., :3] @ np.array([0.299, 0.587, 0.114])


def node_labels(fig, height, dpi=None):
    """(text, ink depth of its colour, outline in picture pixels (y down)) of every node label on ``fig``.

    ``height``: the picture's height in pixels; ``dpi``: the dpi it was rendered at (default the figure's).
    """
    out = []
    saved = fig.dpi
    if dpi is not None:
        fig.dpi = dpi  # the transforms follow the figure's dpi, as while it was saved
    try:
        for ax in fig.axes:
            for coll in ax.collections:
                if not isinstance(coll, TextCollection) or coll.get_gid() != "labels":
                    continue
                offsets = coll.get_offset_transform().transform(coll.get_offsets())
                colours = coll.get_facecolors()
                for i, (path, text, offset) in enumerate(zip(coll.get_paths(), coll.texts, offsets)):
                    v = path.vertices * fig.dpi / 72 + offset
                    v = np.column_stack([v[:, 0], height - v[:, 1]])
                    depth = 255 - luminance(colours[i % len(colours)] * 255)
                    out.append((text, float(depth), Path(v, path.codes)))
    finally:
        fig.dpi = saved
    assert out, "no node labels on the figure"
    return out


_coverage = {}


def coverage(outline):
    """(box, share of each pixel of the box inside the outline), the box = the outline's pixels + 1 around."""
    key = (outline.vertices.round(3).tobytes(), outline.codes.tobytes())
    if key not in _coverage:
        v = outline.vertices
        x0, y0 = int(np.floor(v[:, 0].min())) - 1, int(np.floor(v[:, 1].min())) - 1
        x1, y1 = int(np.ceil(v[:, 0].max())) + 1, int(np.ceil(v[:, 1].max())) + 1
        sub = (np.arange(SAMPLES) + 0.5) / SAMPLES
        xs = (np.arange(x0, x1)[:, None] + sub).ravel()
        ys = (np.arange(y0, y1)[:, None] + sub).ravel()
        gx, gy = np.meshgrid(xs, ys)
        points = np.column_stack([gx.ravel(), gy.ravel()])
        # Even-odd over the outline's contours (curves flattened): a counter (the hole of B, Q) is outside.
        crossings = sum(Path(poly).contains_points(points).astype(int) for poly in outline.to_polygons())
        inside = (crossings % 2 == 1).reshape(gy.shape)
        share = inside.reshape(y1 - y0, SAMPLES, x1 - x0, SAMPLES).mean(axis=(1, 3))
        _coverage[key] = ((x0, y0, x1, y1), share)
    return _coverage[key]


def lost_strokes(labels, picture, where):
    """Each label pixel the outline covers (a stroke) that has lost its ink in ``picture`` (RGB array)."""
    ink = 255 - luminance(picture)
    lost = []
    for text, depth, outline in labels:
        (x0, y0, x1, y1), share = coverage(outline)
        should = share * depth
        # The most ink within one pixel of each pixel of the box.
        padded = np.pad(ink, 1)[y0:y1 + 2, x0:x1 + 2]
        near = np.max([padded[dy:dy + y1 - y0, dx:dx + x1 - x0] for dy in range(3) for dx in range(3)],
                      axis=0)
        bad = (share >= STROKE) & (near < KEPT * should)
        if bad.any():
            y, x = np.argwhere(bad)[0]
            lost.append(f"{where}: label {text!r} lost {int(bad.sum())} stroke pixel(s), e.g. at "
                        f"({x0 + x}, {y0 + y}): ink {near[y, x]:.0f} of {should[y, x]:.0f}")
    return lost


def palette_loss(labels, rgb, picture, extra_boxes=()):
    """The most luminance a label's pixel (or one in ``extra_boxes``) lost from ``rgb`` to ``picture``."""
    diff = luminance(picture) - luminance(rgb)
    worst = (0.0, None)
    boxes = [(text, coverage(outline)[0]) for text, _, outline in labels] + list(extra_boxes)
    for name, (x0, y0, x1, y1) in boxes:
        box = diff[max(y0, 0):y1, max(x0, 0):x1]
        loss = float(np.abs(box).max()) if box.size else 0.0
        if loss > worst[0]:
            worst = (loss, name)
    return worst


def decode(png_or_path):
    with Image.open(io.BytesIO(png_or_path) if isinstance(png_or_path, bytes) else png_or_path) as im:
        return [np.asarray(frame.convert("RGB")) for frame in ImageSequence.Iterator(im)]


def canvas_rgb(fig):
    return np.asarray(fig.canvas.buffer_rgba())[..., :3].copy()


def check(frames, what):
    """``frames``: (where, labels, unquantised RGB or None, the picture as the reader gets it, extra
    boxes)."""
    lost, worst = [], (0.0, None)
    for where, labels, rgb, picture, extra in frames:
        lost += lost_strokes(labels, picture, where)
        if rgb is not None:
            assert rgb.shape == picture.shape, where
            loss, name = palette_loss(labels, rgb, picture, extra)
            if loss > worst[0]:
                worst = (loss, f"{where}, {name}")
    assert not lost, f"{what}: {len(lost)} label(s) lost strokes:\n" + "\n".join(lost[:12])
    assert worst[0] <= MAX_LOSS, f"{what}: the palette took {worst[0]:.0f} of 255 of luminance ({worst[1]})"


# ---------------------------------------------------------------------------------------
# The pictures
# ---------------------------------------------------------------------------------------

def animation_frames(result, path, monkeypatch, **kwargs):
    """Write ``gt.animate(result, path, **kwargs)``; each frame's labels, unquantised RGB and GIF frame."""
    grabbed = []
    grab = animations._GifWriter.grab_frame

    def grab_and_keep(writer, **savefig_kwargs):
        grab(writer, **savefig_kwargs)  # the canvas now holds the frame, as it was quantised
        fig = writer.fig
        rgb = canvas_rgb(fig)
        title = fig.axes[0].title.get_window_extent()
        h = rgb.shape[0]
        box = (int(title.x0), int(h - title.y1), int(np.ceil(title.x1)) + 1, int(np.ceil(h - title.y0)) + 1)
        grabbed.append((node_labels(fig, h), rgb, ("caption", box)))

    monkeypatch.setattr(animations._GifWriter, "grab_frame", grab_and_keep)
    written = gt.animate(result, path, **kwargs)
    pictures = decode(written)
    assert len(pictures) == len(grabbed) == len(result.trace)
    return [(f"frame {k + 1}", labels, rgb, picture, [caption])
            for k, ((labels, rgb, caption), picture) in enumerate(zip(grabbed, pictures))]


@pytest.mark.slow
@pytest.mark.parametrize("dpi, max_width, expect", [
    (150, 1600, 150.0),       # gt.animate's default, and the CLI's export --answer x.gif
    (100, 1600, 100.0),       # the issue's
    (150, 648, 72.0),         # lowered to fit max_width (the tree is 9 inches wide): a low dpi, 72
], ids=["dpi150", "dpi100", "max_width648-dpi72"])
def test_animation_frames_keep_every_label_stroke(issue_tree, tmp_path, monkeypatch, dpi, max_width, expect):
    frames = animation_frames(issue_tree, tmp_path / "search.gif", monkeypatch, dpi=dpi, max_width=max_width)
    with Image.open(tmp_path / "search.gif") as im:
        assert im.width == int(9.0 * expect) // 2 * 2   # the dpi the frames were drawn at
    texts = {text for text, _, _ in frames[0][1]}
    assert {"F", "AA", "AN"} <= texts
    check(frames, f"gt.animate at {expect:.1f} dpi")
    for where, labels, _, picture, _ in (frames[0], frames[-1]):   # grey labels, then mostly dark ones
        check_crisp(labels, picture, f"gt.animate at {expect:.1f} dpi, {where}")


@pytest.mark.slow
def test_replay_frames_and_saved_picture_keep_every_label_stroke(issue_tree, monkeypatch):
    """The widget's frames (96-colour PNGs, the kernel-free player reuses them) and its saved picture."""
    rendered = []
    render = replay_widget.render_png

    def render_and_keep(fig, draw=True):
        png = render(fig, draw)
        rgb = canvas_rgb(fig)
        rendered.append((node_labels(fig, rgb.shape[0]), rgb, png))
        return png

    monkeypatch.setattr(replay_widget, "render_png", render_and_keep)
    widget = gt.replay(issue_tree)  # dpi 100, the default
    assert widget.figure.dpi == 100
    for k in range(len(issue_tree.trace)):
        widget.show(k)
    widget.static_png()
    pictures = [(rgb, decode(png)[0], labels) for labels, rgb, png in rendered]
    assert len(pictures) == len(issue_tree.trace) + 1   # every step once, and the saved picture
    check([(f"picture {i + 1}", labels, rgb, picture, []) for i, (rgb, picture,
                                                                  labels) in enumerate(pictures)],
          "gt.replay at 100 dpi")
    for i in (0, -2, -1):   # the first and last steps, the saved picture
        _, picture, labels = pictures[i]
        check_crisp(labels, picture, f"gt.replay at 100 dpi, picture {i % len(pictures) + 1}")


def test_exported_png_answer_keeps_every_label_stroke(issue_tree, tmp_path, monkeypatch):
    """``python -m gametrees export ... --answer x.png``: gt.export at 200 dpi (RGB, no palette)."""
    saved = []
    savefig = Figure.savefig

    def savefig_and_keep(fig, fname, **kwargs):
        savefig(fig, fname, **kwargs)
        saved.append((fig, kwargs.get("dpi")))

    monkeypatch.setattr(Figure, "savefig", savefig_and_keep)
    from gametrees.cli import main

    T = gt.random_tree(3, 3, seed=11, values=(0, 20))
    name = {n: T.nodes[n]["label"] for n in T}
    spec = {name[n]: ({"player": T.nodes[n]["player"], "children": [name[c] for c in T.successors(n)]}
                      if T.out_degree(n) else T.nodes[n]["utility"]) for n in T}
    (tmp_path / "tree.json").write_text(json.dumps(spec))
    target = tmp_path / "answer.png"
    assert main(["export", "--json", str(tmp_path / "tree.json"), "--answer", str(target)],
                out=io.StringIO()) == 0
    (fig, dpi), = saved
    assert dpi == 200
    picture, = decode(target.read_bytes())
    labels = node_labels(fig, picture.shape[0], dpi=dpi)
    check([("answer.png", labels, None, picture, [])], "export --answer x.png")
    check_crisp(labels, picture, "export --answer x.png")


def test_inline_figure_keeps_every_label_stroke(issue_tree):
    """``gt.draw(result)`` in a notebook: the inline backend's PNG of the figure at rcParams' 100 dpi."""
    with matplotlib.rc_context({"figure.dpi": 100}):
        ax = gt.draw(issue_tree)
        ax.figure.canvas.draw()
        picture = canvas_rgb(ax.figure)
        check([("gt.draw", node_labels(ax.figure, picture.shape[0]), None, picture, [])],
              "gt.draw at 100 dpi")


# ---------------------------------------------------------------------------------------
# Stems and bars fall on whole pixels (so no palette or downscale can thin them away)
# ---------------------------------------------------------------------------------------

def strokes(outline, axis):
    """The long straight strokes of an outline: (edge position, its span, stroke width) in pixels.

    ``axis`` 0: stems (vertical edges; position x, span in y); 1: bars
    (horizontal edges; position y, span in x). The width is the distance to
    the nearest parallel edge facing it; only strokes at least 60 % as long
    as the longest count (an F's stem, not the end of its bar).
    """
    v, codes = outline.vertices, outline.codes
    a, b = v[:-1], v[1:]
    straight = codes[1:] == Path.LINETO
    fixed, span = axis, 1 - axis   # a stem keeps its x and spans y; a bar the other way round
    edges = [(a[i, fixed], sorted((a[i, span], b[i, span])))
             for i in np.flatnonzero(straight & (np.abs(b[:, fixed] - a[:, fixed]) < 1e-6))]
    if not edges:
        return []
    longest = max(hi - lo for _, (lo, hi) in edges)
    out = []
    for pos, (lo, hi) in edges:
        if hi - lo < 0.6 * longest:
            continue
        facing = [abs(p - pos) for p, (l2, h2) in edges
                  if 0.2 < abs(p - pos) < 3 and min(hi, h2) - max(lo, l2) > 0]
        if facing:
            out.append((pos, (lo, hi), min(facing)))
    return out


def crispness(labels, picture, axis):
    """{label: the best of its long strokes' darkness, as a share of what a stroke on whole pixels shows}."""
    ink = 255 - luminance(picture)
    if axis == 1:
        ink = ink.T
    out = {}
    for text, depth, outline in labels:
        if axis == 1:
            outline = Path(outline.vertices[:, ::-1], outline.codes)
        best = None
        for pos, (lo, hi), width in strokes(outline, 0):
            rows = np.arange(int(np.ceil(lo)), int(np.floor(hi)))   # the pixels wholly along it
            if not len(rows):
                continue
            # Along the stroke, the darkest pixel across it (within its width and a pixel each side).
            c0, c1 = int(np.floor(pos - width)) - 1, int(np.ceil(pos + width)) + 2
            dark = np.median(ink[rows, c0:c1].max(axis=1))
            share = dark / (min(1.0, width) * depth)
            best = share if best is None else max(best, share)
        if best is not None:
            out[text] = best
    return out


def check_crisp(labels, picture, where):
    """Each label's best long stem and bar shows at least 80 % of the ink of such a stroke on whole pixels."""
    stems, bars = crispness(labels, picture, 0), crispness(labels, picture, 1)
    assert {"F", "E", "T", "H", "AL"} <= set(stems) and {"F", "E", "T", "L"} <= set(bars)
    faint = {t: round(float(s), 2) for t, s in stems.items() if s < 0.8}
    assert not faint, f"{where}: these labels' stems are split over two light pixel columns: {faint}"
    faint = {t: round(float(s), 2) for t, s in bars.items() if s < 0.8}
    assert not faint, f"{where}: these labels' bars are split over two light pixel rows: {faint}"


@pytest.mark.parametrize("dpi", [72, 100, 150, 200])
def test_label_stems_and_bars_are_whole_pixel_columns_and_rows(issue_tree, dpi):
    """F's stem at 100 dpi was two light grey columns (half the ink each) while its bars were dark.

    Each label's best long stem (and bar) shows at least 80 % of the ink a
    stroke of its width on whole pixels shows: one dark column, not two light ones.
    """
    with matplotlib.rc_context({"figure.dpi": dpi}):
        ax = gt.draw(issue_tree, k=len(issue_tree.trace) - 1)   # the finished search: dark and grey labels
        fig = ax.figure
        fig.canvas.draw()
        picture = canvas_rgb(fig)
        labels = node_labels(fig, picture.shape[0])
    check_crisp(labels, picture, f"gt.draw at {dpi} dpi")
