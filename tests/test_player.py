"""The kernel-free player in every replay's output (gametrees.widgets.player).

In the kernel: the player holds, for every step, the picture, sentence, window and counter the
widget shows at that step, and jumps where the widget's "next cutoff" / "next playout" jumps.
In Chromium (a file page, every request refused and recorded): back, step, reset, next cutoff,
the slider's keys and play/pause change the picture and the sentence to the right step's; no
console error, no request; without JavaScript the page shows the finished search, the line
saying so, and no controls.
"""

import base64
import html
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import gametrees as gt
from gametrees.widgets.player import MAX_PLAYER_STEPS, STATIC_NOTE, player_html

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


def _data(page):
    """The player's embedded frames and texts, as its script reads them."""
    blob = re.search(r'<script type="application/json" class="gt-player-data">(.*?)</script>', page,
                     re.DOTALL).group(1)
    data = json.loads(blob)
    last = re.search(r'<img class="gt-frame" src="data:image/png;base64,([^"]+)"', page).group(1)
    data["frames"][-1] = last
    return data


def _pixels(png):
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"))


@pytest.mark.slow
@pytest.mark.parametrize("result", [
    gt.alphabeta(gt.tree_from_nested(TEXTBOOK)),
    gt.alphabeta(gt.random_tree(3, 3, seed=11, values=(0, 20))),
    gt.mcts(gt.tree_from_nested(TEXTBOOK), playouts=12, seed=0),
    gt.expectimax(gt.random_tree(2, 3, seed=4, players=["max", "chance", "min"])),
    gt.minimax(gt.tree_from_nested([[5]])),
], ids=["textbook", "random-54", "mcts", "expectimax", "one-child"])
def test_every_step_of_the_player_is_the_widgets_step(result):
    w = gt.replay(result)
    page = w.player_html()
    data = _data(page)
    n = len(result.trace)
    assert page.startswith(f'<div class="gt-player" data-steps="{n}"')
    assert len(data["frames"]) == len(data["sentences"]) == n
    for k in range(n):
        w.show(k)
        assert data["sentences"][k] == w.sentence.value
        assert data["sentences"][k].startswith(f"<b>{k + 1}.</b>")
        assert data["windows"][k] == w.window.value
        assert data["infos"][k] == w.info.value
        assert np.array_equal(_pixels(base64.b64decode(data["frames"][k])), _pixels(w.image.value)), k
    assert data["cuts"] == sorted(_jumps(w))  # "next" lands where the widget's lands
    # the page opens on the finished search
    assert f'<div class="gt-sentence">{data["sentences"][-1]}</div>' in page


def _jumps(w):
    """Where the widget's "next" button lands, from each step."""
    seen = set()
    for k in range(len(w.trace)):
        w.show(k)
        w.next_cut.click()
        if w.k != k:
            seen.add(w.k)
    return seen


@pytest.mark.slow
def test_mcts_players_jump_by_playout_and_alphabeta_players_by_cutoff():
    mc = gt.replay(gt.mcts(gt.tree_from_nested(TEXTBOOK), playouts=12, seed=0)).player_html()
    ab = gt.replay(gt.alphabeta(gt.tree_from_nested(TEXTBOOK))).player_html()
    assert _data(mc)["next_label"] == "next playout ▶▶"
    assert _data(mc)["none_left"] == "This is the last playout."
    assert _data(ab)["next_label"] == "next cutoff ✂" and _data(ab)["cuts"] == [13]
    none = gt.replay(gt.minimax(gt.tree_from_nested(TEXTBOOK))).player_html()
    assert _data(none)["cuts"] == []  # the script disables "next cutoff": nothing to jump to


def test_a_replay_too_long_for_a_page_keeps_only_its_picture():
    result = gt.minimax(gt.random_tree(3, 5, seed=1))
    assert len(result.trace) > MAX_PLAYER_STEPS
    w = gt.replay(result)
    assert w.player_html() is None
    data = w._repr_mimebundle_()
    assert "text/html" not in data and data["image/png"]


def test_the_replays_output_carries_the_player_beside_the_picture():
    w = gt.replay(gt.alphabeta(gt.tree_from_nested(TEXTBOOK)))
    data = w._repr_mimebundle_()
    assert {"application/vnd.jupyter.widget-view+json", "text/html", "image/png", "text/plain"} <= set(data)
    assert data["text/html"] == w.player_html() and STATIC_NOTE in data["text/html"]
    w.show(5)
    w._repr_mimebundle_()
    # making the player left the widget at its step
    assert w.k == 5 and w.sentence.value.startswith("<b>6.</b>")


def test_text_cannot_break_out_of_the_player():
    png = io.BytesIO()
    Image.new("P", (4, 4)).save(png, format="png")
    page = player_html([png.getvalue()] * 2, ["a</script><script>alert(1)</script>", "b"], ["", ""],
                       ["1", "2"],
                       none_left="<b>x</b>")
    assert page.count("</script>") == 2  # the data's and the script's own: the text is inert
    assert _data(page)["sentences"][0] == "a</script><script>alert(1)</script>"
    with pytest.raises(ValueError, match="one sentence, window and info per frame"):
        player_html([png.getvalue()], ["a", "b"], ["", ""], ["1", "2"])


# ----------------------------------------------------------------------------
# In the browser (the fixture ``chromium``: conftest.py)
# ----------------------------------------------------------------------------

_STATE = """(root) => ({step: root.dataset.step, sentence: root.querySelector('.gt-sentence').innerText,
    info: root.querySelector('.gt-info').innerText, src: root.querySelector('.gt-frame').getAttribute('src'),
    slider: root.querySelector('.gt-slider') && root.querySelector('.gt-slider').value,
    note: !!root.querySelector('.gt-note'), buttons: root.querySelectorAll('button').length,
    wide: document.documentElement.scrollWidth > document.documentElement.clientWidth})"""


def _open(chromium, tmp_path, name, results, script=True):
    pages = "".join(gt.replay(r).player_html() for r in results)
    path = tmp_path / f"{name}.html"
    path.write_text(f"<!doctype html><html><head><meta charset='utf-8'><title>{name}</title></head>"
                    f"<body><main style='max-width:1000px'>{pages}</main></body></html>", encoding="utf-8")
    context = chromium.new_context(viewport={"width": 1366, "height": 900}, java_script_enabled=script)
    page = context.new_page()
    errors, requests = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    def refuse(route):
        requests.append(route.request.url)
        route.abort()

    page.route(re.compile(r"^(?!file:).*"), refuse)  # nothing but the file itself
    page.goto(path.as_uri())
    return context, page, errors, requests


@pytest.mark.browser
def test_the_player_steps_in_the_browser(chromium, tmp_path):
    result = gt.alphabeta(gt.random_tree(3, 3, seed=11, values=(0, 20)))
    mcts = gt.mcts(gt.tree_from_nested(TEXTBOOK), playouts=12, seed=0)
    data = _data(gt.replay(result).player_html())
    n = len(result.trace)
    context, page, errors, requests = _open(chromium, tmp_path, "players", [result, mcts])
    try:
        root = page.locator(".gt-player").first

        def state():
            return root.evaluate(_STATE)

        def expect(step, after):
            s = state()
            assert s["step"] == str(step) and s["slider"] == str(step), (after, s)
            assert s["sentence"].startswith(f"{step}. "), (after, s["sentence"])
            assert s["sentence"] == html.unescape(re.sub(r"<[^>]+>", "", data["sentences"][step - 1])), after
            assert s["src"] == "data:image/png;base64," + data["frames"][step - 1], after
            assert not s["wide"], f"the page spills sideways after {after}"
            return s

        first = expect(n, "opening")
        assert not first["note"] and first["buttons"] == 5  # wired: the "run the cell" line is gone
        page.screenshot(path=tmp_path / "player-end.png")
        root.locator(".gt-reset").click()
        expect(1, "reset")
        assert root.locator(".gt-back").is_disabled()
        root.locator(".gt-step").click()
        expect(2, "step")
        root.locator(".gt-back").click()
        expect(1, "back")
        cuts = data["cuts"]
        root.locator(".gt-next").click()
        expect(cuts[0] + 1, "next cutoff")
        assert "1 cutoff so far" in state()["info"]
        root.locator(".gt-next").click()
        expect(cuts[1] + 1, "next cutoff again")
        slider = root.locator(".gt-slider")
        slider.focus()
        page.keyboard.press("Home")
        expect(1, "Home on the slider")
        page.keyboard.press("ArrowRight")
        expect(2, "→ on the slider")
        slider.fill("30")  # a drag: the value changes and the slider says so (input event)
        expect(30, "the slider moved to 30")
        page.keyboard.press("End")
        expect(n, "End on the slider")
        root.locator(".gt-next").click()
        s = expect(n, "next cutoff after the last")
        assert s["info"].endswith("No cutoff after this step."), s["info"]
        root.locator(".gt-play").click()  # at the end, play starts again from the first step
        page.wait_for_function("(el) => Number(el.dataset.step) >= 3", arg=root.element_handle(),
                               timeout=10_000)
        assert root.locator(".gt-play").inner_text().endswith("pause")
        root.locator(".gt-play").click()
        held = state()["step"]
        page.wait_for_timeout(1500)
        assert state()["step"] == held, "pause did not stop the replay"
        expect(int(held), "pause")
        page.screenshot(path=tmp_path / "player-paused.png")

        second = page.locator(".gt-player").nth(1)  # the MCTS replay: next playout
        assert second.locator(".gt-next").inner_text() == "next playout ▶▶"
        second.locator(".gt-reset").click()
        second.locator(".gt-next").click()
        first_cut = _data(gt.replay(mcts).player_html())["cuts"][0]
        assert second.evaluate(_STATE)["sentence"].startswith(f"{first_cut + 1}. Playout 2")
        assert first["step"] == str(n)
    finally:
        context.close()
    assert not errors, errors
    assert not requests, f"the player asked another host for {requests}"


@pytest.mark.browser
def test_without_scripts_the_player_is_the_finished_search(chromium, tmp_path):
    result = gt.alphabeta(gt.tree_from_nested(TEXTBOOK))
    data = _data(gt.replay(result).player_html())
    context, page, errors, requests = _open(chromium, tmp_path, "no-script", [result], script=False)
    try:
        s = page.locator(".gt-player").evaluate(_STATE)
        text = page.locator(".gt-player").inner_text()
    finally:
        context.close()
    assert s["buttons"] == 0 and s["slider"] is None  # no control that could not work
    assert s["note"] and text.startswith(STATIC_NOTE)
    assert s["sentence"].startswith(f"{len(result.trace)}. The search is over")
    assert s["src"] == "data:image/png;base64," + data["frames"][-1]
    assert not requests and not errors


# ----------------------------------------------------------------------------
# The stored lessons exported with nbconvert, opened offline
# ----------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.browser
def test_every_stored_lesson_exported_with_nbconvert_plays_offline(chromium, tmp_path):
    """``jupyter nbconvert --to html`` (lab template, its defaults) on each stored lesson: every replay
    is a player that steps with every request to another host refused, every other widget a picture."""
    import nbformat
    from nbconvert import HTMLExporter

    exporter = HTMLExporter()  # what `jupyter nbconvert --to html` uses
    context = chromium.new_context(viewport={"width": 1366, "height": 900})
    errors, seen = [], []
    try:
        for path in LESSONS:
            nb = nbformat.read(path, as_version=4)
            outputs = [o for c in nb.cells for o in c.get("outputs", []) if "data" in o]
            replays = [o for o in outputs if "".join(o["data"].get("text/plain", "")).startswith("Replay(")]
            widgets = [o for o in outputs if "".join(o["data"].get("text/plain", "")).startswith(
                ("Replay(", "Board(", "Explore(", "Practice("))]
            assert all("gt-player" in "".join(o["data"].get("text/html", "")) for o in replays), path.name
            body, _ = exporter.from_notebook_node(nb)
            assert "widget-view+json" not in body and "widget-state+json" not in body, path.name
            page_file = tmp_path / (path.stem + ".html")
            page_file.write_text(body, encoding="utf-8")
            page = context.new_page()
            page.on("pageerror", lambda e, name=path.name: errors.append(f"{name}: {e}"))
            page.route(re.compile(r"^(?!file:).*"),
                       lambda route: (seen.append(route.request.url), route.abort()))
            page.goto(page_file.as_uri())
            explorers = [o for o in widgets if "".join(o["data"]["text/plain"]).startswith("Explore(")]
            players = page.locator(".gt-player")  # every replay, and the replay inside an explorer
            assert players.count() == len(replays) + len(explorers), (
                (path.name, players.count(), len(replays))
            )
            for i in range(players.count()):
                root = players.nth(i)
                assert root.get_attribute("data-wired") == "1", f"{path.name}: player {i} did not start"
                end = root.evaluate(_STATE)
                root.locator(".gt-reset").click()
                start = root.evaluate(_STATE)
                assert start["sentence"].startswith("1. ") and start["src"] != end["src"], (path.name, i)
            # the other widgets are their saved pictures, under a line saying what running the cell gives
            statics = page.locator(".gt-static")
            assert statics.count() == len(widgets) - len(replays), (path.name, statics.count())
            for i in range(statics.count()):
                assert statics.nth(i).locator(".gt-static-note").inner_text().startswith("The "), path.name
                assert statics.nth(i).locator("img").first.evaluate("i => i.complete && i.naturalWidth > 0")
            page.close()
    finally:
        context.close()
    assert not errors, errors
    # nbconvert's own template asks a CDN for MathJax and require.js (the site serves its own, see
    # gametrees.site); nothing a lesson's output holds asks for anything
    assert {url.split("/")[2] for url in seen} <= {"cdnjs.cloudflare.com"}, sorted(set(seen))


@pytest.mark.slow
def test_an_export_of_a_notebook_with_widget_state_gets_its_players_with_for_readers(tmp_path):
    """nbconvert picks the widget view whenever the notebook holds widget state (as one run by
    nbclient or saved by JupyterLab does); the ForReaders preprocessor gives the player back."""
    import nbclient
    import nbformat
    from nbconvert import HTMLExporter

    from gametrees.site.readers import ForReaders

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in (
        "import gametrees as gt", f"gt.replay(gt.alphabeta(gt.tree_from_nested({TEXTBOOK})))")]
    nbclient.NotebookClient(nb, timeout=60, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT)}}).execute()
    assert "widgets" in nb.metadata
    plain, _ = HTMLExporter().from_notebook_node(nb)
    assert "gt-player" not in plain and "widget-view+json" in plain  # the empty place
    exporter = HTMLExporter()
    exporter.register_preprocessor(ForReaders, enabled=True)
    body, _ = exporter.from_notebook_node(nb)
    assert body.count('<div class="gt-player"') == 1 and "widget-view+json" not in body
