import Foundation
import LayoutCompiler
@testable import LayoutService
import Testing
import TextLayout
@testable import Wireframe

/// Labels' text in the SVG wireframe (contract, "Text": "The wireframe draws each label's
/// lines in its font"): each line a `<text>` at the label's left edge and its measured
/// baseline, in the label's font, a truncated label outlined and ended with `…`, hostile
/// strings escaped, the drawn text bounded. Positions come from DejaVu Sans Mono's own
/// numbers (``TextSceneTests/mono``: every glyph one advance wide, HarfBuzz's extents).
struct WireframeTextTests {
    typealias Element = WireframeTests.Element
    static let mono = TextSceneTests.mono

    /// The wireframe of `json` parsed, with its raw text.
    func wireframe(_ json: String) throws -> (elements: [Element], raw: String) {
        let prepared = try WireframeTests.prepare(json)
        let answer = SceneEngine().solveSVG(prepared)
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        return (try WireframeTests.parse(answer.body), String(decoding: answer.body, as: UTF8.self))
    }

    /// The `g.text` group of `view` and the elements inside it (its depth + 1).
    func textGroup(_ elements: [Element], view: String) throws -> (group: Element, children: [Element]) {
        let start = try #require(elements.firstIndex { $0.name == "g" && ($0.attributes["class"] ?? "").hasPrefix("text")
            && $0.attributes["data-view"] == view })
        let group = elements[start]
        let children = elements[(start + 1)...].prefix { $0.depth > group.depth }.filter { $0.depth == group.depth + 1 }
        return (group, Array(children))
    }

    func label(_ string: String, lines: Int = 0) -> String {
        #"{"text":{"string":"\#(string)","font":{"family":"DejaVu Sans Mono","size":13},"numberOfLines":\#(lines)}}"#
    }

    func value(_ element: Element?, _ attribute: String) throws -> Double {
        try #require(WireframeTests.number(element, attribute), "\(attribute) of \(String(describing: element))")
    }

    @Test func eachLineIsDrawnInItsFontAtItsMeasuredBaseline() throws {
        let a = Self.mono.advance
        // "aaaa bbbb cc" (12 cells) wraps at the solved 9.5 cells into "aaaa bbbb" and "cc".
        let (elements, _) = try wireframe(#"""
        {"container":{"width":\#(40 + 9.5 * a),"height":300},"views":{"l":\#(label("aaaa bbbb cc"))},
         "constraints":["H:|-20-[l]-20-|","V:|-10-[l]"]}
        """#)
        let (group, children) = try textGroup(elements, view: "l")
        #expect(group.attributes["class"] == "text")
        #expect(group.attributes["data-lines"] == "2")
        #expect(group.attributes["data-truncated"] == "false")
        #expect(group.attributes["font-family"] == "'DejaVu Sans Mono', monospace")
        #expect(group.attributes["font-size"] == "13")
        #expect(group.attributes["font-weight"] == "400")
        #expect(group.attributes["font-style"] == nil)
        #expect(children.map(\.name) == ["text", "text"])
        #expect(children.map(\.text) == ["aaaa bbbb", "cc"])
        for (index, line) in children.enumerated() {
            #expect(try value(line, "x") == 20)
            // The frame's top (10) plus the ascender plus a line height per line above.
            #expect(abs(try value(line, "y") - (10 + Self.mono.ascender + Double(index) * Self.mono.lineHeight)) <= 1e-6)
        }
        #expect(abs(try value(children[0], "textLength") - 9 * a) <= 1e-6)
        #expect(abs(try value(children[1], "data-width") - 2 * a) <= 1e-6)
        #expect(children[0].attributes["lengthAdjust"] == "spacingAndGlyphs")
        // The label's own rect is drawn as for every view: the text is in front of it.
        let rect = try #require(WireframeTests.viewRects(elements).first?["l"])
        #expect(try value(rect, "height") == (2 * Self.mono.lineHeight).rounded(.up))
    }

    /// A label measured at its `preferredMaxLayoutWidth` (4 cells: 3 lines high) is drawn
    /// wrapped at its solved width (400: one line), as its `text` answer says.
    @Test func aPreferredWidthLabelIsDrawnAtItsFrame() throws {
        let a = Self.mono.advance
        let (elements, _) = try wireframe(#"""
        {"container":{"width":400,"height":300},"views":{"l":{"text":{"string":"aaaa bbbb cccc","font":{"family":"DejaVu Sans Mono","size":13},"numberOfLines":0,"preferredMaxLayoutWidth":\#(4 * a)}}},
         "constraints":["H:|[l]|","V:|[l]"]}
        """#)
        let (group, children) = try textGroup(elements, view: "l")
        #expect(group.attributes["data-lines"] == "1")
        #expect(group.attributes["data-truncated"] == "false")
        #expect(children.map(\.text) == ["aaaa bbbb cccc"])
        #expect(abs(try value(children[0], "data-width") - 14 * a) <= 1e-6)
    }

    @Test func nestedLabelsAreDrawnFromTheContainersOrigin() throws {
        let (elements, _) = try wireframe(#"""
        {"container":{"width":300,"height":300},"views":{"card":{},"t":{"parent":"card","text":{"string":"Hi","font":{"family":"DejaVu Serif","size":20,"weight":700,"italic":true}}}},
         "constraints":["H:|-30-[card]-30-|","V:|-40-[card(100)]","H:|-7-[t]","V:|-5-[t]"]}
        """#)
        let (group, children) = try textGroup(elements, view: "t")
        #expect(group.attributes["font-family"] == "'DejaVu Serif', serif")
        #expect(group.attributes["font-weight"] == "700")
        #expect(group.attributes["font-style"] == "italic")
        let face = try SceneText.measurer.face(for: FontRequest(family: "DejaVu Serif", size: 20, weight: 700, italic: true))
        let loaded = try #require(SceneText.measurer.faces.load(face))
        let ascender = Double(loaded.ascender) * 20 / Double(loaded.unitsPerEm)
        #expect(children.map(\.text) == ["Hi"])
        #expect(try value(children.first, "x") == 37)
        #expect(abs(try value(children.first, "y") - (45 + ascender)) <= 1e-6)
    }

    @Test func aLabelWithMoreLinesThanAllowedIsMarkedTruncated() throws {
        let a = Self.mono.advance
        // Four lines at 4 cells, two allowed: "aaaa", "bbbb" cut where the ellipsis (1 em,
        // 13 points) then fits inside the frame, then the ellipsis.
        let (elements, _) = try wireframe(#"""
        {"container":{"width":\#(40 + 4 * a),"height":300},"views":{"l":\#(label("aaaa bbbb cccc dddd", lines: 2))},
         "constraints":["H:|-20-[l]-20-|","V:|-10-[l]"]}
        """#)
        let (group, children) = try textGroup(elements, view: "l")
        #expect(group.attributes["class"] == "text truncated")
        #expect(group.attributes["data-truncated"] == "true")
        #expect(group.attributes["data-lines"] == "2")
        #expect(children.map(\.name) == ["title", "rect", "text", "svg", "text"])
        #expect(children[0].text == "Label 'l' is truncated: its text does not fit its frame (2 lines shown)")
        let outline = children[1]
        #expect(outline.attributes["class"] == "outline")
        #expect(try value(outline, "x") == 20)
        #expect(try value(outline, "y") == 10)
        #expect(abs(try value(outline, "width") - 4 * a) <= 1e-6)
        #expect(try value(outline, "height") == (2 * Self.mono.lineHeight).rounded(.up))
        #expect(children[2].text == "aaaa")
        let clip = children[3]
        #expect(clip.attributes["class"] == "clip")
        #expect(try value(clip, "x") == 20)
        #expect(abs(try value(clip, "width") - (4 * a - 13)) <= 1e-6)
        #expect(elements.contains { $0.name == "text" && $0.depth == clip.depth + 1 && $0.text == "bbbb" })
        let ellipsis = children[4]
        #expect(ellipsis.attributes["class"] == "ellipsis")
        #expect(ellipsis.text == "…")
        #expect(abs(try value(ellipsis, "x") - (20 + 4 * a - 13)) <= 1e-6)
        #expect(abs(try value(ellipsis, "y") - (10 + Self.mono.ascender + Self.mono.lineHeight)) <= 1e-6)
    }

    /// A one-line label wider than its frame is cut where its ellipsis then fits inside the
    /// frame (a nested viewport), the ellipsis there; right to left, mirrored.
    @Test func aLineWiderThanItsFrameIsCutAtTheFrame() throws {
        let a = Self.mono.advance
        let (elements, raw) = try wireframe(#"""
        {"container":{"width":\#(40 + 6 * a),"height":100},"views":{"l":\#(label("aaaa bbbb cccc", lines: 1))},
         "constraints":["H:|-20-[l]-20-|","V:|-10-[l]"]}
        """#)
        let (group, children) = try textGroup(elements, view: "l")
        #expect(group.attributes["data-truncated"] == "true")
        #expect(children.map(\.name) == ["title", "rect", "svg", "text"])
        let clip = children[2]
        #expect(clip.attributes["class"] == "clip")
        #expect(try value(clip, "x") == 20)
        #expect(try value(clip, "y") == 10)
        #expect(abs(try value(clip, "width") - (6 * a - 13)) <= 1e-6)
        #expect(clip.attributes["overflow"] == "hidden")
        // Its viewBox is its own box: the line keeps the panel's coordinates.
        #expect(clip.attributes["viewBox"] == ["x", "y", "width", "height"].compactMap { clip.attributes[$0] }.joined(separator: " "))
        let line = try #require(elements.first { $0.name == "text" && $0.depth == clip.depth + 1 && $0.text == "aaaa bbbb cccc" }, "\(raw)")
        #expect(try value(line, "x") == 20)
        #expect(abs(try value(line, "textLength") - 14 * a) <= 1e-6)
        let ellipsis = children[3]
        #expect(ellipsis.attributes["class"] == "ellipsis")
        #expect(abs(try value(ellipsis, "x") - (20 + 6 * a - 13)) <= 1e-6)
        // Right to left: the line ends at the frame's right side, cut at its left where the
        // ellipsis then fits, the ellipsis at the frame's left side.
        let (mirrored, _) = try wireframe(#"""
        {"container":{"width":\#(40 + 6 * a),"height":100},"views":{"l":\#(label("aaaa bbbb cccc", lines: 1))},
         "constraints":["H:|-20-[l]-20-|","V:|-10-[l]"],"options":{"layoutDirection":"rightToLeft"}}
        """#)
        let mirroredChildren = try textGroup(mirrored, view: "l").children
        #expect(mirroredChildren.map(\.name) == ["title", "rect", "svg", "text"])
        #expect(abs(try value(mirroredChildren[2], "x") - (20 + 13)) <= 1e-6)
        #expect(abs(try value(mirroredChildren[2], "width") - (6 * a - 13)) <= 1e-6)
        #expect(try value(mirroredChildren[3], "x") == 20)
        // A line that fits is drawn as before, with no viewport.
        let (fitting, _) = try wireframe(#"""
        {"container":{"width":\#(40 + 14 * a),"height":100},"views":{"l":\#(label("aaaa bbbb cccc", lines: 1))},
         "constraints":["H:|-20-[l]-20-|","V:|-10-[l]"]}
        """#)
        #expect(try textGroup(fitting, view: "l").children.map(\.name) == ["text"])
    }

    @Test func aFrameLowerThanItsLinesDrawsTheLinesItShows() throws {
        let a = Self.mono.advance
        let one = Self.mono.lineHeight.rounded(.up)
        let (elements, _) = try wireframe(#"""
        {"container":{"width":\#(40 + 4 * a),"height":300},"views":{"l":\#(label("aaaa bbbb cccc"))},
         "constraints":["H:|-20-[l]-20-|","V:|-10-[l(\#(one))]"]}
        """#)
        let (group, children) = try textGroup(elements, view: "l")
        #expect(group.attributes["data-lines"] == "1")
        #expect(group.attributes["data-truncated"] == "true")
        #expect(children.map(\.name) == ["title", "rect", "svg", "text"])
        #expect(elements.contains { $0.name == "text" && $0.depth == children[2].depth + 1 && $0.text == "aaaa" })
        #expect(children[3].text == "…")
    }

    /// UILabel's natural alignment: right under `layoutDirection: rightToLeft`, each line
    /// ending at the frame's right edge; the ellipsis of a truncated one before its start.
    @Test func rightToLeftLinesEndAtTheRightEdge() throws {
        let a = Self.mono.advance
        let (elements, _) = try wireframe(#"""
        {"container":{"width":\#(40 + 9.5 * a),"height":300},"views":{"l":\#(label("aaaa bbbb cc dddd eeee", lines: 2))},
         "constraints":["H:|-20-[l]-20-|","V:|-10-[l]"],"options":{"layoutDirection":"rightToLeft"}}
        """#)
        let (_, children) = try textGroup(elements, view: "l")
        let lines = children.filter { $0.name == "text" && $0.attributes["class"] == nil }
        #expect(lines.map(\.text) == ["aaaa bbbb", "cc dddd"])
        let right = 20 + 9.5 * a
        #expect(abs(try value(lines.first, "x") - (right - 9 * a)) <= 1e-6)
        #expect(abs(try value(lines.last, "x") - (right - 7 * a)) <= 1e-6)
        let ellipsis = try #require(children.first { $0.attributes["class"] == "ellipsis" })
        #expect(abs(try value(ellipsis, "x") - (right - 7 * a - 13 * WireframeRenderer.ellipsisWidth)) <= 1e-6)
    }

    /// A hidden label, or one inside a hidden view, is laid out but not drawn (UIKit's
    /// `isHidden`); its rect is drawn as every view's.
    @Test func hiddenLabelsAreNotDrawn() throws {
        let (elements, _) = try wireframe(#"""
        {"container":{"width":300,"height":300},
         "views":{"box":{"hidden":true},"inside":{"parent":"box","text":{"string":"in a hidden box"}},
                  "shy":{"hidden":true,"text":{"string":"hidden"}},"shown":{"text":{"string":"shown"}}},
         "constraints":["H:|[box]|","V:|[box(100)]-[shy]-[shown]","H:|[inside]","V:|[inside]","H:|[shy]","H:|[shown]"]}
        """#)
        let drawn = elements.filter { $0.name == "g" && ($0.attributes["class"] ?? "").hasPrefix("text") }
        #expect(drawn.map { $0.attributes["data-view"] } == ["shown"])
        #expect(Set(try #require(WireframeTests.viewRects(elements).first).keys) == ["superview", "box", "inside", "shy", "shown"])
    }

    @Test func aViewsLabelIsNotDrawnOverItsText() throws {
        let a = Self.mono.advance
        let (elements, _) = try wireframe(#"""
        {"container":{"width":\#(40 + 9.5 * a),"height":300},"views":{"l":\#(label("aaaa bbbb cc"))},
         "constraints":["H:|-20-[l]-20-|","V:|-10-[l]"]}
        """#)
        let svg = try #require(elements.first)
        let scale = try value(svg, "data-scale")
        let placed = try #require(elements.first { $0.attributes["data-for"] == "l" })
        // The placed label's box, points (WireframeRenderer.labelWidth, ascent and descent).
        let fontSize = WireframeTests.number(placed, "font-size") ?? WireframeRenderer.labelFont / scale
        let left = try value(placed, "x"), baseline = try value(placed, "y")
        let right = left + WireframeRenderer.labelWidth(placed.text, fontSize: fontSize * scale) / scale
        let top = baseline - WireframeRenderer.ascent * fontSize, bottom = baseline + WireframeRenderer.descent * fontSize
        // The drawn lines: 9 cells wide, two line heights tall, from (20, 10).
        let ink = (minX: 20.0, minY: 10.0, maxX: 20 + 9 * a, maxY: 10 + 2 * Self.mono.lineHeight)
        let overlaps = left < ink.maxX && ink.minX < right && top < ink.maxY && ink.minY < bottom
        #expect(!overlaps, "label '\(placed.text)' at \(left),\(top)–\(right),\(bottom) over the text \(ink)")
    }

    @Test func hostileStringsAreEscaped() throws {
        // `<`, `&`, `]]>`, quotes, a C0 control, right-to-left override and isolate.
        let json = #"{"container":{"width":900,"height":100},"views":{"l":{"text":{"string":"<b>&amp; ]]> \"q\" 'a' \u0001 \u202Eevil\u2066x\u2069","font":{"family":"DejaVu Sans"}}}},"constraints":["H:|[l]","V:|[l]"]}"#
        let (elements, raw) = try wireframe(json)
        let (_, children) = try textGroup(elements, view: "l")
        #expect(children.map(\.text) == ["<b>&amp; ]]> \"q\" 'a' \u{FFFD} \u{202E}evil\u{2066}x\u{2069}"])
        #expect(raw.contains("&lt;b&gt;&amp;amp; ]]&gt; &quot;q&quot; &#39;a&#39; \u{FFFD} &#x202E;evil&#x2066;x&#x2069;</text>"))
        #expect(!raw.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{2066}" || $0 == "\u{1}" })
        #expect(!raw.contains("]]>"))
    }

    @Test("directional controls become references", arguments: [
        ("\u{200E}", "&#x200E;"), ("\u{200F}", "&#x200F;"), ("\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}", "&#x202A;&#x202B;&#x202C;&#x202D;&#x202E;"),
        ("\u{2066}\u{2067}\u{2068}\u{2069}", "&#x2066;&#x2067;&#x2068;&#x2069;"), ("\u{61C}", "&#x61C;"),
        // Neighbours that are not controls stay as they are.
        ("\u{2010}\u{2029}\u{2065}\u{206A}\u{202F}", "\u{2010}\u{2029}\u{2065}\u{206A}\u{202F}"), ("\u{61B}", "\u{61B}"),
    ])
    func directionalControls(_ input: String, _ expected: String) {
        #expect(SVGWriter.escaped(input) == expected)
    }

    @Test func familyNamesAreOneCSSString() {
        #expect(WireframeRenderer.fontFamily("Inter") == "'Inter', sans-serif")
        #expect(WireframeRenderer.fontFamily("Liberation Mono") == "'Liberation Mono', monospace")
        #expect(WireframeRenderer.fontFamily("Liberation Serif") == "'Liberation Serif', serif")
        #expect(WireframeRenderer.fontFamily("Acme'; } x {") == "'Acme  x ', sans-serif")
        #expect(WireframeRenderer.fontFamily("';") == "sans-serif")
    }

    @Test func drawnTextPastItsBoundIsCutAndSaysSo() throws {
        let a = Self.mono.advance
        let prepared = try WireframeTests.prepare(#"""
        {"container":{"width":\#(40 + 4 * a),"height":300},"views":{"l":\#(label("aaaa bbbb cccc")),"m":\#(label("dddd"))},
         "constraints":["H:|-20-[l]-20-|","V:|-10-[l]","H:|-20-[m]","V:[l]-[m]"]}
        """#)
        let engine = SceneEngine()
        let (compiled, layouts) = engine.compileAndSolve(prepared)
        let text = try #require(prepared.text)
        // Room for "aaaa" and "bbbb" only.
        var budget = 2 * (4 + SceneText.drawnLineOverhead)
        let drawn = text.drawnLabels(in: layouts[0], budget: &budget)
        #expect(budget == 0)
        #expect(drawn.map(\.name) == ["l", "m"])
        #expect(drawn.map { $0.lines.map(\.text) } == [["aaaa", "bbbb"], []])
        #expect(drawn.map(\.isCut) == [true, true])
        #expect(drawn.map(\.linesShown) == [3, 1])
        let output = WireframeRenderer.svg(compiled: compiled, layouts: layouts, sizes: nil, texts: [drawn],
                                           maxBytes: .max, pool: nil, maxWork: .max)
        let elements = try WireframeTests.parse(output.bytes)
        let (group, children) = try textGroup(elements, view: "l")
        #expect(group.attributes["data-cut"] == "true")
        #expect(children.first?.name == "title")
        #expect(children.first?.text == "Not every line is drawn: the wireframe draws at most 2097152 bytes of label text")
        #expect(children.filter { $0.name == "text" }.map(\.text) == ["aaaa", "bbbb"])
        // Under the bound every line is drawn and nothing is cut.
        var enough = WireframeRenderer.maxDrawnTextBytes
        let whole = text.drawnLabels(in: layouts[0], budget: &enough)
        #expect(whole.map { $0.lines.map(\.text) } == [["aaaa", "bbbb", "cccc"], ["dddd"]])
        #expect(enough == WireframeRenderer.maxDrawnTextBytes - 16 - 4 * SceneText.drawnLineOverhead)
        #expect(whole.map(\.isCut) == [false, false])
    }

    /// One label of 9,999 bytes on one line at 300 sizes would draw 3 MB of text: the
    /// document draws whole panels' lines up to ``WireframeRenderer/maxDrawnTextBytes`` and
    /// marks the rest cut.
    @Test func theDrawnTextOfADocumentIsBounded() throws {
        let string = Array(repeating: "a", count: 5_000).joined(separator: " ")
        let sizes = (0..<300).map { #"{"width":\#(200 + $0)}"# }.joined(separator: ",")
        let (elements, raw) = try wireframe(#"""
        {"sizes":[\#(sizes)],"views":{"l":{"text":{"string":"\#(string)","font":{"family":"DejaVu Sans Mono","size":1}}}},
         "constraints":["H:|-[l]-|","V:|-[l]-|"]}
        """#)
        let groups = elements.indices.filter { elements[$0].name == "g" && elements[$0].attributes["data-view"] == "l"
            && (elements[$0].attributes["class"] ?? "").hasPrefix("text") }
        #expect(groups.count == 300)
        let lines = elements.filter { $0.name == "text" && $0.text == string }
        let perLine = string.utf8.count + SceneText.drawnLineOverhead
        #expect(lines.count == WireframeRenderer.maxDrawnTextBytes / perLine)
        #expect(lines.count == 207)
        let cut = groups.filter { elements[$0].attributes["data-cut"] == "true" }
        #expect(cut.count == 300 - 207)
        #expect(cut.first == groups[207])
        // The drawn text is in the document once per drawn line: 2 MB, not 3.
        #expect(raw.utf8.count < 207 * perLine + 300 * 2_000)
    }

    @Test func eachSizeDrawsItsOwnWrapping() throws {
        let a = Self.mono.advance
        let (elements, _) = try wireframe(#"""
        {"sizes":[{"width":\#(40 + 9 * a),"height":200},{"width":\#(40 + 4 * a),"height":200}],
         "views":{"l":\#(label("aaaa bbbb cccc dddd"))},"constraints":["H:|-20-[l]-20-|","V:|-10-[l]"]}
        """#)
        let groups = elements.indices.filter { elements[$0].name == "g" && elements[$0].attributes["data-view"] == "l"
            && elements[$0].attributes["class"] == "text" }
        #expect(groups.count == 2)
        let lines = groups.map { start in
            elements[(start + 1)...].prefix { $0.depth > elements[start].depth }.filter { $0.name == "text" }.map(\.text)
        }
        #expect(lines == [["aaaa bbbb", "cccc dddd"], ["aaaa", "bbbb", "cccc", "dddd"]])
    }
}
