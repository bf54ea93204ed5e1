import Foundation

/// The playground served at `GET /` (issue 10): one self-contained HTML page, inline CSS
/// and JavaScript, no external URL of any kind, so it works offline and behind any proxy.
/// Served with ``contentSecurityPolicy``, which allows exactly this inline script and style.
///
/// It edits a scene's JSON in a textarea and, 300 ms after the last keystroke, asks the
/// public API only:
/// - `POST /solve` with `Accept: image/svg+xml` → the wireframe, inserted inline into
///   `#wireframe` (so its `g.view` / `rect` elements are part of the page's DOM);
/// - `POST /validate` → the diagnostics, listed in `#diagnostics` as `li.diagnostic`
///   each with the message, the constraint's source line (`pre.source`) and a caret line
///   under the diagnostic's `column` (`pre.caret`; columns count Unicode scalars, as the
///   contract says);
/// - `GET /groups` → the stored groups, which a click adds to the scene's `groups`.
///
/// Query parameters: `?scene=<URL-encoded JSON>` loads that scene, `?example=NAME` one of
/// the examples (`contract`, `rtl`, `conflict`, `syntax`). Stable hooks for tests:
/// `#scene`, `#wireframe` (`data-state`: `pending`, `ok`, `error`; `data-revision`: the
/// edit the wireframe shows), `#diagnostics` (`data-state` likewise), `.diagnostic`, `.caret`.
public enum PlaygroundPage {
    /// The page, UTF-8; serve as `text/html; charset=utf-8`.
    public static let html: [UInt8] = Array(text.utf8)

    /// The `Content-Security-Policy` served with the page (W3C CSP Level 3): nothing
    /// loads or runs but the page's own inline script and style, allowed by their SHA-256
    /// (§8.3, hash-source), and the wireframe's `<style>` that the page inserts with the
    /// SVG (``WireframeRenderer/stylesheet``); `fetch` only to this origin
    /// (`connect-src 'self'`); no `<base>`, no form posts; `frame-ancestors 'none'` so no
    /// other site can frame it (clickjacking). No nonce is needed: the page is a constant.
    /// Held by hostile/exposure-headers and by the browser test (no CSP violation in
    /// the console while the page works).
    public static let contentSecurityPolicy: String = {
        let script = hashSource(between: "<script>", and: "</script>")
        let style = hashSource(between: "<style>", and: "</style>")
        return "default-src 'none'; script-src \(script); style-src \(style) \(wireframeStyleHash); connect-src 'self'; "
            + "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }()

    /// The `Content-Security-Policy` of an SVG wireframe answer: no script, no load of any
    /// kind, only its own `<style>` (by hash), and not framed by other sites.
    public static let wireframePolicy = "default-src 'none'; style-src \(wireframeStyleHash); frame-ancestors 'none'"

    /// `'sha256-…'` of ``WireframeRenderer/stylesheet``.
    static let wireframeStyleHash = hashSource(of: WireframeRenderer.stylesheet)

    /// `'sha256-<base64>'` of the text between the first `open` tag and the next `close`
    /// tag of the page.
    static func hashSource(between open: String, and close: String) -> String {
        guard let start = text.range(of: open), let end = text.range(of: close, range: start.upperBound..<text.endIndex) else {
            preconditionFailure("the playground page has no \(open) element")
        }
        return hashSource(of: String(text[start.upperBound..<end.lowerBound]))
    }

    /// `'sha256-<base64>'` of `content`'s UTF-8, a CSP hash-source (CSP Level 3 §2.3.1).
    static func hashSource(of content: String) -> String {
        "'sha256-" + Data(SHA256.hash(Array(content.utf8))).base64EncodedString() + "'"
    }

    static let text = #"""
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>layoutd playground</title>
<style>
  :root { color-scheme: light; --border: #c9ced6; --muted: #5b6470; --error: #b42318; --warning: #b54708; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #1d2330; background: #f4f5f7; }
  header { display: flex; gap: 16px; align-items: center; padding: 10px 16px; background: #1d2330; color: #fff; }
  header h1 { font-size: 16px; margin: 0; font-weight: 600; }
  header label { color: #cfd5de; }
  header select { margin-left: 6px; }
  #status { margin-left: auto; font-size: 12px; color: #cfd5de; }
  main { display: grid; grid-template-columns: minmax(320px, 42%) 1fr; gap: 12px; padding: 12px; height: calc(100vh - 46px); }
  .column { display: flex; flex-direction: column; gap: 12px; min-height: 0; }
  .card { background: #fff; border: 1px solid var(--border); border-radius: 6px; padding: 8px 10px; min-height: 0; }
  .card h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 0 0 6px; }
  #scene { width: 100%; flex: 1; min-height: 260px; resize: none; border: 1px solid var(--border); border-radius: 6px; padding: 8px;
           font: 12.5px/1.45 "DejaVu Sans Mono", Menlo, Consolas, monospace; tab-size: 2; }
  #diagnostics-card { max-height: 40%; overflow: auto; }
  #diagnostics { list-style: none; margin: 0; padding: 0; }
  .diagnostic { border-left: 3px solid var(--warning); padding: 4px 8px; margin: 0 0 8px; background: #fffaf0; }
  .diagnostic.error { border-left-color: var(--error); background: #fff5f4; }
  .diagnostic .head { font-size: 12px; color: var(--muted); }
  .diagnostic .code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-weight: 600; }
  .diagnostic.error .code { color: var(--error); }
  .diagnostic .message { margin: 2px 0; }
  .diagnostic pre { margin: 0; font: 12.5px/1.3 "DejaVu Sans Mono", Menlo, Consolas, monospace; white-space: pre; overflow-x: auto; }
  .diagnostic pre.caret { color: var(--error); font-weight: bold; }
  .diagnostic .refs { margin: 4px 0 0; padding-left: 18px; font: 12px "DejaVu Sans Mono", Menlo, Consolas, monospace; }
  .none { color: var(--muted); font-style: italic; }
  #wireframe-card { flex: 1; display: flex; flex-direction: column; }
  #wireframe { flex: 1; min-height: 0; position: relative; }
  /* Drawn 1:1 (1 point = 1 CSS pixel) when it fits, shrunk to fit otherwise. */
  #wireframe svg { position: absolute; left: 0; top: 0; width: auto; height: auto; max-width: 100%; max-height: 100%; }
  #wireframe .problem { color: var(--error); }
  #groups { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 6px; }
  #groups button { font: 12px "DejaVu Sans Mono", Menlo, Consolas, monospace; }
</style>
</head>
<body>
<header>
  <h1>layoutd playground</h1>
  <label>Example<select id="examples">
    <option value="">—</option>
    <option value="contract">Contract example (card, icon, title)</option>
    <option value="rtl">Right to left</option>
    <option value="conflict">Conflict (broken constraint)</option>
    <option value="syntax">Syntax error</option>
  </select></label>
  <span id="status" aria-live="polite">ready</span>
</header>
<main>
  <div class="column">
    <textarea id="scene" spellcheck="false" aria-label="Scene JSON"></textarea>
    <section class="card" id="diagnostics-card">
      <h2>Diagnostics</h2>
      <ul id="diagnostics" data-state="pending"></ul>
    </section>
    <section class="card" id="groups-card">
      <h2>Stored groups (click to include)</h2>
      <ul id="groups"><li class="none">none</li></ul>
    </section>
  </div>
  <div class="column">
    <section class="card" id="wireframe-card">
      <h2>Wireframe</h2>
      <div id="wireframe" data-state="pending" data-revision="0"></div>
    </section>
  </div>
</main>
<script>
"use strict";
(function () {
  var EXAMPLES = {
    contract: {
      container: { width: 375, height: 667 },
      views: {
        card: {},
        title: { parent: "card", intrinsicSize: { width: 120, height: 21 }, baseline: 17 },
        icon: { parent: "card", intrinsicSize: { width: 24, height: 24 },
                hugging: { horizontal: 251 }, compressionResistance: { horizontal: 749 } }
      },
      metrics: { pad: 16 },
      constraints: [
        "H:|-pad-[card]-pad-|",
        "V:|-20-[card(>=44)]",
        { vfl: "H:|-[icon]-[title]-|", options: ["alignAllCenterY"] },
        "V:|-[title]-|",
        { id: "title-min", equation: "title.width >= 80", priority: 750 }
      ]
    },
    rtl: {
      container: { width: 375, height: 120 },
      views: ["avatar", "name", "badge"],
      constraints: [
        "H:|-[avatar(48)]-[name]-[badge(32)]-|",
        "V:|-[avatar(48)]",
        "V:|-[name(24)]",
        "V:|-[badge(24)]"
      ],
      options: { layoutDirection: "rightToLeft" }
    },
    conflict: {
      container: { width: 320, height: 200 },
      views: ["left", "right"],
      constraints: [
        "H:|-[left]-[right(==left)]-|",
        "V:|-[left(80)]",
        "V:|-[right(80)]",
        { id: "too-wide", equation: "left.width >= 300" }
      ]
    },
    syntax: {
      container: { width: 375, height: 100 },
      views: ["red"],
      constraints: ["H:|-0-[red-0-|", "V:|[red]|"]
    }
  };

  var sceneBox = document.getElementById("scene");
  var wireframe = document.getElementById("wireframe");
  var diagnosticsList = document.getElementById("diagnostics");
  var statusLine = document.getElementById("status");
  var examples = document.getElementById("examples");
  var groupsList = document.getElementById("groups");
  var revision = 0;
  var timer = null;

  function text(tag, className, content) {
    var element = document.createElement(tag);
    if (className) { element.className = className; }
    if (content !== undefined) { element.textContent = content; }
    return element;
  }

  // Columns in diagnostics count Unicode scalars; Array.from splits a string into them.
  function caretLine(column) {
    var spaces = "";
    for (var i = 0; i < column; i++) { spaces += " "; }
    return spaces + "^";
  }

  function keyText(key) {
    return typeof key === "number" ? "constraint " + key : String(key);
  }

  function renderDiagnostics(list, note) {
    diagnosticsList.textContent = "";
    if (note) { diagnosticsList.appendChild(text("li", "diagnostic error", note)); }
    if (!list.length && !note) {
      diagnosticsList.appendChild(text("li", "none", "No diagnostics."));
      return;
    }
    list.forEach(function (diagnostic) {
      var item = text("li", "diagnostic " + (diagnostic.severity === "error" ? "error" : "warning"));
      item.dataset.code = diagnostic.code || "";
      var head = text("div", "head");
      head.appendChild(text("span", "code", diagnostic.code || ""));
      var where = [];
      if (diagnostic.constraint !== undefined) { where.push(keyText(diagnostic.constraint)); }
      if (diagnostic.part !== undefined) { where.push("part " + diagnostic.part); }
      if (diagnostic.id !== undefined) { where.push("id " + diagnostic.id); }
      if (diagnostic.column !== undefined) { where.push("column " + diagnostic.column); }
      if (diagnostic.path !== undefined) { where.push(diagnostic.path); }
      if (diagnostic.view !== undefined) { where.push("view " + diagnostic.view + (diagnostic.attribute ? "." + diagnostic.attribute : "")); }
      if (where.length) { head.appendChild(document.createTextNode("  " + where.join(" · "))); }
      item.appendChild(head);
      item.appendChild(text("div", "message", diagnostic.message || ""));
      if (typeof diagnostic.source === "string") {
        item.appendChild(text("pre", "source", diagnostic.source));
        if (typeof diagnostic.column === "number" && diagnostic.column >= 0) {
          var caret = text("pre", "caret", caretLine(Math.min(diagnostic.column, Array.from(diagnostic.source).length)));
          caret.dataset.column = String(diagnostic.column);
          item.appendChild(caret);
        }
      }
      if (Array.isArray(diagnostic.conflicting)) {
        var refs = text("ul", "refs");
        diagnostic.conflicting.forEach(function (ref) {
          refs.appendChild(text("li", "", ref.text + "   [" + keyText(ref.constraint) + (ref.part !== undefined ? " part " + ref.part : "") + "]"));
        });
        item.appendChild(refs);
      }
      diagnosticsList.appendChild(item);
    });
  }

  // A JSON syntax error found before asking the server: line and column from the offset.
  function localJSONProblem(source) {
    try { JSON.parse(source); return null; } catch (error) {
      var message = String(error && error.message || error);
      var match = /position (\d+)/.exec(message);
      var diagnostic = { severity: "error", code: "invalid_json", message: "Malformed JSON: " + message };
      if (match) {
        var offset = Number(match[1]);
        var before = source.slice(0, offset);
        var lineStart = before.lastIndexOf("\n") + 1;
        var lineEnd = source.indexOf("\n", offset);
        diagnostic.source = source.slice(lineStart, lineEnd < 0 ? source.length : lineEnd);
        diagnostic.column = Array.from(source.slice(lineStart, offset)).length;
      }
      return diagnostic;
    }
  }

  function showSVG(markup) {
    var documentSVG = new DOMParser().parseFromString(markup, "image/svg+xml");
    var root = documentSVG.documentElement;
    wireframe.textContent = "";
    if (!root || root.nodeName !== "svg") {
      wireframe.appendChild(text("p", "problem", "The server answered something that is not SVG."));
      return false;
    }
    wireframe.appendChild(document.importNode(root, true));
    return true;
  }

  function solve() {
    revision += 1;
    var mine = revision;
    var body = sceneBox.value;
    wireframe.dataset.state = "pending";
    diagnosticsList.dataset.state = "pending";
    statusLine.textContent = "solving…";
    var local = localJSONProblem(body);
    if (local) {
      renderDiagnostics([local]);
      wireframe.textContent = "";
      wireframe.appendChild(text("p", "problem", "The scene is not valid JSON."));
      wireframe.dataset.state = "error";
      wireframe.dataset.revision = String(mine);
      diagnosticsList.dataset.state = "ok";
      statusLine.textContent = "invalid JSON";
      return;
    }
    var headers = { "Content-Type": "application/json" };
    var svgRequest = fetch("/solve", {
      method: "POST", body: body,
      headers: { "Content-Type": "application/json", "Accept": "image/svg+xml" }
    }).then(function (response) {
      return response.text().then(function (payload) {
        if (mine !== revision) { return; }
        var type = response.headers.get("Content-Type") || "";
        if (response.ok && type.indexOf("image/svg+xml") === 0 && showSVG(payload)) {
          wireframe.dataset.state = "ok";
        } else {
          wireframe.textContent = "";
          var detail = "HTTP " + response.status;
          try { detail = JSON.parse(payload).detail || detail; } catch (ignored) {}
          wireframe.appendChild(text("p", "problem", "No layout: " + detail));
          wireframe.dataset.state = "error";
        }
        wireframe.dataset.revision = String(mine);
      });
    });
    var validateRequest = fetch("/validate", { method: "POST", body: body, headers: headers }).then(function (response) {
      return response.json().then(function (answer) {
        if (mine !== revision) { return; }
        renderDiagnostics(Array.isArray(answer.diagnostics) ? answer.diagnostics : [],
                          response.ok ? null : (answer.detail || "HTTP " + response.status));
        diagnosticsList.dataset.state = "ok";
      });
    });
    Promise.all([svgRequest, validateRequest]).then(function () {
      if (mine === revision) { statusLine.textContent = "solved (edit " + mine + ")"; }
    }, function (error) {
      if (mine !== revision) { return; }
      statusLine.textContent = "request failed: " + error;
      wireframe.dataset.state = "error";
      diagnosticsList.dataset.state = "error";
    });
  }

  function scheduleSolve() {
    if (timer !== null) { clearTimeout(timer); }
    timer = setTimeout(function () { timer = null; solve(); }, 300);
  }

  function load(scene) {
    sceneBox.value = typeof scene === "string" ? scene : JSON.stringify(scene, null, 2);
    solve();
  }

  function loadGroups() {
    fetch("/groups").then(function (response) { return response.ok ? response.json() : { groups: [] }; })
      .then(function (answer) {
        var groups = Array.isArray(answer.groups) ? answer.groups : [];
        if (!groups.length) { return; }
        groupsList.textContent = "";
        groups.forEach(function (group) {
          var item = document.createElement("li");
          var button = text("button", "", group.name + "@" + group.version);
          button.type = "button";
          button.title = "Add \"" + group.name + "\" to the scene's groups";
          button.addEventListener("click", function () {
            try {
              var scene = JSON.parse(sceneBox.value);
              scene.groups = Array.isArray(scene.groups) ? scene.groups : [];
              if (scene.groups.indexOf(group.name) < 0) { scene.groups.push(group.name); }
              load(scene);
            } catch (ignored) { statusLine.textContent = "fix the JSON first"; }
          });
          item.appendChild(button);
          groupsList.appendChild(item);
        });
      }, function () {});
  }

  sceneBox.addEventListener("input", scheduleSolve);
  examples.addEventListener("change", function () {
    if (EXAMPLES[examples.value]) { load(EXAMPLES[examples.value]); }
  });

  var query = new URLSearchParams(window.location.search);
  if (query.has("scene")) {
    load(query.get("scene"));
  } else if (EXAMPLES[query.get("example")]) {
    examples.value = query.get("example");
    load(EXAMPLES[query.get("example")]);
  } else {
    examples.value = "contract";
    load(EXAMPLES.contract);
  }
  loadGroups();
})();
</script>
</body>
</html>
"""#
}
