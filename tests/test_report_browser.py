"""The demo's report.html in a real headless browser: no console errors, every figure drawn and labelled.

Chromium (Debian's ``chromium`` package; ``.ci/run`` installs it when it can) is driven through
the DevTools protocol over ``--remote-debugging-pipe`` (NUL-separated JSON on file
descriptors 3 and 4 — no port, no websocket).  The page is loaded from a ``file://`` URL;
console errors, uncaught exceptions, log errors and any request that is not ``file:`` or
``data:`` fail the test; every ``<svg>`` must be ``role="img"`` with a non-empty title and
description, and a screenshot of each figure's region must hold drawn (non-white) pixels
(every collapsed section opened first).  The page is browsed as a reader does, at 1 400 and
800 px: screenshots of both (saved under the test's ``tmp_path``), nothing wider than the
window at 800 px (a wide table scrolls in its own box), the sidebar beside the report at
1 400 px and above it at 800 px, a click on a section heading closing and reopening it, a
click on a column heading sorting the table, and a sidebar link opening a closed section.
Skips with the reason when ``/usr/bin/chromium`` is absent.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import select
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from causalcheck.cli import main

CHROMIUM = Path("/usr/bin/chromium")

# slow (a browser start per test, ~9 s each): CI runs them under -m slow, after installing Chromium
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is absent (apt-get install -y chromium)"),
]

_FIGURES_JS = """
(() => Array.from(document.querySelectorAll('svg')).map(s => {
  const r = s.getBoundingClientRect();
  const ids = (s.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean);
  return {id: s.id, role: s.getAttribute('role'),
          labels: ids.map(i => { const e = document.getElementById(i); return e ? e.tagName + ':' + e.textContent : null; }),
          x: r.left + window.scrollX, y: r.top + window.scrollY, w: r.width, h: r.height,
          shapes: s.querySelectorAll('path,line,rect,circle,polygon,polyline,text').length};
}))()
"""


_LAYOUT_JS = """
(() => {
  const box = e => { const r = e.getBoundingClientRect(); return {x: r.left, y: r.top, r: r.right, b: r.bottom}; };
  const overlap = (a, b) => Math.min(a.r, b.r) - Math.max(a.x, b.x) > 1 && Math.min(a.b, b.b) - Math.max(a.y, b.y) > 1;
  const name = e => (e.closest('svg') || {}).id + ':' + e.textContent;
  const out = {clipped: [], outside: [], overlaps: [], small: [], fractional: [], counts: 0, ends: [], toc: []};
  for (const e of document.querySelectorAll('.wide, .scroll, figure, main, p, td, th'))
    if (e.scrollWidth > e.clientWidth + 1) out.clipped.push(e.className + ':' + e.textContent.slice(0, 60));
  for (const s of document.querySelectorAll('svg')) {
    const sb = box(s), texts = Array.from(s.querySelectorAll('text'));
    for (const t of texts) { const b = box(t); if (b.x < sb.x - 1 || b.r > sb.r + 1 || b.y < sb.y - 1 || b.b > sb.b + 1) out.outside.push(name(t)); }
    const items = [...texts.filter(t => !t.closest('.legend-item')), ...s.querySelectorAll('.legend-item')].map(e => [e, box(e)]);
    for (let i = 0; i < items.length; i++) for (let j = i + 1; j < items.length; j++)
      if (overlap(items[i][1], items[j][1])) out.overlaps.push(name(items[i][0]) + ' | ' + name(items[j][0]));
    const scale = sb.r - sb.x > 0 ? (sb.r - sb.x) / s.viewBox.baseVal.width : 1;
    for (const t of s.querySelectorAll('.node-label')) { const px = parseFloat(getComputedStyle(t).fontSize) * scale; if (px < 11) out.small.push(name(t) + ' ' + px); }
    for (const a of s.querySelectorAll('.axis.count')) { out.counts++; for (const t of a.querySelectorAll('.tick')) if (!/^-?\\d+$/.test(t.textContent)) out.fractional.push(name(t)); }
    for (const panel of s.querySelectorAll('g[transform]')) {  // arrow tips in one panel's coordinates
      const tips = Array.from(panel.querySelectorAll('path.edge')).map(p => p.getPointAtLength(p.getTotalLength()));
      for (let i = 0; i < tips.length; i++) for (let j = i + 1; j < tips.length; j++)
        if (Math.hypot(tips[i].x - tips[j].x, tips[i].y - tips[j].y) < 4) out.ends.push(s.id);
    }
  }
  for (const ul of document.querySelectorAll('nav ul')) {
    const cs = getComputedStyle(ul);
    if (cs.columnCount !== 'auto' || cs.columnWidth !== 'auto') out.toc.push('columns on ' + ul.textContent.slice(0, 30));
    const parent = ul.parentElement.closest('li');
    if (parent) { const pb = box(parent); for (const li of ul.children) { const b = box(li); if (b.x < pb.x || b.r > pb.r + 1 || b.y < pb.y || b.b > pb.b + 1) out.toc.push('outside its section: ' + li.textContent); } }
  }
  return out;
})()
"""


#: Open every collapsed section (and sidebar list), so that everything on the page is laid out.
_OPEN_ALL_JS = "document.querySelectorAll('details').forEach(d => { d.open = true; }), 0"


class DevTools:
    """A minimal DevTools-protocol client over Chromium's ``--remote-debugging-pipe``."""

    def __init__(self, user_data: Path) -> None:
        to_r, self._to_w = os.pipe()  # we write commands, Chromium reads fd 3
        self._from_r, from_w = os.pipe()  # Chromium writes fd 4, we read
        args = [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                f"--user-data-dir={user_data}", "--remote-debugging-pipe", "--window-size=1280,900", "about:blank"]

        def child_fds() -> None:  # in the child: the pipe ends become fds 3 and 4 (inheritable; others close on exec)
            a, b = os.dup(to_r), os.dup(from_w)  # first out of the way of 3 and 4
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(args, close_fds=False, preexec_fn=child_fds,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self._buf = b""
        self._id = 0
        self.events: list[dict[str, Any]] = []

    def _messages(self, deadline: float) -> Iterator[dict[str, Any]]:
        while time.monotonic() < deadline:
            while b"\0" in self._buf:
                raw, self._buf = self._buf.split(b"\0", 1)
                yield json.loads(raw)
            ready, _, _ = select.select([self._from_r], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            chunk = os.read(self._from_r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self._buf += chunk
        raise TimeoutError("no answer from chromium in time")

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None, timeout: float = 30) -> dict[str, Any]:
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._to_w, json.dumps(msg).encode() + b"\0")
        for m in self._messages(time.monotonic() + timeout):
            if m.get("id") == self._id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return dict(m.get("result") or {})
            self.events.append(m)
        raise TimeoutError(method)

    def wait_event(self, name: str, timeout: float = 30) -> dict[str, Any]:
        for m in list(self.events):
            if m.get("method") == name:
                return m
        for m in self._messages(time.monotonic() + timeout):
            self.events.append(m)
            if m.get("method") == name:
                return m
        raise TimeoutError(name)

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, TimeoutError, OSError):
            self.send("Browser.close", timeout=5)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        os.close(self._to_w)
        os.close(self._from_r)


def _ink(png: bytes) -> float:
    """Share of pixels that are not (near) white in a PNG screenshot."""
    from PIL import Image

    im = Image.open(io.BytesIO(png)).convert("L")
    hist = im.histogram()
    return 1 - sum(hist[245:]) / max(1, im.width * im.height)


@pytest.fixture(scope="module")
def demo_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report.html that ``causalcheck demo`` writes."""
    out = tmp_path_factory.mktemp("demo")
    assert main(["demo", "--out", str(out), "--quiet"]) == 0
    return out / "report.html"


def layout_of(page: Path, profile: Path, width: int = 1400) -> dict[str, Any]:
    """What the layout inspection finds in *page* at *width* px: clipped elements, text outside its figure,
    overlapping labels and legend items, small node labels, fractional count ticks, shared arrowheads, TOC faults."""
    dt = DevTools(profile)
    try:
        target = dt.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = dt.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        dt.send("Page.enable", session=session)
        dt.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": 1000, "deviceScaleFactor": 1, "mobile": False}, session=session)
        dt.send("Page.navigate", {"url": page.resolve().as_uri()}, session=session)
        dt.wait_event("Page.loadEventFired", timeout=60)
        dt.send("Runtime.evaluate", {"expression": _OPEN_ALL_JS}, session=session)
        found: dict[str, Any] = dt.send("Runtime.evaluate", {"expression": _LAYOUT_JS, "returnByValue": True}, session=session)["result"]["value"]
    finally:
        dt.close()
    return found


def inspect_page(page: Path, profile: Path) -> tuple[list[dict[str, Any]], list[str], list[dict[str, Any]], dict[str, float]]:
    """Load *page*; its console/log errors, requested URLs, SVG figures (geometry, labels) and ink per figure."""
    import base64

    dt = DevTools(profile)
    try:
        target = dt.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = dt.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            dt.send(f"{domain}.enable", session=session)
        dt.send("Page.navigate", {"url": page.resolve().as_uri()}, session=session)
        dt.wait_event("Page.loadEventFired", timeout=60)
        time.sleep(0.3)  # late console messages and requests
        dt.send("Runtime.evaluate", {"expression": _OPEN_ALL_JS}, session=session)
        figures = dt.send("Runtime.evaluate", {"expression": _FIGURES_JS, "returnByValue": True}, session=session)["result"]["value"]
        shots = {}
        for f in figures:
            clip = {"x": f["x"], "y": f["y"], "width": max(f["w"], 1), "height": max(f["h"], 1), "scale": 1}
            data = dt.send("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True}, session=session)["data"]
            shots[f["id"]] = _ink(base64.b64decode(data))
    finally:
        dt.close()
    errors = [m for m in dt.events if m.get("method") == "Runtime.exceptionThrown"
              or (m.get("method") == "Runtime.consoleAPICalled" and m["params"].get("type") in ("error", "assert"))
              or (m.get("method") == "Log.entryAdded" and m["params"]["entry"].get("level") == "error")]
    requests = [m["params"]["request"]["url"] for m in dt.events if m.get("method") == "Network.requestWillBeSent"]
    return errors, requests, figures, shots


def test_demo_report_renders_in_chromium(demo_report: Path, tmp_path: Path) -> None:
    """No console error or outside request; every figure is labelled and has drawn pixels on screen."""
    errors, requests, figures, shots = inspect_page(demo_report, tmp_path / "profile")
    assert errors == []
    assert requests and all(u.startswith(("file:", "data:")) for u in requests), requests
    assert len(figures) >= 15  # lab curves, scatter, bars, episode drawings, explain boxes and graphs, check graphs
    for f in figures:
        assert f["role"] == "img", f["id"]
        assert len(f["labels"]) == 2 and f["labels"][0].startswith("title:") and len(f["labels"][0]) > 8, f
        assert f["labels"][1].startswith("desc:") and len(f["labels"][1]) > 12, f
        assert f["w"] > 50 and f["h"] > 50 and f["shapes"] > 3, f
        assert shots[f["id"]] > 0.01, (f["id"], shots[f["id"]])


def test_inspection_catches_errors_blank_figures_and_outside_requests(demo_report: Path, tmp_path: Path) -> None:
    """A planted console error, an outside image and a blank unlabelled figure are all seen by the inspection."""
    page = tmp_path / "broken.html"
    planted = ('<svg id="blank" width="200" height="120"><rect width="200" height="120" fill="#fff"/></svg>'
               '<img src="http://127.0.0.1:9/x.png" alt="x"><script>console.error("planted")</script></main>')
    page.write_text(demo_report.read_text(encoding="utf-8").replace("</main>", planted, 1), encoding="utf-8")
    errors, requests, figures, shots = inspect_page(page, tmp_path / "profile")
    assert any(m.get("method") == "Runtime.consoleAPICalled" for m in errors)
    assert any(u.startswith("http:") for u in requests)
    blank = next(f for f in figures if f["id"] == "blank")
    assert blank["role"] is None and blank["labels"] == [] and shots["blank"] < 0.01


def test_demo_report_layout_at_1400_px(demo_report: Path, tmp_path: Path) -> None:
    """At 1400 px nothing scrolls or is clipped, no label or legend item overlaps another, node labels are >= 11 px."""
    found = layout_of(demo_report, tmp_path / "profile")
    assert found["clipped"] == [] and found["outside"] == [], (found["clipped"], found["outside"])
    assert found["overlaps"] == [] and found["small"] == [], (found["overlaps"], found["small"])
    assert found["counts"] >= 3 and found["fractional"] == [], found  # episodes running, node count, longest path
    assert found["ends"] == [] and found["toc"] == [], (found["ends"], found["toc"])


def test_layout_inspection_sees_planted_defects(demo_report: Path, tmp_path: Path) -> None:
    """A too-wide table, a clipped title, overlapping legend items, a 9 px node label, a 2.5 tick and TOC columns are all seen."""
    planted = ('<div class="wide"><table><tr><td>' + "x" * 400 + '</td></tr></table></div>'
               '<style>nav ul{columns:2}</style>'
               '<svg id="bad" viewBox="0 0 100 60" width="100" height="60"><text x="5" y="12">a title much too long for this</text>'
               '<g class="legend-item"><text x="5" y="30">edge</text></g><g class="legend-item"><text x="12" y="30">cycle</text></g>'
               '<text class="node-label" x="5" y="50" font-size="9">n</text>'
               '<g class="axis count"><text class="tick" x="60" y="50">2.5</text></g></svg></main>')
    page = tmp_path / "broken.html"
    page.write_text(demo_report.read_text(encoding="utf-8").replace("</main>", planted, 1), encoding="utf-8")
    found = layout_of(page, tmp_path / "profile")
    assert any(c.startswith("wide:") for c in found["clipped"])
    assert any(o.startswith("bad:a title") for o in found["outside"])
    assert any(o.startswith("bad:edge") for o in found["overlaps"])
    assert any(s.startswith("bad:n") for s in found["small"]) and "bad:2.5" in found["fractional"]
    assert any(t.startswith("columns on") for t in found["toc"])


class Page:
    """One page open in headless Chromium at a given window width: evaluate script, click like a mouse, take screenshots."""

    def __init__(self, page: Path, profile: Path, width: int, height: int = 1000) -> None:
        self.dt = DevTools(profile)
        self.width, self.height = width, height
        target = self.dt.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.dt.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.dt.send("Page.enable", session=self.session)
        self.dt.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                     session=self.session)
        self.dt.send("Page.navigate", {"url": page.resolve().as_uri()}, session=self.session)
        self.dt.wait_event("Page.loadEventFired", timeout=60)

    def js(self, expression: str) -> Any:
        return self.dt.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=self.session)["result"].get("value")

    def click(self, selector: str) -> None:
        """A real mouse click (pressed and released) in the middle of the first box of the first element matching
        *selector* (a link that wraps has several boxes: its middle may be in none of them)."""
        box = self.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); e.scrollIntoView({{block: 'center'}});"
                      " const r = e.getClientRects()[0]; return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()")
        for kind in ("mousePressed", "mouseReleased"):
            self.dt.send("Input.dispatchMouseEvent", {"type": kind, "x": box["x"], "y": box["y"], "button": "left", "clickCount": 1},
                         session=self.session)

    def screenshot(self, path: Path) -> Path:
        """The window's view of the top of the page, as PNG."""
        import base64

        self.js("window.scrollTo(0, 0), 0")
        data = self.dt.send("Page.captureScreenshot", {"format": "png"}, session=self.session)["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        self.dt.close()


@contextlib.contextmanager
def opened(page: Path, profile: Path, width: int) -> Iterator[Page]:
    """*page* open at *width* px for the duration of the block."""
    p = Page(page, profile, width)
    try:
        yield p
    finally:
        p.close()


_FIT_JS = """
(() => {
  const doc = document.documentElement, nav = document.querySelector('nav.side').getBoundingClientRect();
  const main = document.querySelector('main').getBoundingClientRect();
  const cut = [];
  for (const t of document.querySelectorAll('main table')) {
    const r = t.getBoundingClientRect();
    if (r.width === 0) continue;  // in a closed section
    const box = t.parentElement, style = getComputedStyle(box);
    const scrolls = box.scrollWidth > box.clientWidth + 1;
    if (box.getBoundingClientRect().right > doc.clientWidth + 1 || (scrolls && !/(auto|scroll)/.test(style.overflowX)))
      cut.push((t.caption || {}).textContent || t.textContent.slice(0, 40));
  }
  const wide = Array.from(document.querySelectorAll('main table')).filter(t => t.parentElement.scrollWidth > t.parentElement.clientWidth + 1).length;
  return {scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth, cut, wide,
          navRight: nav.right, navBottom: nav.bottom, mainLeft: main.left, mainTop: main.top};
})()
"""


def test_the_report_reads_at_1400_and_800_px(demo_report: Path, tmp_path: Path) -> None:
    """Screenshots at both widths; at 800 px nothing is wider than the window (wide tables scroll in their own box)
    and the sidebar sits above the report, at 1 400 px beside it."""
    shots = []
    for width in (1400, 800):
        with opened(demo_report, tmp_path / f"profile-{width}", width) as page:
            shots.append(page.screenshot(tmp_path / f"report-{width}.png"))
            page.js(_OPEN_ALL_JS)
            fit = page.js(_FIT_JS)
        assert fit["scrollWidth"] <= fit["clientWidth"], (width, fit)
        assert fit["cut"] == [], (width, fit["cut"])
        if width == 1400:
            assert fit["navRight"] <= fit["mainLeft"] + 1 and fit["mainTop"] < 5, fit  # beside
        else:
            assert fit["navBottom"] <= fit["mainTop"] + 1, fit  # above
            assert fit["wide"] >= 1, fit  # the agents table (and others) scroll inside their box at 800 px
    from PIL import Image

    for shot, width in zip(shots, (1400, 800), strict=True):
        with Image.open(shot) as im:
            assert im.size == (width, 1000)
        assert _ink(shot.read_bytes()) > 0.02


def test_a_click_on_a_heading_closes_and_reopens_its_section(demo_report: Path, tmp_path: Path) -> None:
    """Sections are <details>: a click on "Recovery over steps" hides its figures, a second click shows them again."""
    with opened(demo_report, tmp_path / "profile", 1400) as page:
        state = ("(() => { const d = document.querySelector('#recovery-over-steps > details'); "
                 "return [d.open, d.querySelector('svg').checkVisibility(), d.getBoundingClientRect().height]; })()")
        first = page.js(state)
        assert first[:2] == [True, True] and first[2] > 300, first
        page.click("#recovery-over-steps > details > summary")
        closed = page.js(state)
        assert closed[:2] == [False, False] and closed[2] < 60, closed
        page.click("#recovery-over-steps > details > summary")
        opened_again = page.js(state)
    assert opened_again == first


_COLUMN_JS = """
((caption, col) => {
  const t = Array.from(document.querySelectorAll('main table')).find(t => t.caption && t.caption.textContent.startsWith(caption));
  return Array.from(t.tBodies[0].rows).map(r => [r.className, r.cells[col].textContent]);
})(%s, %d)
"""


def test_a_click_on_a_column_heading_sorts_the_table(demo_report: Path, tmp_path: Path) -> None:
    """Every-episode table by edge F1: ascending, then descending; the per-domain table keeps Overall last."""
    with opened(demo_report, tmp_path / "profile", 1400) as page:
        page.js(_OPEN_ALL_JS)
        before = page.js(_COLUMN_JS % ('"Every episode"', 5))
        page.click("#episodes table thead tr:last-child th:nth-child(6)")
        up = page.js(_COLUMN_JS % ('"Every episode"', 5))
        page.click("#episodes table thead tr:last-child th:nth-child(6)")
        down = page.js(_COLUMN_JS % ('"Every episode"', 5))
        sort_state = page.js("document.querySelector('#episodes table thead tr:last-child th:nth-child(6)').getAttribute('aria-sort')")
        page.click("#per-domain table thead tr:last-child th:nth-child(5)")  # the first model's Final
        domains = page.js(_COLUMN_JS % ('"Per domain"', 0))
    values = [float(v) for _, v in before]
    assert [float(v) for _, v in up] == sorted(values) != values
    assert [float(v) for _, v in down] == sorted(values, reverse=True)
    assert sort_state == "descending"
    assert domains[-1] == ["total", "Overall"]


def test_a_sidebar_link_opens_the_closed_section_it_points_to(demo_report: Path, tmp_path: Path) -> None:
    """Episodes start closed; following an episode's link in the sidebar opens it and brings it into view."""
    with opened(demo_report, tmp_path / "profile", 1400) as page:
        target = page.js("document.querySelector('#episodes section section').id")
        assert page.js(f"document.getElementById({json.dumps(target)}).querySelector('details').open") is False
        page.click(f'nav.side a[href="#{target}"]')
        time.sleep(0.2)
        state = page.js(f"(() => {{ const s = document.getElementById({json.dumps(target)}); const r = s.getBoundingClientRect();"
                        " return [s.querySelector('details').open, r.top, innerHeight]; })()")
    assert state[0] is True and -2 <= state[1] < state[2], state
