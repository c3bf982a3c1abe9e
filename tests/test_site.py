"""The course as a website: ``python -m gametrees site OUT_DIR`` (issue 22), built once, checked as files
and in a real browser.

As files:

- every lesson ``notebooks/NN_*.ipynb`` has a page, in order, titled by its first heading, with links to
  the previous and next lessons and to the index; links between lessons point at pages; every replay
  in a lesson is a kernel-free player on its page;
- the index is the lesson map: each lesson's title and the README's words for what it teaches, in order;
  every link on every page points at a file of the site;
- the downloads are the assignments' student versions, byte for byte, with no solution in them;
- the how-to page quotes the README's command that opens the lessons;
- no page or style sheet names anything on another host that a browser would fetch (``src``/``href`` of
  script, link, img, iframe, ...; CSS ``url()`` and ``@import``);
- the notebooks are not written; a non-empty folder that is no earlier build, any folder among the
  notebooks, and a symbolic link that leads there are refused with one line and exit 2; a rebuild
  replaces the earlier build's files and removes only those it no longer writes.

In Chromium (Debian's, through playwright, launched as ``tests/browser.py`` launches it), the site is
served over http from 127.0.0.1 by a thread of this process (``http.server``), as a published site is
served: "another host" is then anything but that origin. Every request to another origin is aborted and
recorded. Each page: no console error, no request left the machine, its maths typeset by MathJax (no
``$...$`` of the notebook left in the text), every player wired and on its finished search. Lesson 03
at 1366x900: its first replay's player steps back, forward, to the next cutoff and by the slider
(keyboard and a set value), and after each the frame, the sentence (starting with the step's number),
the counter and the slider show that step. Screenshots go to ``$GT_SITE_SCREENSHOTS``, else to a pytest
temporary folder printed in the output.

Outside CI the browser tests are skipped when Chromium or playwright is missing; with
``GT_REQUIRE_BROWSER=1`` (``.ci/run``) they fail instead (the fixture ``chromium``, ``conftest.py``).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import html
import http.server
import io
import json
import os
import re
import shutil
import threading
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest

from gametrees.classroom.releases import holds_answers
from gametrees.cli import main

# Every test here builds the site or reads a build (nbconvert over every lesson): not in the quick run.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
STUDENT_VERSIONS = sorted((NOTEBOOKS / "assignments").glob("*.ipynb"))
INSTRUCTOR_VERSIONS = sorted((ROOT / "instructor" / "assignments").glob("*.ipynb"))
REPLAY_LESSON = "03_alpha_beta"  # two replays and display maths
VIEWPORT = {"width": 1366, "height": 900}


def _heading(path):
    nb = nbformat.read(path, as_version=4)
    return next(line[2:].strip() for c in nb.cells if c.cell_type == "markdown"
                for line in c.source.splitlines() if line.startswith("# "))


def _maths(path):
    """The TeX of every formula in a notebook's markdown cells (``$...$`` and ``$$...$$``)."""
    nb = nbformat.read(path, as_version=4)
    found = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            found += [m.group(1) or m.group(2) for m in
                      re.finditer(r"\$\$(.+?)\$\$|(?<![\\$])\$([^$\n]+?)\$", cell.source, re.DOTALL)]
    return [" ".join(t.split()) for t in found]


def _snapshot(folder):
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _build(out, *args):
    """``python -m gametrees site OUT ARGS`` in this process: (exit code, stdout, stderr)."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(stderr):
        code = main(["site", str(out), *args], out=stdout)
    return code, stdout.getvalue(), stderr.getvalue()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "site"
    before = _snapshot(NOTEBOOKS)
    code, stdout, stderr = _build(out)
    assert code == 0, stderr
    return {"out": out, "stdout": stdout, "notebooks_before": before}


class _Page(HTMLParser):
    """What a browser would fetch from a page, its links, and its text."""

    FETCHED = {"script": ("src",), "link": ("href",), "img": ("src", "srcset"), "iframe": ("src",),
               "source": ("src", "srcset"), "video": ("src", "poster"), "audio": ("src",), "embed": ("src",),
               "object": ("data",), "input": ("src",), "track": ("src",)}

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.fetched, self.links, self.styles, self.anchors = [], [], [], []
        self.title, self._in, self._anchor = "", [], None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self._in.append(tag)
        for name in self.FETCHED.get(tag, ()):
            if attrs.get(name):
                self.fetched.append((tag, name, attrs[name]))
        if attrs.get("style"):
            self.styles.append(attrs["style"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
            self._anchor = {"href": attrs["href"], "class": attrs.get("class", ""), "text": ""}
            self.anchors.append(self._anchor)

    def handle_endtag(self, tag):
        if tag in self._in:
            while self._in and self._in.pop() != tag:
                pass
        if tag == "a":
            self._anchor = None

    def handle_data(self, data):
        if self._in and self._in[-1] == "title":
            self.title += data
        if self._in and self._in[-1] == "style":
            self.styles.append(data)
        if self._anchor is not None:
            self._anchor["text"] += data


def _page(site, name):
    return _Page((site["out"] / name).read_text(encoding="utf-8"))


def _nav(page, cls):
    return [a for a in page.anchors if cls in a["class"].split()]


# ----------------------------------------------------------------------------------------------------
# The files
# ----------------------------------------------------------------------------------------------------


def test_every_lesson_has_a_page_in_order_with_previous_next_and_index_links(site):
    assert len(LESSONS) >= 8
    for i, lesson in enumerate(LESSONS):
        page = _page(site, f"{lesson.stem}.html")
        assert page.title == f"{_heading(lesson)} · gametrees"
        previous = {a["href"] for a in _nav(page, "gt-site-previous")}
        following = {a["href"] for a in _nav(page, "gt-site-next")}
        assert previous == ({f"{LESSONS[i - 1].stem}.html"} if i else set()), lesson.name
        assert following == ({f"{LESSONS[i + 1].stem}.html"} if i + 1 < len(LESSONS) else set()), lesson.name
        # Top and bottom of the page:
        assert [a["href"] for a in _nav(page, "gt-site-index")] == ["index.html", "index.html"]
        assert not [h for h in page.links if h.endswith(".ipynb") and not h.startswith("downloads/")], \
            f"{lesson.name} links a notebook instead of its page"
    # Lesson 00's own lesson map links the pages of lessons 01-07.
    start = _page(site, f"{LESSONS[0].stem}.html")
    assert {f"{p.stem}.html" for p in LESSONS[1:]} <= set(start.links)
    # What the command printed: every page with its size, and the whole build's time.
    for lesson in LESSONS:
        assert re.search(rf"wrote \S*{lesson.stem}\.html: .+, [\d.]+ [kM]B, [\d.]+ s$", site["stdout"],
                         re.MULTILINE)
    assert re.search(r"^site: \d+ lessons, 3 downloads, [\d.]+ MB in [\d.]+ s", site["stdout"], re.MULTILINE)


def _readme_rows():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("| notebook | what it teaches |", 1)[1].split("\n\n", 1)[0]
    rows = [line.strip().strip("|").split("|", 1) for line in table.strip().splitlines()[1:]]
    return {name.strip().strip("`"): " ".join(words.split()) for name, words in rows}


def test_the_index_is_the_lesson_map_in_order(site):
    text = (site["out"] / "index.html").read_text(encoding="utf-8")
    page = _Page(text)
    lessons = _nav(page, "gt-site-lesson")
    assert [a["href"] for a in lessons] == [f"{p.stem}.html" for p in LESSONS]
    assert [a["text"] for a in lessons] == [_heading(p) for p in LESSONS]
    readme = _readme_rows()
    rows = re.findall(r"<tr><td><a class=\"gt-site-lesson\"[^>]*>.*?</a></td><td>(.*?)</td></tr>", text,
                      re.DOTALL)
    shown = [" ".join(html.unescape(re.sub(r"<[^>]+>", "", row)).split()) for row in rows]
    assert shown == [readme[p.name] for p in LESSONS]
    assert "how-to-run.html" in page.links


def test_every_link_points_at_a_file_of_the_site(site):
    out = site["out"]
    pages = sorted(out.glob("*.html"))
    assert {p.name for p in pages} == {"index.html", "how-to-run.html"} | {f"{p.stem}.html" for p in LESSONS}
    for path in pages:
        page = _Page(path.read_text(encoding="utf-8"))
        local = [h for h in page.links + [f for _, _, f in page.fetched]
                 if not re.match(r"^(#|data:|https?:|mailto:)", h)]
        for href in local:
            target = out / href.split("#")[0].split("?")[0]
            assert target.is_file(), f"{path.name} links {href}, which the site does not hold"


def test_the_downloads_are_the_student_versions_without_solutions(site):
    out = site["out"]
    page = _page(site, "index.html")
    downloads = [a["href"] for a in _nav(page, "gt-site-download")]
    assert downloads == [f"downloads/{p.name}" for p in STUDENT_VERSIONS] and len(downloads) == 3
    assert sorted(p.name for p in (out / "downloads").iterdir()) == [p.name for p in STUDENT_VERSIONS]
    for student in STUDENT_VERSIONS:
        copied = out / "downloads" / student.name
        assert copied.read_bytes() == student.read_bytes()
        assert holds_answers(copied) is None
        assert "### BEGIN SOLUTION" not in copied.read_text(encoding="utf-8")
    # The instructor versions differ (they hold the solutions) and none of them was copied.
    assert INSTRUCTOR_VERSIONS and all(holds_answers(p) == "solutions" for p in INSTRUCTOR_VERSIONS)
    instructor = {hashlib.sha256(p.read_bytes()).hexdigest() for p in INSTRUCTOR_VERSIONS}
    shipped = {hashlib.sha256(p.read_bytes()).hexdigest() for p in out.rglob("*.ipynb")}
    assert not instructor & shipped


def test_the_how_to_page_quotes_the_readmes_command_that_opens_the_lessons(site):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Two commands\n", 1)[1]  # "Open the lessons ...", then its command
    command = section.split("```bash\n", 1)[1].split("```", 1)[0].strip()
    assert command.startswith("python3 -m venv") and "jupyter lab" in command
    page = (site["out"] / "how-to-run.html").read_text(encoding="utf-8")
    assert f"<code>{html.escape(command, quote=False)}</code>" in page
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    assert "needs Python" in text and "checks" in text and "agent" in text


_CSS_FETCH = re.compile(r"""url\(\s*['"]?([^'")\s]+)|@import\s+(?:url\(\s*)?['"]?([^'")\s;]+)""",
                        re.IGNORECASE)


def _css_fetches(css):
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)  # comments name hosts, but fetch nothing
    return [a or b for a, b in _CSS_FETCH.findall(css)]


def test_nothing_on_a_page_is_fetched_from_another_host(site):
    out = site["out"]
    elsewhere = []
    for path in sorted(out.glob("*.html")):
        page = _Page(path.read_text(encoding="utf-8"))
        assert page.fetched, path.name  # the parser sees the pages' scripts and style sheets
        for tag, attr, value in page.fetched:
            for url in (value.split(",") if attr == "srcset" else [value]):
                if re.match(r"\s*(https?:)?//", url, re.IGNORECASE):
                    elsewhere.append(f"{path.name}: <{tag} {attr}={url.strip()[:80]}>")
        for css in page.styles:
            elsewhere += [f"{path.name}: CSS {u[:80]}" for u in _css_fetches(css)
                          if re.match(r"(https?:)?//", u)]
    for path in sorted(out.rglob("*.css")):
        elsewhere += [f"{path.name}: {u[:80]}" for u in _css_fetches(path.read_text(encoding="utf-8"))
                      if re.match(r"(https?:)?//", u)]
    assert elsewhere == []
    # The lab template's own choices are gone: no require.js, no widget manager, no CDN MathJax.
    lesson = (out / f"{REPLAY_LESSON}.html").read_text(encoding="utf-8")
    assert "require.js" not in lesson and "embed-amd" not in lesson and "cdnjs" not in lesson
    assert '<script src="mathjax/MathJax.js?config=' in lesson


def test_the_notebooks_are_read_never_written(site):
    assert _snapshot(NOTEBOOKS) == site["notebooks_before"]


def test_a_folder_that_is_not_a_site_or_lies_among_the_notebooks_is_refused(tmp_path):
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine", encoding="utf-8")
    code, stdout, stderr = _build(busy)
    assert code == 2 and stdout == "" and len(stderr.strip().splitlines()) == 1
    assert "not empty" in stderr and "--force" in stderr
    assert sorted(p.name for p in busy.iterdir()) == ["notes.txt"]
    for target, why in ((NOTEBOOKS / "site", "inside"), (NOTEBOOKS, "inside"), (ROOT, "holds the notebooks")):
        code, stdout, stderr = _build(target, "--force")
        assert code == 2 and why in stderr and len(stderr.strip().splitlines()) == 1, stderr
    assert not (NOTEBOOKS / "site").exists()
    file = tmp_path / "file.html"
    file.write_text("x", encoding="utf-8")
    code, _, stderr = _build(file)
    assert code == 2 and "not a folder" in stderr and file.read_text(encoding="utf-8") == "x"


def test_a_symbolic_link_into_the_notebooks_is_refused_before_anything_is_written(tmp_path):
    out = tmp_path / "linked"
    out.mkdir()
    (out / "downloads").symlink_to(NOTEBOOKS / "assignments", target_is_directory=True)
    before = _snapshot(NOTEBOOKS)
    code, stdout, stderr = _build(out, "--force")
    assert code == 2 and "symbolic link" in stderr and len(stderr.strip().splitlines()) == 1, stderr
    assert sorted(p.name for p in out.iterdir()) == ["downloads"] and _snapshot(NOTEBOOKS) == before


def test_a_rebuild_replaces_its_own_files_and_removes_only_those(site, tmp_path):
    again = tmp_path / "again"
    shutil.copytree(site["out"], again)
    marker = again / ".gametrees-site.json"
    listed = json.loads(marker.read_text(encoding="utf-8"))
    (again / "99_gone.html").write_text("a lesson since removed", encoding="utf-8")
    listed["files"].append("99_gone.html")
    listed["files"].append("../outside.txt")  # a marker edited by hand never reaches outside the site
    (tmp_path / "outside.txt").write_text("keep", encoding="utf-8")
    marker.write_text(json.dumps(listed), encoding="utf-8")
    (again / "notes.txt").write_text("the owner's", encoding="utf-8")
    (again / "index.html").write_text("stale", encoding="utf-8")
    code, stdout, stderr = _build(again)
    assert code == 0, stderr
    assert not (again / "99_gone.html").exists() and "removed 1 file an earlier build wrote" in stdout
    assert (tmp_path / "outside.txt").read_text(encoding="utf-8") == "keep"
    assert (again / "notes.txt").read_text(encoding="utf-8") == "the owner's"
    assert (again / "index.html").read_bytes() == (site["out"] / "index.html").read_bytes()


# ----------------------------------------------------------------------------------------------------
# In the browser
# ----------------------------------------------------------------------------------------------------


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def served(site, chromium, tmp_path_factory):
    """The site over http on 127.0.0.1 (a thread), and one Chromium context whose requests are routed."""
    shots = Path(os.environ.get("GT_SITE_SCREENSHOTS") or tmp_path_factory.mktemp("site-screenshots"))
    shots.mkdir(parents=True, exist_ok=True)
    print(f"\nsite test: screenshots in {shots}")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(_Quiet, directory=str(site["out"])))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    state = {"origin": origin, "shots": shots, "elsewhere": [], "served": []}

    def route(r):
        url = r.request.url
        if url.startswith(origin + "/"):
            state["served"].append(url[len(origin):])
            r.continue_()
        else:
            state["elsewhere"].append(url)
            r.abort()

    context = None
    try:
        context = chromium.new_context(viewport=VIEWPORT)
        context.route("**/*", route)
        state["context"] = context
        yield state
    finally:
        for close in (context and context.close, server.shutdown):
            if close:
                with contextlib.suppress(Exception):
                    close()
        server.server_close()


def _open(served, name):
    """Open a page; wait until it has loaded and MathJax has typeset it. Returns (page, problems list)."""
    page = served["context"].new_page()
    problems = []
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url[:120]} {r.failure}"))
    page.goto(f"{served['origin']}/{name}", wait_until="load")
    if page.evaluate("() => !!document.querySelector('script[src^=\"mathjax/\"]')"):
        page.wait_for_function("() => window.MathJax && MathJax.Hub && MathJax.isReady", timeout=20_000)
        page.evaluate("() => new Promise(done => MathJax.Hub.Queue(() => done(true)))")  # after its Typeset
    return page, problems


_JS_MATHS = """() => ({
  typeset: [...document.querySelectorAll('script[type^="math/tex"]')].map(s => ({
      tex: s.textContent.trim().replace(/\\s+/g, ' '),
      shown: !!(s.previousElementSibling && /MathJax/.test(s.previousElementSibling.className)
                && s.previousElementSibling.getBoundingClientRect().width > 0)})),
  errors: document.querySelectorAll('.MathJax_Error, merror').length,
  text: [...document.querySelectorAll('.jp-MarkdownOutput')].map(e => e.innerText).join('\\n')})"""


def _replay_cells(path):
    """How many code cells of a notebook call ``gt.replay(`` outside comments (each shows one replay)."""
    nb = nbformat.read(path, as_version=4)
    code = ["\n".join(line.split("#")[0] for line in c.source.splitlines())
            for c in nb.cells if c.cell_type == "code"]
    return sum("gt.replay(" in c for c in code)


def test_every_replay_is_a_player(site):
    counts = {}
    for lesson in LESSONS:
        page = (site["out"] / f"{lesson.stem}.html").read_text(encoding="utf-8")
        counts[lesson.stem] = (_replay_cells(lesson), page.count('<div class="gt-player" data-steps='))
    assert all(players >= cells for cells, players in counts.values()), counts
    assert sum(players for _, players in counts.values()) >= 8
    assert counts["07_monte_carlo_tree_search"][1] >= 1  # the MCTS replay too


_JS_PLAYERS_WIRED = """() => [...document.querySelectorAll('.gt-player')].map(p => ({
  wired: !!p.querySelector('.gt-player-controls button.gt-step')
         && p.getAttribute('data-step') === p.getAttribute('data-steps'),
  loaded: p.querySelector('img.gt-frame').complete && p.querySelector('img.gt-frame').naturalWidth > 0}))"""


@pytest.mark.browser
def test_every_page_loads_offline_with_its_maths_typeset(served):
    names = ["index.html", "how-to-run.html"] + [f"{p.stem}.html" for p in LESSONS]
    for name in names:
        before = len(served["elsewhere"])
        page, problems = _open(served, name)
        try:
            lesson = NOTEBOOKS / name.replace(".html", ".ipynb")
            if lesson.is_file():
                maths = page.evaluate(_JS_MATHS)
                expected = _maths(lesson)
                typeset = [m["tex"] for m in maths["typeset"]]
                assert sorted(typeset) == sorted(expected), f"{name}: typeset {typeset}, notebook {expected}"
                assert all(m["shown"] for m in maths["typeset"]) and maths["errors"] == 0, f"{name}: {maths}"
                text = " ".join(maths["text"].split())
                left = [t for t in expected if re.search(r"\$\s*" + re.escape(t) + r"\s*\$", text)]
                assert not left, f"{name}: raw TeX on the page: {left}"
            players = page.evaluate(_JS_PLAYERS_WIRED)
            assert all(p["wired"] and p["loaded"] for p in players), f"{name}: players {players}"
            assert not problems, f"{name}: {problems}"
            asked = served["elsewhere"][before:]
            assert asked == [], f"{name} asked other hosts: {asked}"
        finally:
            page.close()
    assert any(u.startswith("/mathjax/fonts/HTML-CSS/STIX-Web/") for u in served["served"])  # its web font


_JS_PLAYER = """(i) => {
  const root = document.querySelectorAll('.gt-player')[i];
  const img = root.querySelector('img.gt-frame');
  return {step: root.getAttribute('data-step'), steps: root.getAttribute('data-steps'),
          src: img.getAttribute('src'), loaded: img.complete && img.naturalWidth > 0,
          sentence: root.querySelector('.gt-sentence').innerText.trim(),
          info: root.querySelector('.gt-info').innerText.trim(),
          slider: root.querySelector('input.gt-slider').value,
          counter: (root.querySelector('.gt-step-no') || {}).textContent || '',
          data: JSON.parse(root.querySelector('script.gt-player-data').textContent)};
}"""


_JS_FRAME_LOADED = """(i) => {
  const img = document.querySelectorAll('.gt-player')[i].querySelector('img.gt-frame');
  return img.complete && img.naturalWidth > 0;
}"""


def _text(fragment):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def _expect_step(state, k, n, what):
    """The player shows step k (1-based) of n: sentence, counter, slider, info and frame agree."""
    data = state["data"]
    assert state["step"] == str(k), f"{what}: the player says step {state['step']}, expected {k}"
    assert state["sentence"].startswith(f"{k}. "), \
        f"{what}: sentence {state['sentence'][:80]!r}, expected step {k}"
    assert " ".join(state["sentence"].split()) == _text(data["sentences"][k - 1]), what
    assert state["slider"] == str(k) and state["counter"] == f"step {k} of {n}", what
    assert state["info"].startswith(f"step {k} of {n}"), what
    frame = data["frames"][k - 1]
    assert state["loaded"], f"{what}: the frame did not load"
    if frame is not None:  # (the last step's frame is the <img>'s own, as saved)
        assert state["src"] == f"data:image/png;base64,{frame}", f"{what}: the frame is not step {k}'s"


@pytest.mark.browser
def test_the_replay_player_steps_in_the_page(served):
    page, problems = _open(served, f"{REPLAY_LESSON}.html")
    try:
        players = page.locator(".gt-player")
        assert players.count() >= 2, f"{REPLAY_LESSON}: {players.count()} players on the page"
        player = players.nth(0)
        player.scroll_into_view_if_needed()
        start = page.evaluate(_JS_PLAYER, 0)
        n = int(start["steps"])
        assert n == len(start["data"]["sentences"]) > 10
        _expect_step(start, n, n, "on opening (the finished search)")
        initial_src = start["src"]
        page.screenshot(path=str(served["shots"] / f"{REPLAY_LESSON}-player-open.png"))

        def act(what, do, k):
            before = page.evaluate(_JS_PLAYER, 0)
            do()
            page.wait_for_function(_JS_FRAME_LOADED, arg=0, timeout=10_000)  # a new data: URL decodes
            after = page.evaluate(_JS_PLAYER, 0)
            _expect_step(after, k, n, what)
            assert after["src"] != before["src"], f"{what}: the frame did not change"
            assert after["sentence"] != before["sentence"], f"{what}: the sentence did not change"
            return after

        act("◀ back", lambda: player.locator("button.gt-back").click(), n - 1)
        act("step ▶", lambda: player.locator("button.gt-step").click(), n)
        slider = player.locator("input.gt-slider")
        act("the slider's Home key", lambda: (slider.focus(), page.keyboard.press("Home")), 1)
        # The first cutoff after step 1: the first step whose sentence says the search prunes.
        sentences = [_text(s) for s in start["data"]["sentences"]]
        cutoff = next(k for k in range(2, n + 1) if re.search(r"\bprune", sentences[k - 1]))
        act("next cutoff ✂", lambda: player.locator("button.gt-next").click(), cutoff)
        assert "prune" in page.evaluate(_JS_PLAYER, 0)["sentence"]
        middle = n // 2 if n // 2 != cutoff else n // 2 + 1
        act("the slider set to a step", lambda: slider.evaluate(
            """(s, v) => { s.value = String(v); s.dispatchEvent(new Event('input', {bubbles: true}));
                           s.dispatchEvent(new Event('change', {bubbles: true})); }""", middle), middle)
        act("the slider's → key", lambda: (slider.focus(), page.keyboard.press("ArrowRight")), middle + 1)
        # The second player is another search: stepping the first left it on its finished search.
        second = page.evaluate(_JS_PLAYER, 1)
        _expect_step(second, int(second["steps"]), int(second["steps"]), "the second player, untouched")
        assert second["src"] != initial_src
        player.evaluate("el => el.scrollIntoView({block: 'start'})")
        page.screenshot(path=str(served["shots"] / f"{REPLAY_LESSON}-player-stepped.png"))
        assert not problems, problems
        assert served["elsewhere"] == [], f"requests to other hosts: {served['elsewhere']}"
    finally:
        with contextlib.suppress(Exception):
            page.screenshot(path=str(served["shots"] / f"{REPLAY_LESSON}-last.png"))
        page.close()
