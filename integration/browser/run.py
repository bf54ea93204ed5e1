#!/usr/bin/env python3
"""Browser test of the playground and the SVG wireframe, on the end-to-end harness
(integration/e2e/harness.py: its check registry, server and runner, and its HTTP client,
which validates every response against openapi.yaml).

Starts `layoutd serve` (the binary given by --binary) on a free port with an in-memory
database, then:

- checks `POST /solve` answering `image/svg+xml` (by `Accept` and by `?format=svg`):
  well-formed XML (xml.etree), every view's rect carrying the frame that the JSON
  `/solve` reports, absolute positions that add up the parents' offsets, a viewBox that
  holds every rect, one panel per size of a `sizes` request;
- checks `GET /` is one self-contained HTML page (no external URL);
- drives headless Chromium (Debian's `chromium`; install it with
  scripts/install-browser.sh) over the DevTools protocol (cdp.py, standard library
  only): loads the page, types a scene into `#scene`, waits for the debounced re-solve,
  and compares the rects in the DOM with `/solve`'s frames; types an edit key by key and
  checks the solves were coalesced (debounce); enters a scene with a VFL syntax error and
  checks the caret line sits under the column `/validate` reports; picks each example,
  clicks its views and reads the inspector; saves screenshots to artifacts/.

Prints one PASS/FAIL line per check and "N passed, M failed"; exits 1 on any failure.
Installs nothing. Usage: python3 integration/browser/run.py --binary .build/debug/layoutd
"""

import argparse
import json
import os
import re
import shutil
import sys
import time
import urllib.parse
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "integration", "e2e"))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import cdp  # noqa: E402
import harness  # noqa: E402
from harness import REGISTRY, CheckFailed, Context, Server, check  # noqa: E402

SVG_NS = "{http://www.w3.org/2000/svg}"

# ---------------------------------------------------------------------------
# Scenes

CONTRACT = {
    "container": {"width": 375, "height": 667},
    "views": {
        "card": {},
        "title": {"parent": "card", "intrinsicSize": {"width": 120, "height": 21}, "baseline": 17},
        "icon": {"parent": "card", "intrinsicSize": {"width": 24, "height": 24},
                 "hugging": {"horizontal": 251}, "compressionResistance": {"horizontal": 749}},
    },
    "metrics": {"pad": 16},
    "constraints": [
        "H:|-pad-[card]-pad-|",
        "V:|-20-[card(>=44)]",
        {"vfl": "H:|-[icon]-[title]-|", "options": ["alignAllCenterY"]},
        "V:|-[title]-|",
        {"id": "title-min", "equation": "title.width >= 80", "priority": 750},
    ],
}

# Three levels of nesting and fractional positions: the scene typed into the page.
NESTED = {
    "container": {"width": 400, "height": 300},
    "views": {
        "panel": {},
        "header": {"parent": "panel"},
        "button": {"parent": "header"},
        "body": {"parent": "panel"},
    },
    "constraints": [
        "H:|-24-[panel]-24-|",
        "V:|-30-[panel(200)]",
        "H:|-10-[header]-10-|",
        "V:|-10-[header(50)]-12.5-[body]-10-|",
        "H:|-10-[body]-10-|",
        "H:[button(80)]-7.25-|",
        "V:|-5-[button]-5-|",
    ],
}

SYNTAX_ERROR = {
    "container": {"width": 375, "height": 100},
    "views": ["red", "blue"],
    "constraints": ["V:|[red]|", "H:|-0-[red-0-|", "H:|[blue]|"],
}

SIZES = {
    "views": ["a", "b"],
    "constraints": ["H:|-10-[a]-8-[b(==a)]-10-|", "V:|-10-[a]-10-|", "V:|-10-[b]-10-|"],
    "sizes": [{"width": 200, "height": 100}, {"width": 320, "height": 60}, {"width": 120, "height": 80}],
}



def expect(condition, message):
    if not condition:
        raise CheckFailed(message)


# ---------------------------------------------------------------------------
# The browser: started by the first check that needs it, closed by the runner


def page(ctx):
    """The Chromium of this run, on the playground (started and navigated on first use;
    `browser/initial-example` checks the load). Fails when Chromium is missing or does not
    start, with the same reason for every browser check."""
    state = ctx.__dict__.setdefault("browser_state", {})
    if "error" in state:
        raise CheckFailed(state["error"])
    if "browser" not in state:
        executable = ctx.args.chromium or shutil.which("chromium") or shutil.which("chromium-browser")
        if not executable:
            state["error"] = "chromium is not installed (run scripts/install-browser.sh)"
            raise CheckFailed(state["error"])
        try:
            browser = cdp.Browser(executable, ctx.workdir, init_script=CSP_RECORDER)
        except Exception as error:
            state["error"] = f"chromium did not start: {type(error).__name__}: {error}"
            raise CheckFailed(state["error"])
        ctx.closers.append(browser.close)
        state["browser"] = browser
        browser.navigate(f"http://127.0.0.1:{ctx.port}/")
    return state["browser"]


def loaded_page(ctx):
    """`page(ctx)` once `browser/initial-example` has seen the first wireframe."""
    browser = page(ctx)
    if not ctx.browser_state.get("loaded"):
        raise CheckFailed("the playground did not show its first wireframe (browser/initial-example)")
    return browser


# ---------------------------------------------------------------------------
# Helpers


def solve_json(ctx, scene):
    r = ctx.request("POST", "/solve", scene)
    expect(r.status == 200, f"/solve answered {r.status}: {r.body[:300]!r}")
    return r.json()


def absolute_frames(frames, scene):
    """Frames relative to the container, from /solve's parent-relative frames."""
    views = scene.get("views", {})
    parents = {name: (spec.get("parent") if isinstance(views, dict) else None)
               for name, spec in (views.items() if isinstance(views, dict) else ((v, {}) for v in views))}
    result = {}

    def resolve(name, depth=0):
        if name in result:
            return result[name]
        frame = frames[name]
        parent = parents.get(name)
        if name == "superview" or depth > 64:
            origin = (0.0, 0.0)
        else:
            parent_frame = resolve(parent or "superview", depth + 1)
            origin = (parent_frame[0], parent_frame[1])
        result[name] = (frame["x"] + origin[0], frame["y"] + origin[1], frame["width"], frame["height"])
        return result[name]

    for name in frames:
        resolve(name)
    return result


def svg_rects(root):
    """{panel index: {view: rect attributes}} of a parsed wireframe."""
    panels = []
    for panel in root.iter(f"{SVG_NS}g"):
        if panel.get("class") != "panel":
            continue
        rects = {}
        for group in panel.iter(f"{SVG_NS}g"):
            view = group.get("data-view")
            rect = group.find(f"{SVG_NS}rect")
            if view is not None and rect is not None:
                rects[view] = rect.attrib
        panels.append(rects)
    return panels


def compare_rects(rects, frames, scene, where):
    expect(set(rects) == set(frames), f"{where}: views {sorted(rects)} != frames {sorted(frames)}")
    absolute = absolute_frames(frames, scene)
    for name, frame in frames.items():
        rect = rects[name]
        got = [float(rect["data-x"]), float(rect["data-y"]), float(rect["data-width"]), float(rect["data-height"])]
        want = [frame["x"], frame["y"], frame["width"], frame["height"]]
        expect(got == want, f"{where}: {name} data-x/y/width/height {got} != /solve frame {want}")
        drawn = [float(rect["x"]), float(rect["y"]), float(rect["width"]), float(rect["height"])]
        expect(all(abs(a - b) < 1e-6 for a, b in zip(drawn, absolute[name])),
               f"{where}: {name} x/y/width/height {drawn} != absolute {list(absolute[name])}")


# ---------------------------------------------------------------------------
# HTTP checks


def check_svg_endpoint(ctx, scene, how):
    path, headers = ("/solve?format=svg", {}) if how == "query" else ("/solve", {"Accept": "image/svg+xml"})
    r = ctx.request("POST", path, scene, headers)
    expect(r.status == 200, f"status {r.status}: {r.body[:300]!r}")
    expect(r.headers.get("content-type") == "image/svg+xml; charset=utf-8",
           f"Content-Type {r.headers.get('content-type')!r}")
    root = ET.fromstring(r.body)  # raises on XML that is not well-formed
    expect(root.tag == f"{SVG_NS}svg", f"root element {root.tag}")
    frames = solve_json(ctx, scene)["frames"]
    panels = svg_rects(root)
    expect(len(panels) == 1, f"{len(panels)} panels")
    compare_rects(panels[0], frames, scene, how)
    # The viewBox holds every rect (after the panel's translation).
    box = [float(v) for v in root.get("viewBox").split()]
    panel = next(g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "panel")
    dx, dy = (float(v) for v in re.fullmatch(r"translate\((\S+) (\S+)\)", panel.get("transform")).groups())
    for name, rect in panels[0].items():
        left, top = float(rect["x"]) + dx, float(rect["y"]) + dy
        right, bottom = left + float(rect["width"]), top + float(rect["height"])
        expect(box[0] <= left and box[1] <= top and right <= box[0] + box[2] and bottom <= box[1] + box[3],
               f"{name} ({left},{top})–({right},{bottom}) outside viewBox {box}")


def check_svg_sizes(ctx):
    r = ctx.request("POST", "/solve", SIZES, {"Accept": "image/svg+xml"})
    expect(r.status == 200, f"status {r.status}")
    root = ET.fromstring(r.body)
    layouts = solve_json(ctx, SIZES)["layouts"]
    panels = svg_rects(root)
    expect(len(panels) == len(SIZES["sizes"]) == len(layouts), f"{len(panels)} panels for {len(SIZES['sizes'])} sizes")
    for index, (rects, layout) in enumerate(zip(panels, layouts)):
        compare_rects(rects, layout["frames"], SIZES, f"panel {index}")
    captions = [t.text for t in root.iter(f"{SVG_NS}text") if t.get("class") == "caption"]
    expect(captions == ["200×100", "320×60", "120×80"], f"captions {captions}")


def check_svg_syntax_error(ctx):
    r = ctx.request("POST", "/solve", SYNTAX_ERROR, {"Accept": "image/svg+xml"})
    expect(r.status == 422, f"status {r.status}")
    expect(r.headers.get("content-type") == "application/problem+json", f"Content-Type {r.headers.get('content-type')}")
    expect(r.json()["diagnostics"][0]["code"] == "vfl_syntax", r.body[:200])


def check_json_by_default(ctx):
    for accept in (None, "*/*", "application/json, image/svg+xml", "image/svg+xml;q=0.5, application/json"):
        r = ctx.request("POST", "/solve", CONTRACT, {"Accept": accept} if accept else {})
        expect(r.status == 200 and r.headers.get("content-type") == "application/json",
               f"Accept {accept!r}: {r.status} {r.headers.get('content-type')}")


def check_page(ctx):
    r = ctx.request("GET", "/")
    headers, body = r.headers, r.body
    expect(r.status == 200, f"status {r.status}")
    policy = headers.get("content-security-policy", "")
    expect("frame-ancestors 'none'" in policy and "unsafe-inline" not in policy, f"Content-Security-Policy {policy!r}")
    expect(headers.get("x-content-type-options") == "nosniff", f"X-Content-Type-Options {headers.get('x-content-type-options')!r}")
    expect(headers.get("content-type") == "text/html; charset=utf-8", f"Content-Type {headers.get('content-type')}")
    page = body.decode()
    for needle in ('id="scene"', 'id="wireframe"', 'id="diagnostics"', 'id="examples"'):
        expect(needle in page, f"missing {needle}")
    external = re.findall(r"(?:https?:)?//[A-Za-z0-9.-]+\.[A-Za-z]{2,}", page)
    expect(not external, f"external URLs in the page: {external[:5]}")
    expect(not re.search(r"<(script|link|img|iframe)[^>]*\s(src|href)\s*=", page), "the page loads a resource")


# ---------------------------------------------------------------------------
# Browser checks

READ_RECTS = """
JSON.stringify(Array.from(document.querySelectorAll('#wireframe g.view')).map(function (g) {
  var r = g.querySelector(':scope > rect');
  var box = r.getBoundingClientRect();
  return {view: g.getAttribute('data-view'), classes: g.getAttribute('class'),
          dx: r.getAttribute('data-x'), dy: r.getAttribute('data-y'),
          dw: r.getAttribute('data-width'), dh: r.getAttribute('data-height'),
          x: r.getAttribute('x'), y: r.getAttribute('y'), w: r.getAttribute('width'), h: r.getAttribute('height'),
          shown: box.width > 0 || box.height > 0,
          title: (r.querySelector('title') || {}).textContent || null};
}))
"""


CSP_RECORDER = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', function (event) {
  window.__cspViolations.push(event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline') +
                              ' (' + (event.sample || '') + ')');
});
"""


def check_browser_csp(ctx):
    """The page ran every check above under its Content-Security-Policy without a single
    violation (neither the DOM's securitypolicyviolation events nor the console's security
    messages), and the wireframe's own <style>, inserted with the SVG, applied: a view's
    rectangle has the stroke its rule gives (#3a6fc4)."""
    browser = loaded_page(ctx)
    violations = browser.evaluate("JSON.stringify(window.__cspViolations || null)")
    expect(violations == "[]", f"CSP violations in the page: {violations}")
    console = [e["params"]["entry"].get("text", "") for e in browser.events
               if e.get("method") == "Log.entryAdded"
               and ("Content Security Policy" in e["params"]["entry"].get("text", "")
                    or e["params"]["entry"].get("source") == "security")]
    expect(not console, f"console security messages: {console[:3]}")
    stroke = browser.evaluate("(function () { var r = document.querySelector('#wireframe g.view:not(.container) > rect');"
                              " return r ? getComputedStyle(r).stroke : null; })()")
    expect(stroke == "rgb(58, 111, 196)", f"the wireframe's style did not apply: stroke {stroke!r}")


def enter_scene(browser, scene):
    """Replaces the editor's text as a person would (select all, type), then waits for
    the debounced re-solve to land for this very edit."""
    before = int(browser.evaluate("document.getElementById('wireframe').dataset.revision"))
    browser.evaluate("var s = document.getElementById('scene'); s.focus(); s.select(); true")
    browser.command("Input.insertText", text=json.dumps(scene, indent=2))
    browser.wait_for(f"Number(document.getElementById('wireframe').dataset.revision) > {before}"
                     " && document.getElementById('wireframe').dataset.state !== 'pending'"
                     " && document.getElementById('diagnostics').dataset.state === 'ok'", "the re-solve")
    # Exactly one solve for the whole paste: the debounce coalesced the input events.
    return int(browser.evaluate("document.getElementById('wireframe').dataset.revision")) - before


def check_browser_typing_is_debounced(ctx):
    """Types a change key by key (each keystroke an input event): far fewer solves than
    keystrokes, and the wireframe ends on the final text."""
    browser = loaded_page(ctx)
    enter_scene(browser, NESTED)
    before = int(browser.evaluate("document.getElementById('wireframe').dataset.revision"))
    # Caret right after the container's `"width": 400`; two Backspaces and "5000" typed
    # digit by digit: 400 → 40 → 4 → 45 → 450 → 4500 → 45000 (six input events).
    browser.evaluate("""(function () { var s = document.getElementById('scene');
        var at = s.value.indexOf('"width": 400') + '"width": 400'.length; s.focus(); s.setSelectionRange(at, at); return true; })()""")
    keystrokes = 0
    for _ in range(2):
        browser.command("Input.dispatchKeyEvent", type="keyDown", key="Backspace", code="Backspace",
                        windowsVirtualKeyCode=8, nativeVirtualKeyCode=8)
        browser.command("Input.dispatchKeyEvent", type="keyUp", key="Backspace", code="Backspace",
                        windowsVirtualKeyCode=8, nativeVirtualKeyCode=8)
        keystrokes += 1
    for digit in "5000":
        browser.command("Input.insertText", text=digit)
        keystrokes += 1
    browser.wait_for(f"Number(document.getElementById('wireframe').dataset.revision) > {before}"
                     " && document.getElementById('wireframe').dataset.state === 'ok'"
                     " && document.getElementById('diagnostics').dataset.state === 'ok'", "the typed edit")
    time.sleep(0.6)  # let any further debounced solve start; it must not, the text is final
    browser.wait_for("document.getElementById('wireframe').dataset.state === 'ok'", "the last solve")
    solves = int(browser.evaluate("document.getElementById('wireframe').dataset.revision")) - before
    expect(1 <= solves < keystrokes, f"{solves} solves for {keystrokes} keystrokes")
    scene = json.loads(browser.evaluate("document.getElementById('scene').value"))
    expect(scene["container"]["width"] == 45000, f"typed text gave width {scene['container']['width']}")
    rects = dom_rects(browser)
    expect(rects["superview"]["dw"] == "45000", f"wireframe container width {rects['superview']['dw']}")


def dom_rects(browser):
    return {item["view"]: item for item in json.loads(browser.evaluate(READ_RECTS))}


def check_browser_scene(ctx, scene, name):
    browser = loaded_page(ctx)
    solves = enter_scene(browser, scene)
    expect(solves == 1, f"{solves} solves for one edit")
    expect(browser.evaluate("document.getElementById('wireframe').dataset.state") == "ok", "wireframe state not ok")
    rects = dom_rects(browser)
    frames = solve_json(ctx, scene)["frames"]
    as_attributes = {view: {"data-x": r["dx"], "data-y": r["dy"], "data-width": r["dw"], "data-height": r["dh"],
                            "x": r["x"], "y": r["y"], "width": r["w"], "height": r["h"]} for view, r in rects.items()}
    compare_rects(as_attributes, frames, scene, name)
    hidden = [view for view, r in rects.items() if not r["shown"]]
    expect(not hidden, f"rects not rendered: {hidden}")


def check_browser_syntax_error(ctx):
    browser = loaded_page(ctx)
    artifacts = ctx.args.artifacts
    enter_scene(browser, SYNTAX_ERROR)
    r = ctx.request("POST", "/validate", SYNTAX_ERROR)
    expect(r.status == 200, f"/validate {r.status}")
    wanted = [d for d in r.json()["diagnostics"] if d["code"] == "vfl_syntax"]
    expect(len(wanted) == 1, f"/validate diagnostics {wanted}")
    diagnostic = wanted[0]
    expect(diagnostic["column"] == 10 and diagnostic["source"] == "H:|-0-[red-0-|", f"unexpected {diagnostic}")
    shown = json.loads(browser.evaluate("""JSON.stringify(Array.from(document.querySelectorAll('#diagnostics .diagnostic')).map(function (d) {
        var s = d.querySelector('pre.source'), c = d.querySelector('pre.caret'), m = d.querySelector('.message');
        return {code: d.dataset.code, message: m && m.textContent, source: s && s.textContent, caret: c && c.textContent};
    }))"""))
    matching = [d for d in shown if d["code"] == "vfl_syntax"]
    expect(len(matching) == 1, f"diagnostics shown: {shown}")
    item = matching[0]
    expect(item["message"] == diagnostic["message"], f"message {item['message']!r}")
    expect(item["source"] == diagnostic["source"], f"source line {item['source']!r}")
    expect(item["caret"] == " " * diagnostic["column"] + "^", f"caret line {item['caret']!r}")
    # The caret is rendered under the character at that column (monospace: same x).
    offset = browser.evaluate("""(function () {
        var d = Array.from(document.querySelectorAll('#diagnostics .diagnostic')).find(function (e) { return e.dataset.code === 'vfl_syntax'; });
        function xAt(pre, index) { var r = document.createRange(); r.setStart(pre.firstChild, index); r.setEnd(pre.firstChild, index + 1); return r.getBoundingClientRect().left; }
        return xAt(d.querySelector('pre.caret'), %d) - xAt(d.querySelector('pre.source'), %d);
    })()""" % (diagnostic["column"], diagnostic["column"]))
    expect(abs(offset) < 0.5, f"caret is {offset} px away from column {diagnostic['column']}")
    expect(browser.evaluate("document.getElementById('wireframe').dataset.state") == "error", "wireframe should show the 422")
    browser.screenshot(os.path.join(artifacts, "playground-syntax.png"))


def check_browser_conflict_example(ctx):
    browser = loaded_page(ctx)
    artifacts = ctx.args.artifacts
    before = int(browser.evaluate("document.getElementById('wireframe').dataset.revision"))
    browser.evaluate("var e = document.getElementById('examples'); e.value = 'conflict'; e.dispatchEvent(new Event('change')); true")
    browser.wait_for(f"Number(document.getElementById('wireframe').dataset.revision) > {before}"
                     " && document.getElementById('wireframe').dataset.state === 'ok'"
                     " && document.getElementById('diagnostics').dataset.state === 'ok'", "the conflict example")
    rects = dom_rects(browser)
    warned = sorted(view for view, r in rects.items() if "warning" in r["classes"].split())
    expect("left" in warned, f"warning views {warned}")
    expect(rects["left"]["title"] and "Unable to simultaneously satisfy constraints" in rects["left"]["title"],
           f"tooltip {rects['left']['title']!r}")
    codes = browser.evaluate("Array.from(document.querySelectorAll('#diagnostics .diagnostic')).map(function (d) { return d.dataset.code; }).join(',')")
    expect("unsatisfiable_constraints" in codes, f"diagnostics {codes}")
    browser.screenshot(os.path.join(artifacts, "playground-conflict.png"))


def check_query_scene(ctx):
    browser = loaded_page(ctx)
    browser.navigate(f"http://127.0.0.1:{ctx.port}/?scene=" + urllib.parse.quote(json.dumps(NESTED)))
    browser.wait_for("document.getElementById('wireframe').dataset.state === 'ok'", "the ?scene= wireframe")
    frames = solve_json(ctx, NESTED)["frames"]
    rects = dom_rects(browser)
    expect({v: [float(r["dx"]), float(r["dy"]), float(r["dw"]), float(r["dh"])] for v, r in rects.items()}
           == {v: [f["x"], f["y"], f["width"], f["height"]] for v, f in frames.items()}, "frames differ")


# ---------------------------------------------------------------------------
# The playground that explains: the examples, the inspector, the slider, zoom, hover, links


def pick_example(browser, name):
    before = int(browser.evaluate("document.getElementById('wireframe').dataset.revision"))
    browser.evaluate("var e = document.getElementById('examples'); e.value = %s; e.dispatchEvent(new Event('change')); true"
                     % json.dumps(name))
    browser.wait_for(f"Number(document.getElementById('wireframe').dataset.revision) > {before}"
                     " && document.getElementById('wireframe').dataset.state !== 'pending'"
                     " && document.getElementById('diagnostics').dataset.state === 'ok'", f"the {name} example")


def click_at(browser, x, y):
    browser.command("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y, button="none")
    for kind in ("mousePressed", "mouseReleased"):
        browser.command("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", buttons=1 if kind == "mousePressed" else 0, clickCount=1)


# Where to click to pick each view: the middle of a part of its rect that nothing else
# covers (the topmost element there is the view's rect or its own label).
CLICK_TARGETS = """
JSON.stringify(Array.from(document.querySelectorAll('#wireframe g.panel[data-index="0"] g.view')).map(function (g) {
  var r = g.querySelector(':scope > rect').getBoundingClientRect();
  var name = g.getAttribute('data-view');
  for (var fy = 0.5; fy < 1; fy += 0.15) { for (var fx = 0.5; fx < 1; fx += 0.15) {
    var x = r.left + r.width * fx, y = r.top + r.height * fy;
    var hit = document.elementFromPoint(x, y);
    var owner = hit && hit.closest ? hit.closest('g.view, text[data-for]') : null;
    if (owner && (owner.getAttribute('data-view') || owner.getAttribute('data-for')) === name) { return {view: name, x: x, y: y}; }
  } }
  return {view: name, x: null, y: null};
}))
"""

LABEL_OVERLAPS = """
JSON.stringify((function () {
  var boxes = Array.from(document.querySelectorAll('#wireframe g.labels text')).map(function (t) {
    var b = t.getBBox(); return {text: t.textContent, x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height};
  });
  var bad = [];
  for (var i = 0; i < boxes.length; i++) { for (var j = i + 1; j < boxes.length; j++) {
    var a = boxes[i], b = boxes[j];
    var w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0), h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
    if (w > 0.5 && h > 0.5) { bad.push([a.text, b.text, w, h]); }
  } }
  return bad;
})())
"""

READ_INSPECTOR = """
JSON.stringify((function () {
  var i = document.getElementById('inspector');
  return {view: i.dataset.view, state: i.dataset.state, explained: i.dataset.explained,
          frame: (i.querySelector('.frame') || {}).textContent || null,
          constraints: Array.from(i.querySelectorAll('#inspector-constraints li')).map(function (l) { return l.textContent; }),
          fields: Array.from(i.querySelectorAll('#inspector-explanations li.field')).map(function (l) {
            return {field: l.dataset.field, text: l.textContent}; }),
          note: (i.querySelector('#inspector-explanations .none') || {}).textContent || null};
})())
"""


def check_examples_inspect(ctx):
    """Each example: loaded from the menu, every pickable view clicked in the picture, and
    the inspector reads that view's frame as /solve gives it, the scene's constraints that
    name it, and why each field has its value (or says the server does not explain)."""
    browser = loaded_page(ctx)
    artifacts = ctx.args.artifacts
    names = json.loads(browser.evaluate("JSON.stringify(Array.from(document.querySelectorAll('#examples option'))"
                                        ".map(function (o) { return o.value; }).filter(Boolean))"))
    expect({"contract", "conflict", "card", "overflow"} <= set(names), f"examples {names}")
    for name in names:
        pick_example(browser, name)
        if browser.evaluate("document.getElementById('wireframe').dataset.state") != "ok":
            expect(name == "syntax", f"{name}: no wireframe")
            continue
        scene = json.loads(browser.evaluate("document.getElementById('scene').value"))
        frames = solve_json(ctx, scene)["frames"]
        # The labels as Chromium lays them out (its own font metrics, not the renderer's
        # estimate): no two overlap by more than half a point.
        overlaps = json.loads(browser.evaluate(LABEL_OVERLAPS))
        expect(not overlaps, f"{name}: rendered labels overlap: {overlaps}")
        targets = json.loads(browser.evaluate(CLICK_TARGETS))
        views = [t["view"] for t in targets if t["x"] is not None]
        expect(len(views) >= 2, f"{name}: pickable views {targets}")
        for view in views:
            # Where it is now (the page may have moved since).
            target = next(t for t in json.loads(browser.evaluate(CLICK_TARGETS)) if t["view"] == view)
            expect(target["x"] is not None, f"{name}/{view}: no longer pickable")
            click_at(browser, target["x"], target["y"])
            browser.wait_for("document.getElementById('inspector').dataset.view === %s"
                             " && document.getElementById('inspector').dataset.state === 'ok'" % json.dumps(target["view"]),
                             f"{name}: the inspector of {target['view']}")
            shown = json.loads(browser.evaluate(READ_INSPECTOR))
            frame = frames[target["view"]]
            want = "frame  x %s  y %s  width %s  height %s" % tuple(
                ("%d" % v if float(v).is_integer() else repr(v)) for v in (frame["x"], frame["y"], frame["width"], frame["height"]))
            expect(shown["frame"] == want, f"{name}/{target['view']}: inspector frame {shown['frame']!r} != {want!r}")
            expect(browser.evaluate("document.querySelectorAll('#wireframe g.view.selected').length") >= 1,
                   f"{name}/{target['view']}: not outlined as selected")
            if target["view"] != "superview":
                expect(shown["constraints"] and all(target["view"] in c for c in shown["constraints"]),
                       f"{name}/{target['view']}: constraints {shown['constraints']}")
            if shown["explained"] == "true":
                expect([f["field"] for f in shown["fields"]] == [target["view"] + "." + f for f in ("x", "y", "width", "height")],
                       f"{name}/{target['view']}: explained fields {shown['fields']}")
            else:
                expect(shown["note"] and "does not explain" in shown["note"], f"{name}/{target['view']}: note {shown['note']!r}")
        if name == "card":
            browser.screenshot(os.path.join(artifacts, "playground-inspect.png"))


# Stands in for a server that answers `explain` (contract "Explaining a frame"): a JSON
# /solve with `explain` gets the real answer of the scene without it plus these
# explanations. Installed over DevTools (outside the page's CSP), removed after.
FAKE_EXPLAIN = """
(function () {
  window.__realFetch = window.fetch;
  window.fetch = function (url, options) {
    var body = options && typeof options.body === 'string' ? JSON.parse(options.body) : null;
    if (!body || !body.explain) { return window.__realFetch(url, options); }
    delete body.explain;
    var plain = Object.assign({}, options, {body: JSON.stringify(body)});
    return window.__realFetch(url, plain).then(function (r) { return r.json(); }).then(function (answer) {
      answer.explanations = {
        'title.x': [{ref: {constraint: 2, part: 1, text: 'title.leading == icon.trailing + 8'}, by: 1}],
        'title.y': [],
        'title.width': [{ref: {constraint: 2, part: 3, text: 'superview.trailing == title.trailing + 20'}, by: -1},
                        {ref: {constraint: 'container.width', text: 'superview.width == 375'}, by: 1}],
        'title.height': [{ref: {constraint: 'title.intrinsicSize.height', text: 'title.height == 21'}, by: 1}]
      };
      return new Response(JSON.stringify(answer), {status: 200, headers: {'Content-Type': 'application/json'}});
    });
  };
  return true;
})()
"""


def check_explanations_rendered(ctx):
    """With a server that answers `explain`, the inspector lists, per field, each
    constraint that moves it with its rate and its reference."""
    browser = loaded_page(ctx)
    artifacts = ctx.args.artifacts
    pick_example(browser, "contract")
    browser.evaluate(FAKE_EXPLAIN)
    try:
        browser.evaluate("document.querySelector('#views button[data-view=title]').click(); true")
        browser.wait_for("document.getElementById('inspector').dataset.view === 'title'"
                         " && document.getElementById('inspector').dataset.state === 'ok'", "the explained title")
        shown = json.loads(browser.evaluate(READ_INSPECTOR))
        expect(shown["explained"] == "true", f"not explained: {shown}")
        fields = {f["field"]: f["text"] for f in shown["fields"]}
        expect(list(fields) == ["title.x", "title.y", "title.width", "title.height"], f"fields {list(fields)}")
        expect(fields["title.width"] == "width = 271-1 × superview.trailing == title.trailing + 20   [constraint 2 part 3]"
               "+1 × superview.width == 375   [container.width]", f"title.width {fields['title.width']!r}")
        expect(fields["title.y"] == "y = 20no constraint moves it", f"title.y {fields['title.y']!r}")
        browser.screenshot(os.path.join(artifacts, "playground-explain.png"))
    finally:
        browser.evaluate("window.fetch = window.__realFetch || window.fetch; true")


def check_slider_resolves(ctx):
    """Dragging the container-width slider with the mouse re-solves as it moves: the
    wireframe's container ends at the slider's value, its frames are /solve's at that
    width, and the time per solve is shown."""
    browser = loaded_page(ctx)
    artifacts = ctx.args.artifacts
    pick_example(browser, "contract")
    before = browser.evaluate("document.querySelector('#wireframe g.view.container > rect').getAttribute('data-width')")
    box = json.loads(browser.evaluate("""JSON.stringify((function () { var s = document.getElementById('container-width');
        var r = s.getBoundingClientRect(); return {left: r.left, top: r.top, width: r.width, height: r.height,
        min: Number(s.min), max: Number(s.max), value: Number(s.value)}; })())"""))
    expect(box["value"] == 375, f"slider starts at {box['value']}")
    y = box["top"] + box["height"] / 2
    x = box["left"] + 8 + (box["width"] - 16) * (box["value"] - box["min"]) / (box["max"] - box["min"])
    revision = int(browser.evaluate("document.getElementById('wireframe').dataset.revision"))
    browser.command("Input.dispatchMouseEvent", type="mousePressed", x=x, y=y, button="left", clickCount=1)
    for step in range(1, 9):
        browser.command("Input.dispatchMouseEvent", type="mouseMoved", x=x - 3 * step, y=y, button="left", buttons=1)
        time.sleep(0.05)
    browser.command("Input.dispatchMouseEvent", type="mouseReleased", x=x - 24, y=y, button="left", clickCount=1)
    value = browser.evaluate("document.getElementById('container-width').value")
    browser.wait_for("document.getElementById('wireframe').dataset.state === 'ok' && document.querySelector("
                     "'#wireframe g.view.container > rect').getAttribute('data-width') === %s" % json.dumps(value),
                     "the wireframe at the slider's width")
    after = browser.evaluate("document.querySelector('#wireframe g.view.container > rect').getAttribute('data-width')")
    expect(after != before and float(after) < 375, f"container width {before} → {after}")
    solves = int(browser.evaluate("document.getElementById('wireframe').dataset.revision")) - revision
    expect(solves >= 2, f"{solves} solves while dragging")
    scene = json.loads(browser.evaluate("document.getElementById('scene').value"))
    expect(scene["container"]["width"] == float(value), f"scene width {scene['container']['width']} != slider {value}")
    rects = dom_rects(browser)
    frames = solve_json(ctx, scene)["frames"]
    expect({v: float(r["dw"]) for v, r in rects.items()} == {v: f["width"] for v, f in frames.items()},
           "widths differ from /solve at the new width")
    timing = browser.evaluate("document.getElementById('solve-time').textContent")
    expect(re.fullmatch(r"solve \+ draw \d+\.\d ms", timing or ""), f"time per solve {timing!r}")
    browser.screenshot(os.path.join(artifacts, "playground-slider.png"))


# The lines the wireframe draws for a label in panel 0 (`g.text`, WireframeRenderer+Text),
# as Chromium lays them out: their text, baseline, and whether they have ink (getBBox).
DRAWN_TEXT = """
JSON.stringify((function (name) {
  var g = Array.from(document.querySelectorAll('#wireframe g.panel[data-index="0"] g.text'))
    .filter(function (e) { return e.getAttribute('data-view') === name; })[0];
  if (!g) { return null; }
  return {lines: g.getAttribute('data-lines'), truncated: g.getAttribute('data-truncated'),
          family: g.getAttribute('font-family'),
          drawn: Array.from(g.querySelectorAll(':scope > text:not(.ellipsis)')).map(function (t) {
            var b = t.getBBox(); return {text: t.textContent, y: Number(t.getAttribute('y')), inked: b.width > 0 && b.height > 0}; }),
          height: document.querySelector('#wireframe g.view.container > rect').getAttribute('data-height')};
})(%s))
"""


def drawn_text(browser, view):
    shown = json.loads(browser.evaluate(DRAWN_TEXT % json.dumps(view)))
    expect(shown is not None, f"no g.text for {view} in the wireframe")
    return shown


def check_text_self_sizing(ctx):
    """The self-sizing cell: the body label's lines are drawn (text in the page, each with
    ink), as many as /solve's `text.lines`; a mouse drag of the width slider re-wraps them
    (a different count, again /solve's, the cell taller); the label text editor rewrites
    the selected label's string and the picture follows."""
    browser = loaded_page(ctx)
    artifacts = ctx.args.artifacts
    pick_example(browser, "selfSizingCell")
    expect(browser.evaluate("document.getElementById('wireframe').dataset.state") == "ok", "no wireframe")

    def compare(where):
        scene = json.loads(browser.evaluate("document.getElementById('scene').value"))
        answer = solve_json(ctx, scene)
        shown = drawn_text(browser, "body")
        want = answer["text"]["body"]["lines"]
        expect(len(shown["drawn"]) == want and shown["lines"] == str(want),
               f"{where}: {len(shown['drawn'])} lines drawn (data-lines {shown['lines']}), /solve says {want}")
        expect(all(line["inked"] for line in shown["drawn"]), f"{where}: a line has no ink: {shown['drawn']}")
        ys = [line["y"] for line in shown["drawn"]]
        expect(ys == sorted(ys) and len(set(ys)) == len(ys), f"{where}: baselines {ys}")
        string = scene["views"]["body"]["text"]["string"]
        expect(" ".join(line["text"] for line in shown["drawn"]) == string, f"{where}: lines {shown['drawn']} of {string!r}")
        expect(shown["family"] == "'Inter', sans-serif", f"{where}: font-family {shown['family']!r}")
        expect(float(shown["height"]) == answer["frames"]["superview"]["height"], f"{where}: cell height {shown['height']}")
        return shown

    wide = compare("at 375")
    box = json.loads(browser.evaluate("""JSON.stringify((function () { var s = document.getElementById('container-width');
        var r = s.getBoundingClientRect(); return {left: r.left, top: r.top, width: r.width, height: r.height,
        min: Number(s.min), max: Number(s.max), value: Number(s.value)}; })())"""))
    expect(box["value"] == 375, f"slider starts at {box['value']}")
    y = box["top"] + box["height"] / 2
    x = box["left"] + 8 + (box["width"] - 16) * (box["value"] - box["min"]) / (box["max"] - box["min"])
    browser.command("Input.dispatchMouseEvent", type="mousePressed", x=x, y=y, button="left", clickCount=1)
    for step in range(1, 9):
        browser.command("Input.dispatchMouseEvent", type="mouseMoved", x=x - 5 * step, y=y, button="left", buttons=1)
        time.sleep(0.05)
    browser.command("Input.dispatchMouseEvent", type="mouseReleased", x=x - 40, y=y, button="left", clickCount=1)
    value = browser.evaluate("document.getElementById('container-width').value")
    expect(float(value) < 300, f"the slider moved only to {value}")
    browser.wait_for("document.getElementById('wireframe').dataset.state === 'ok' && document.querySelector("
                     "'#wireframe g.view.container > rect').getAttribute('data-width') === %s" % json.dumps(value),
                     "the wireframe at the slider's width")
    narrow = compare(f"at {value}")
    expect(len(narrow["drawn"]) > len(wide["drawn"]), f"{len(wide['drawn'])} lines at 375, {len(narrow['drawn'])} at {value}")
    expect(float(narrow["height"]) > float(wide["height"]), f"cell height {wide['height']} → {narrow['height']}")
    browser.screenshot(os.path.join(artifacts, "playground-text.png"))

    # The editor: the body selected, its string replaced, one line drawn.
    browser.evaluate("document.querySelector('#views button[data-view=body]').click(); true")
    browser.wait_for("document.getElementById('text-editor').dataset.view === 'body' && !document.getElementById('text-editor').hidden",
                     "the label text editor of body")
    expect(browser.evaluate("document.getElementById('text-string').value") == json.loads(
        browser.evaluate("document.getElementById('scene').value"))["views"]["body"]["text"]["string"], "the editor's string")
    revision = int(browser.evaluate("document.getElementById('wireframe').dataset.revision"))
    browser.evaluate("var t = document.getElementById('text-string'); t.focus(); t.value = 'Arrives Thursday';"
                     " t.dispatchEvent(new Event('input')); true")
    browser.wait_for(f"Number(document.getElementById('wireframe').dataset.revision) > {revision}"
                     " && document.getElementById('wireframe').dataset.state === 'ok'", "the edited label")
    edited = compare("edited")
    expect([line["text"] for line in edited["drawn"]] == ["Arrives Thursday"], f"edited lines {edited['drawn']}")
    answer = browser.evaluate("document.getElementById('text-answer').textContent")
    expect(answer == "1 line shown", f"#text-answer {answer!r}")
    browser.screenshot(os.path.join(artifacts, "playground-text-editor.png"))


def check_zoom_and_keyboard(ctx):
    """Zoom to fit, zoom in and pan by keyboard: the viewBox changes and Fit restores it."""
    browser = loaded_page(ctx)
    pick_example(browser, "contract")
    fitted = browser.evaluate("document.querySelector('#wireframe svg').getAttribute('viewBox')")
    browser.evaluate("document.getElementById('wireframe').focus(); true")
    for key in ("+", "ArrowRight"):
        browser.command("Input.dispatchKeyEvent", type="keyDown", key=key, text=key if len(key) == 1 else "")
        browser.command("Input.dispatchKeyEvent", type="keyUp", key=key)
    zoomed = [float(v) for v in browser.evaluate("document.querySelector('#wireframe svg').getAttribute('viewBox')").split()]
    original = [float(v) for v in fitted.split()]
    expect(abs(zoomed[2] - original[2] / 1.25) < 1e-6, f"zoom in: {original} → {zoomed}")
    browser.evaluate("document.getElementById('zoom-fit').click(); true")
    expect(browser.evaluate("document.querySelector('#wireframe svg').getAttribute('viewBox')") == fitted, "Fit restores the viewBox")
    # Views are reachable without a mouse: one button per view in the inspector.
    buttons = browser.evaluate("Array.from(document.querySelectorAll('#views button')).map(function (b) { return b.dataset.view; }).join(',')")
    expect(buttons == "superview,card,icon,title", f"view buttons {buttons}")
    browser.evaluate("document.querySelector('#views button[data-view=title]').focus(); true")
    browser.command("Input.dispatchKeyEvent", type="keyDown", key="Enter", code="Enter", windowsVirtualKeyCode=13, text="\r")
    browser.command("Input.dispatchKeyEvent", type="keyUp", key="Enter", code="Enter", windowsVirtualKeyCode=13)
    browser.wait_for("document.getElementById('inspector').dataset.view === 'title'"
                     " && document.getElementById('inspector').dataset.state === 'ok'", "the keyboard's pick")


def check_diagnostic_hover(ctx):
    """Hovering a conflict's diagnostic outlines the views its constraints name."""
    browser = loaded_page(ctx)
    artifacts = ctx.args.artifacts
    pick_example(browser, "conflict")
    point = json.loads(browser.evaluate("""JSON.stringify((function () {
        var d = Array.from(document.querySelectorAll('#diagnostics .diagnostic')).find(function (e) { return e.dataset.code === 'unsatisfiable_constraints'; });
        var r = d.getBoundingClientRect(); return {x: r.left + 10, y: r.top + 6, views: d.dataset.views}; })())"""))
    browser.command("Input.dispatchMouseEvent", type="mouseMoved", x=point["x"], y=point["y"])
    lit = browser.evaluate("Array.from(document.querySelectorAll('#wireframe g.view.highlight')).map(function (g) { return g.getAttribute('data-view'); }).sort().join(',')")
    expect("left" in lit.split(",") and lit.split(",") == sorted(point["views"].split()), f"highlighted {lit!r}, diagnostic names {point['views']!r}")
    browser.screenshot(os.path.join(artifacts, "playground-hover.png"))
    browser.command("Input.dispatchMouseEvent", type="mouseMoved", x=5, y=5)
    expect(browser.evaluate("document.querySelectorAll('#wireframe g.view.highlight').length") == 0, "highlight cleared")
    # The conflict is written in the picture, not only in a tooltip.
    problem = browser.evaluate("(document.querySelector('#wireframe g.problems text.problem') || {}).textContent || ''")
    expect(problem.startswith("• Conflict (views "), f"visible problem text {problem!r}")


def check_permalink(ctx):
    """The link reproduces the scene: opening it loads the same scene and wireframe."""
    browser = loaded_page(ctx)
    pick_example(browser, "card")
    scene = browser.evaluate("document.getElementById('scene').value")
    link = browser.evaluate("document.getElementById('permalink').getAttribute('href')")
    expect(link.startswith("#scene="), f"link {link[:40]!r}")
    browser.navigate(f"http://127.0.0.1:{ctx.port}/" + link)
    browser.wait_for("document.getElementById('wireframe').dataset.state === 'ok'", "the linked scene")
    expect(json.loads(browser.evaluate("document.getElementById('scene').value")) == json.loads(scene), "scene differs")
    frames = solve_json(ctx, json.loads(scene))["frames"]
    rects = dom_rects(browser)
    expect({v: float(r["dw"]) for v, r in rects.items()} == {v: f["width"] for v, f in frames.items()}, "frames differ")


def check_ib_document_dropped(ctx):
    """A .xib dropped on the Interface Builder card: its one hierarchy is listed with its
    misplaced view (recorded at x 17, laid out at 16), the drawing outlines that view at
    both frames, and a click on the hierarchy puts its scene in the editor."""
    browser = loaded_page(ctx)
    xib = ('<?xml version="1.0" encoding="UTF-8"?>\n<document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" '
           'toolsVersion="22505" targetRuntime="iOS.CocoaTouch"><device id="retina4_7" orientation="portrait"/><objects>'
           '<view id="root-1"><rect key="frame" x="0" y="0" width="320" height="100"/><subviews>'
           '<view userLabel="box" translatesAutoresizingMaskIntoConstraints="NO" id="box-1">'
           '<rect key="frame" x="17" y="20" width="288" height="60"/></view></subviews><constraints>'
           '<constraint firstItem="box-1" firstAttribute="leading" secondItem="root-1" secondAttribute="leading" constant="16" id="c-1"/>'
           '<constraint firstItem="box-1" firstAttribute="top" secondItem="root-1" secondAttribute="top" constant="20" id="c-2"/>'
           '<constraint firstItem="root-1" firstAttribute="trailing" secondItem="box-1" secondAttribute="trailing" constant="16" id="c-3"/>'
           '<constraint firstItem="box-1" firstAttribute="height" constant="60" id="c-4"/>'
           '</constraints></view></objects></document>')
    browser.evaluate("(function () { var t = new DataTransfer(); t.items.add(new File([%s], 'Box.xib', {type: 'application/xml'}));"
                     " document.getElementById('ib-drop').dispatchEvent(new DragEvent('drop', {dataTransfer: t, bubbles: true,"
                     " cancelable: true})); return true; })()" % json.dumps(xib))
    browser.wait_for("document.getElementById('ib-drawing').dataset.state !== 'pending'"
                     " && document.getElementById('ib-drawing').dataset.state !== 'empty'", "the dropped document")
    expect(browser.evaluate("document.getElementById('ib-drawing').dataset.state") == "ok",
           "drawing state " + browser.evaluate("document.getElementById('ib-status').textContent"))
    items = browser.evaluate("JSON.stringify(Array.from(document.querySelectorAll('#ib-hierarchies li')).map(function (li) { return li.textContent; }))")
    expect(json.loads(items) == ["view (view) 1 misplaced"], f"hierarchies {items}")
    rects = browser.evaluate("JSON.stringify(Array.from(document.querySelectorAll('#ib-drawing rect.misplaced')).map(function (r) {"
                             " return [r.getAttribute('class'), r.getAttribute('x')]; }))")
    expect(json.loads(rects) == [["misplaced recorded", "17"], ["misplaced solved", "16"]], f"outlines {rects}")
    browser.evaluate("document.querySelector('#ib-hierarchies button').click(); true")
    scene = json.loads(browser.evaluate("document.getElementById('scene').value"))
    expect(scene["container"] == {"width": 320, "height": 100}, f"edited scene {scene.get('container')}")


def check_initial_example(ctx):
    page(ctx).wait_for("document.getElementById('wireframe').dataset.state === 'ok'"
                       " && document.querySelectorAll('#wireframe g.view').length === 4", "the first wireframe")
    ctx.browser_state["loaded"] = True


def check_screenshot(ctx):
    path = os.path.join(ctx.args.artifacts, "playground.png")
    loaded_page(ctx).screenshot(path)
    expect(os.path.getsize(path) > 10_000, "screenshot too small")


# The checks in run order: the page's state carries from one browser check to the next
# (the scene typed, the example picked), and `browser/no-csp-violation` judges all of
# them, so it comes last.
CHECKS = [
    ("svg/accept-header", lambda ctx: check_svg_endpoint(ctx, CONTRACT, "accept")),
    ("svg/format-query", lambda ctx: check_svg_endpoint(ctx, NESTED, "query")),
    ("svg/sizes-panels", check_svg_sizes),
    ("svg/syntax-error-422", check_svg_syntax_error),
    ("svg/json-stays-default", check_json_by_default),
    ("page/self-contained", check_page),
    ("browser/initial-example", check_initial_example),
    ("browser/typed-nested-scene", lambda ctx: check_browser_scene(ctx, NESTED, "nested")),
    ("browser/typing-is-debounced", check_browser_typing_is_debounced),
    ("browser/typed-contract-scene", lambda ctx: check_browser_scene(ctx, CONTRACT, "contract")),
    ("browser/screenshot", check_screenshot),
    ("browser/syntax-error-caret", check_browser_syntax_error),
    ("browser/conflict-example-warning", check_browser_conflict_example),
    ("browser/scene-from-query", check_query_scene),
    ("browser/examples-click-inspect", check_examples_inspect),
    ("browser/explanations-rendered", check_explanations_rendered),
    ("browser/slider-resolves", check_slider_resolves),
    ("browser/text-self-sizing", check_text_self_sizing),
    ("browser/zoom-and-keyboard", check_zoom_and_keyboard),
    ("browser/diagnostic-hover", check_diagnostic_hover),
    ("browser/permalink", check_permalink),
    ("browser/ib-document-dropped", check_ib_document_dropped),
    ("browser/no-csp-violation", check_browser_csp),
]
for _name, _fn in CHECKS:
    check(_name)(_fn)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(REPO, ".build/debug/layoutd"))
    parser.add_argument("--chromium", default=None, help="browser executable (default: chromium on PATH)")
    parser.add_argument("--artifacts", default=os.path.join(REPO, "artifacts"))
    parser.add_argument("--spec", default=os.path.join(REPO, "openapi.yaml"))
    parser.add_argument("--timeout", type=float, default=30.0, help="per request, seconds")
    parser.add_argument("--startup-timeout", type=float, default=20.0,
                        help="seconds to wait for /healthz after starting the server")
    arguments = parser.parse_args()
    arguments.binary = os.path.abspath(arguments.binary)
    try:
        from openapi_check import Spec
    except ImportError as error:
        print(f"missing Python package ({error}): run scripts/install-deps.sh "
              "or pip install -r integration/requirements.txt", file=sys.stderr)
        return 2

    workdir = harness.make_workdir("layoutd-browser-")
    ctx = Context(arguments, Spec(arguments.spec), REPO, os.path.join(os.path.dirname(REPO), "shared"), workdir)
    passed, failed = harness.run_checks(
        list(REGISTRY), ctx,
        lambda: Server(arguments.binary, ":memory:", log_path=os.path.join(workdir, "server.log"),
                       startup_seconds=arguments.startup_timeout).start())
    print(f"{passed} passed, {failed} failed")
    if failed:
        print(f"logs kept in {workdir}")
        return 1
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
