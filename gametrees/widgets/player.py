"""A replay without a kernel: its frames and sentences in one piece of HTML with a little JavaScript.

Where no kernel drives a widget (a static HTML export with nbconvert, the
course website, nbviewer, a notebook reopened in JupyterLab without running
it), a replay's live controls cannot work. :func:`player_html` makes what
can: the pictures of every step (palette PNGs, as the widget draws them), the
step's sentence, the window or counts in words and the step counter, embedded
in the page with about fifty lines of script for play/pause, reset, back,
step, next cutoff (next playout) and a slider. It requests nothing from any
host, and it starts on the finished search, so a renderer that runs no
scripts (GitHub, JupyterLab on an untrusted notebook) still shows the
finished search, with no controls that could not work.

The DOM, for tests and style sheets::

    div.gt-player[data-steps, data-step]      the step shown (1-based), once wired
      div.gt-player-controls                  built by the script only
        button.gt-play, .gt-reset, .gt-back, .gt-step, .gt-next
        input.gt-slider[type=range]           1 .. number of steps
      div.gt-note                             :data:`STATIC_NOTE`, removed by the script
      div.gt-sentence, div.gt-window, div.gt-info
      img.gt-frame

This module knows nothing of game trees: :meth:`gametrees.widgets.Replay.player_html`
draws the frames and words and hands them here.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import itertools
import json

__all__ = ["MAX_PLAYER_STEPS", "STATIC_NOTE", "player_html"]

#: The line above the finished search where no script runs (the script removes it).
STATIC_NOTE = "The finished search, as saved: run the cell to replay it step by step."

#: A replay with more steps than this gets no kernel-free player (only the finished picture):
#: at about 20 KiB a frame, longer ones would make a page of several megabytes.
MAX_PLAYER_STEPS = 150

_SERIAL = itertools.count(1)

_CSS = """<style>
.gt-player { font-family: var(--jp-content-font-family, system-ui, sans-serif); font-size: 14px;
  line-height: 1.4; color: #1a1a1a; max-width: 100%; margin: 4px 0; }
.gt-player .gt-player-controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center;
  margin-bottom: 4px; }
.gt-player button { font: inherit; padding: 2px 10px; border: 1px solid #8a8a8a; border-radius: 3px;
  background: #f4f4f4; color: #1a1a1a; cursor: pointer; }
.gt-player button:hover:not(:disabled) { background: #e4e4e4; }
.gt-player button:disabled { opacity: 0.45; cursor: default; }
.gt-player button:focus-visible, .gt-player input:focus-visible {
  outline: 2px solid #1f6fb2; outline-offset: 1px; }
.gt-player .gt-slider { width: 320px; max-width: 100%; }
.gt-player .gt-step-no { color: #555; min-width: 7em; }
.gt-player .gt-sentence { min-height: 2.6em; }
.gt-player .gt-info { color: #555; }
.gt-player .gt-note { color: #555; font-style: italic; }
.gt-player .gt-frame { display: block; max-width: 100%; height: auto; margin-top: 4px; }
</style>"""

# The script finds its player as its parent (its own id as a fallback), builds the controls and
# wires them. ES5, no library, no request. "data" holds every frame but the last, which the <img>
# carries already (so that the page shows the finished search without scripts).
_JS = """<script>
(function () {
  var me = document.currentScript, root = me && me.parentElement;
  if (!root || !root.classList.contains('gt-player')) { root = document.getElementById('%(id)s'); }
  if (!root || root.getAttribute('data-wired')) { return; }
  root.setAttribute('data-wired', '1');
  var note = root.querySelector('.gt-note'); if (note) { note.parentNode.removeChild(note); }
  var data = JSON.parse(root.querySelector('script.gt-player-data').textContent);
  var n = data.sentences.length, k = n - 1, timer = null;
  var img = root.querySelector('.gt-frame'), last = img.getAttribute('src');
  var sentence = root.querySelector('.gt-sentence'), windowText = root.querySelector('.gt-window');
  var info = root.querySelector('.gt-info');
  var bar = document.createElement('div'); bar.className = 'gt-player-controls';
  function button(cls, text, title) {
    var b = document.createElement('button'); b.type = 'button'; b.className = cls;
    b.textContent = text; b.title = title; bar.appendChild(b); return b;
  }
  var play = button('gt-play', '\\u25b6 play', 'play the search from this step (from the first at the end)');
  var reset = button('gt-reset', '\\u21ba reset', 'stop, back to the first step');
  var back = button('gt-back', '\\u25c0 back', 'one step back');
  var step = button('gt-step', 'step \\u25b6', 'one step forward');
  var next = button('gt-next', data.next_label, data.next_title);
  next.disabled = data.cuts.length === 0;
  var slider = document.createElement('input');
  slider.type = 'range'; slider.className = 'gt-slider'; slider.min = 1; slider.max = n; slider.value = n;
  slider.setAttribute('aria-label', 'step');
  slider.title = 'drag, or press \\u2190 \\u2192 (one step), Home, End';
  var count = document.createElement('span'); count.className = 'gt-step-no';
  bar.appendChild(slider); bar.appendChild(count);
  root.insertBefore(bar, sentence);
  function show(i, extra) {
    k = Math.max(0, Math.min(n - 1, i));
    img.setAttribute('src', k === n - 1 ? last : 'data:image/png;base64,' + data.frames[k]);
    sentence.innerHTML = data.sentences[k];
    windowText.innerHTML = data.windows[k];
    info.innerHTML = data.infos[k] + (extra ? ' \\u00b7 <i>' + extra + '</i>' : '');
    slider.value = k + 1; count.textContent = 'step ' + (k + 1) + ' of ' + n;
    root.setAttribute('data-step', String(k + 1));
    back.disabled = k === 0; step.disabled = k === n - 1;
  }
  function pause() { if (timer) { clearInterval(timer); timer = null; } play.textContent = '\\u25b6 play'; }
  play.onclick = function () {
    if (timer) { pause(); return; }
    if (k === n - 1) { show(0); }
    play.textContent = '\\u275a\\u275a pause';
    timer = setInterval(function () { if (k >= n - 1) { pause(); } else { show(k + 1); } }, data.interval);
  };
  reset.onclick = function () { pause(); show(0); };
  back.onclick = function () { pause(); show(k - 1); };
  step.onclick = function () { pause(); show(k + 1); };
  next.onclick = function () {
    pause();
    for (var j = 0; j < data.cuts.length; j++) { if (data.cuts[j] > k) { show(data.cuts[j]); return; } }
    show(k, data.none_left);
  };
  slider.oninput = function () { pause(); show(parseInt(slider.value, 10) - 1); };
  show(n - 1);
})();
</script>"""


def _smaller(png):
    """The same PNG compressed harder (a quarter smaller than the live widget's quick frames)."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        out = io.BytesIO()
        image.save(out, format="png", compress_level=6)
    data = out.getvalue()
    return data if len(data) < len(png) else png


def player_html(frames, sentences, windows, infos, *, cuts=(), next_label="next cutoff ✂",
                next_title="jump to the next pruning", none_left="No cutoff after this step.",
                alt="", interval=600) -> str:
    """One self-contained HTML element that replays a search without a kernel.

    Parameters
    ----------
    frames : list of bytes
        The PNG of every step, in order.
    sentences, windows, infos : list of str
        HTML of each step's sentence, window (or counts) in words, and counter line.
    cuts : sequence of int
        The 0-based steps "next" jumps to (cutoffs; for MCTS, each playout's first step).
    next_label, next_title, none_left : str
        The "next" button's label and tooltip, and what it says when no cut is left.
    alt : str
        The pictures' alternative text.
    interval : int
        Milliseconds per step when playing.

    Returns
    -------
    str
        A ``div.gt-player`` (see the module docstring) starting on the last step.

    Examples
    --------
    >>> import io
    >>> from PIL import Image
    >>> def png(colour):
    ...     out = io.BytesIO(); Image.new("P", (4, 4), colour).save(out, format="png"); return out.getvalue()
    >>> page = player_html([png(0), png(1)], ["<b>1.</b> start", "<b>2.</b> end"], ["", ""],
    ...                    ["step 1", "step 2"])
    >>> page.startswith('<div class="gt-player" data-steps="2"'), "<b>2.</b> end" in page
    (True, True)
    """
    n = len(frames)
    if not n or not len(sentences) == len(windows) == len(infos) == n:
        raise ValueError(f"a player needs one sentence, window and info per frame: got {n} frames, "
                         f"{len(sentences)} sentences, {len(windows)} windows, {len(infos)} infos")
    encoded = [base64.b64encode(_smaller(png)).decode("ascii") for png in frames]
    data = {"frames": encoded[:-1] + [None], "sentences": list(sentences), "windows": list(windows),
            "infos": list(infos), "cuts": [int(c) for c in cuts], "next_label": next_label,
            "next_title": next_title, "none_left": html.escape(none_left), "interval": int(interval)}
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    # The id (only the script's fallback) is unique on a page, and the same from one run to the next.
    ident = f"gt-player-{hashlib.sha1(blob.encode('utf-8')).hexdigest()[:12]}-{next(_SERIAL)}"
    return (f'<div class="gt-player" data-steps="{n}" id="{ident}">{_CSS}'
            f'<div class="gt-note">{html.escape(STATIC_NOTE)}</div>'
            f'<div class="gt-sentence">{sentences[-1]}</div>'
            f'<div class="gt-window">{windows[-1]}</div>'
            f'<div class="gt-info">{infos[-1]}</div>'
            f'<img class="gt-frame" src="data:image/png;base64,{encoded[-1]}" '
            f'alt="{html.escape(alt, quote=True)}"><script type="application/json" '
            f'class="gt-player-data">{blob}</script>'
            + _JS % {"id": ident} + "</div>")
