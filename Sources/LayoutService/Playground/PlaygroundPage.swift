import Foundation
import Wireframe

/// The playground served at `GET /` (`browser/*` of integration/browser/run.py): one self-contained HTML page, inline CSS
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
/// Explaining the picture:
/// - the wireframe is zoomed to fit its area and can be zoomed (wheel, `+`/`−`, the
///   buttons) and panned (drag, arrow keys) through its `viewBox`; `0` or Fit fits again;
/// - clicking a view (its rect or its label), or its button in `#views`, selects it:
///   `#inspector` shows its frame, its definition, the scene's constraints that name it,
///   and why each field has its value: `POST /solve` (JSON) with `explain: [VIEW]`, its
///   `explanations` listed per field with each constraint's rate `by`; a server that
///   refuses `explain` is asked again without it and the inspector says so;
/// - the container-width slider rewrites `container.width` and re-solves at every step
///   (one request at a time, the last value always solved), showing the round trip of
///   each solve in `#solve-time`;
/// - hovering or focusing a diagnostic outlines the views it names (`view`, and the
///   names in its `broken`/`conflicting` constraints);
/// - `#permalink` is `#scene=<URL-encoded JSON>`, which loads that scene;
/// - labels (views with `text`) are drawn by the wireframe in their fonts, line by line
///   (``WireframeRenderer``'s `g.text`); selecting one opens `#text-editor` (`data-view`):
///   its string (`#text-string`), family, size, weight, italic and `numberOfLines`, written
///   back into the scene and re-solved, and `#text-answer` with the lines the wireframe
///   shows for it (`N lines shown`, `, truncated`). The `selfSizingCell` example is a
///   table cell of three labels whose height follows the wrapping: the width slider
///   shows it change.
///
/// An Interface Builder document dropped on `#ib-drop` (or chosen with `#ib-file`) is sent
/// to `POST /import?solve=true`, its hierarchies listed in `#ib-hierarchies` (a click puts
/// that scene in the editor), and to `POST /import?format=svg`, drawn in `#ib-drawing`
/// (`data-state`: `empty`, `pending`, `ok`, `error`).
///
/// Query parameters: `?scene=<URL-encoded JSON>` loads that scene (as does the fragment
/// `#scene=`), `?example=NAME` one of the examples (`contract`, `rtl`, `conflict`,
/// `syntax`, `card`, `overflow`, `selfSizingCell`, …: the `#examples` menu). Stable hooks for tests: `#scene`, `#wireframe`
/// (`data-state`: `pending`, `ok`, `error`; `data-revision`: the edit the wireframe
/// shows), `#diagnostics` (`data-state` likewise), `.diagnostic` (`data-views`), `.caret`,
/// `#container-width`, `#solve-time`, `#permalink`, `#views`, `#inspector` (`data-view`,
/// `data-state`, `data-explained`), `#inspector-constraints`, `#inspector-explanations`.
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

    /// The page's text: `playground.html` beside this file, embedded by SwiftPM
    /// (Package.swift's `.embedInCode`), without the file's final newline.
    static let text: String = {
        let file = String(decoding: PackageResources.playground_html, as: UTF8.self)
        return file.hasSuffix("\n") ? String(file.dropLast()) : file
    }()
}
