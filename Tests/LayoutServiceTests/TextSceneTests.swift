import Foundation
import LayoutCompiler
@testable import LayoutService
import Testing
import TextLayout

/// Labels in scenes through the scene engine (contract, "Text"): two passes, sizes, the
/// text answer, /validate, bad input and the work budget. Lengths come from DejaVu Sans
/// Mono's own numbers (every glyph one advance wide; HarfBuzz's extents and hmtx).
struct TextSceneTests {
    /// DejaVu Sans Mono at 13 points: one character's advance and the line height, points.
    static let mono: (advance: Double, lineHeight: Double, ascender: Double) = {
        let measurer = SceneText.measurer
        let face = try! measurer.face(for: FontRequest(family: "DejaVu Sans Mono"))
        let loaded = measurer.faces.load(face)!
        let scale = 13 / Double(loaded.unitsPerEm)
        return (Double(loaded.advance(of: "a")!) * scale, Double(loaded.ascender - loaded.descender + loaded.lineGap) * scale,
                Double(loaded.ascender) * scale)
    }()

    func answer(_ json: String, validate: Bool = false, limits: SceneLimits = SceneLimits()) throws -> (status: Int, body: JSONValue, text: String) {
        let engine = SceneEngine(limits: limits)
        let answer: EngineAnswer
        switch engine.prepare(body: Array(json.utf8), resolveGroup: { _ in nil }) {
        case .success(let prepared): answer = validate ? engine.validate(prepared) : engine.solve(prepared)
        case .failure(let failure): answer = engine.problem(status: failure.status, diagnostics: failure.diagnostics)
        }
        return (answer.status.code, try JSONParser().parse(answer.body), String(decoding: answer.body, as: UTF8.self))
    }

    func first(_ value: JSONValue?) -> JSONValue? {
        guard case .array(let elements)? = value else { return nil }
        return elements.first
    }

    func label(_ string: String, lines: Int = 0, extra: String = "") -> String {
        #"{"text":{"string":"\#(string)","font":{"family":"DejaVu Sans Mono","size":13},"numberOfLines":\#(lines)\#(extra)}}"#
    }

    /// A font size just above 0 (the contract's only lower bound) gives a line height so
    /// small that the lines a frame holds exceed `Int.max`: the label shows its one line.
    @Test func aTinyFontIsNotACrash() throws {
        for size in ["1e-17", "1e-100", "1e-300"] {
            let scene = #"{"container":{"width":320,"height":480},"views":{"l":{"text":{"string":"Hi","font":{"size":\#(size)}}}},"constraints":["H:|[l]|","V:|[l]|"]}"#
            let solved = try answer(scene)
            #expect(solved.status == 200, "\(size): \(solved.text)")
            #expect(solved.body["text"]?["l"]?["lines"] == .number(1))
            #expect(solved.body["text"]?["l"]?["truncated"] == .bool(false))
            let validated = try answer(scene, validate: true)
            #expect(validated.status == 200)
            #expect(validated.body["valid"] == .bool(true))
        }
    }

    /// A view cannot be a stack and a label at once: a 422 naming both.
    @Test func aStackCannotBeALabel() throws {
        let scene = #"{"views":{"a":{},"b":{},"s":{"stack":{"arranged":["a","b"]},"text":{"string":"I am a stack"}}},"constraints":[]}"#
        let refused = try answer(scene)
        #expect(refused.status == 422)
        #expect(refused.text.contains("View 's' has text and stack"))
        #expect(refused.text.contains("\"path\":\"$.views.s.text\""))
    }

    @Test func secondPassWrapsAtTheSolvedWidth() throws {
        let a = Self.mono.advance
        // 20 from each side of a container 20 + 9.5 cells + 20 wide: "aaaa bbbb cc" (12
        // cells) wraps into "aaaa bbbb" and "cc" at the solved 9.5 cells.
        let width = 40 + 9.5 * a
        let (status, body, text) = try answer(#"""
        {"container":{"width":\#(width),"height":300},"views":{"l":\#(label("aaaa bbbb cc"))},
         "constraints":["H:|-20-[l]-20-|","V:|-10-[l]"]}
        """#)
        #expect(status == 200, "\(text)")
        #expect(body["text"]?["l"]?["lines"] == .number(2), "\(text)")
        #expect(body["text"]?["l"]?["truncated"] == .bool(false))
        #expect(body["frames"]?["l"]?["height"] == .number((2 * Self.mono.lineHeight).rounded(.up)), "\(text)")
        #expect(body["diagnostics"] == .array([]))
    }

    @Test func aLabelBaselineIsItsMeasuredAscenderAndLastLine() throws {
        let a = Self.mono.advance
        // b's top sits on l's last baseline: 10 + ascender + (3 − 1) × line height.
        let (status, body, text) = try answer(#"""
        {"container":{"width":\#(40 + 4 * a),"height":300},
         "views":{"l":\#(label("aaaa bbbb cccc")),"b":{"intrinsicSize":{"width":10,"height":10}}},
         "constraints":["H:|-20-[l]-20-|","V:|-10-[l]","H:|[b]","b.top == l.lastBaseline"]}
        """#)
        #expect(status == 200, "\(text)")
        #expect(body["text"]?["l"]?["lines"] == .number(3))
        guard case .number(let y)? = body["frames"]?["b"]?["y"] else { Issue.record("no frame for b: \(text)"); return }
        #expect(abs(y - (10 + Self.mono.ascender + 2 * Self.mono.lineHeight)) < 1e-6, "\(text)")
    }

    @Test func aSceneThatOscillatesIsAnsweredUnstable() throws {
        let a = Self.mono.advance
        let one = Self.mono.lineHeight.rounded(.up), two = (2 * Self.mono.lineHeight).rounded(.up)
        // l.width == l.height + K with K between 9 cells − two lines and 9 cells − one line:
        // one line (pass 1) gives a width under "aaaa bbbb" (9 cells): two lines; two lines
        // a width over it: one line; and so on. Pass 8 has two lines.
        let k = 9 * a - (one + two) / 2
        let (status, body, text) = try answer(#"""
        {"container":{"width":400,"height":300},
         "views":{"l":{"text":{"string":"aaaa bbbb","font":{"family":"DejaVu Sans Mono","size":13},"numberOfLines":0},
                       "hugging":{"vertical":999},"compressionResistance":{"vertical":999}}},
         "constraints":["H:|-20-[l]","V:|-10-[l]","l.width == l.height + \#(k)"]}
        """#)
        #expect(status == 200, "\(text)")
        guard case .array(let diagnostics)? = body["diagnostics"] else { Issue.record("\(text)"); return }
        #expect(diagnostics.map { $0["code"] } == [.string("text_layout_unstable")], "\(text)")
        #expect(diagnostics.first?["view"] == .string("l"))
        #expect(body["frames"]?["l"]?["height"] == .number(two), "\(text)")
    }

    @Test func eachSizeDoesItsOwnPasses() throws {
        let a = Self.mono.advance
        let scene = #"""
        "views":{"l":\#(label("aaaa bbbb cccc dddd"))},"constraints":["H:|-20-[l]-20-|","V:|-10-[l]"]
        """#
        let widths = [40 + 9 * a, 40 + 4 * a, 40 + 19 * a]
        let (_, many, text) = try answer(#"{"sizes":[\#(widths.map { #"{"width":\#($0),"height":200}"# }.joined(separator: ","))],\#(scene)}"#)
        guard case .array(let layouts)? = many["layouts"] else { Issue.record("\(text)"); return }
        #expect(layouts.map { $0["text"]?["l"]?["lines"] } == [.number(2), .number(4), .number(1)], "\(text)")
        for (index, width) in widths.enumerated() {
            let (_, single, _) = try answer(#"{"container":{"width":\#(width),"height":200},\#(scene)}"#)
            #expect(layouts[index]["frames"] == single["frames"])
            #expect(layouts[index]["text"] == single["text"])
        }
    }

    @Test func preferredMaxLayoutWidthWrapsWithoutPasses() throws {
        let a = Self.mono.advance
        let (_, body, text) = try answer(#"""
        {"container":{"width":400,"height":300},"views":{"l":\#(label("aaaa bbbb cccc", extra: #","preferredMaxLayoutWidth":\#(4 * a)"#))},
         "constraints":["H:|-20-[l]","V:|-10-[l]"]}
        """#)
        #expect(body["text"]?["l"]?["lines"] == .number(3), "\(text)")
        #expect(body["frames"]?["l"]?["width"] == .number((4 * a).rounded(.up)), "\(text)")
    }

    /// `preferredMaxLayoutWidth` sets the width the intrinsic size is measured at, not the
    /// one the text is shown at: UILabel draws it in its bounds. Measured at 4 cells, "aaaa
    /// bbbb cccc" is 3 lines high; in a 400-wide frame it shows on 1 line, untruncated.
    /// Measured at 9.5 cells (2 lines high) in a frame of 4.5 cells, it wraps to 3 lines
    /// of which the frame shows 2: truncated.
    @Test func preferredMaxLayoutWidthSizesButTheFrameWraps() throws {
        let a = Self.mono.advance, lineHeight = Self.mono.lineHeight
        let (_, wide, wideText) = try answer(#"""
        {"container":{"width":400,"height":300},"views":{"l":\#(label("aaaa bbbb cccc", extra: #","preferredMaxLayoutWidth":\#(4 * a)"#))},
         "constraints":["H:|[l]|","V:|[l]"]}
        """#)
        #expect(wide["frames"]?["l"]?["width"] == .number(400), "\(wideText)")
        #expect(wide["frames"]?["l"]?["height"] == .number((3 * lineHeight).rounded(.up)))
        #expect(wide["text"]?["l"] == .object([("lines", .number(1)), ("truncated", .bool(false))]))
        let (_, narrow, narrowText) = try answer(#"""
        {"container":{"width":400,"height":300},"views":{"l":\#(label("aaaa bbbb cccc", extra: #","preferredMaxLayoutWidth":\#(9.5 * a)"#))},
         "constraints":["H:|[l(==\#(4.5 * a))]","V:|[l]"]}
        """#)
        #expect(narrow["frames"]?["l"]?["height"] == .number((2 * lineHeight).rounded(.up)), "\(narrowText)")
        #expect(narrow["text"]?["l"] == .object([("lines", .number(2)), ("truncated", .bool(true))]))
        // The report's scene: measured at 50 points, 4 lines high; shown at 200 on one.
        let (_, report, reportText) = try answer(#"""
        {"container":{"width":200},"views":{"t":{"text":{"string":"Hello there general","preferredMaxLayoutWidth":50,"numberOfLines":0}}},"constraints":["H:|[t]|","V:|[t]|"]}
        """#)
        #expect(report["frames"]?["t"]?["height"] == .number(83), "\(reportText)")
        #expect(report["text"]?["t"] == .object([("lines", .number(1)), ("truncated", .bool(false))]))
    }

    @Test func aFrameLowerThanTheLinesTruncates() throws {
        let (_, body, text) = try answer(#"""
        {"container":{"width":400,"height":300},"views":{"l":\#(label("aaaa\\nbbbb\\ncccc"))},
         "constraints":["H:|-20-[l]","V:|-10-[l(==\#(Self.mono.lineHeight * 2 + 1))]"]}
        """#)
        #expect(body["text"]?["l"]?["lines"] == .number(2), "\(text)")
        #expect(body["text"]?["l"]?["truncated"] == .bool(true))
    }

    /// A hidden arranged label, collapsed by its vertical stack to no height, is answered by
    /// the contract's rule for every label ("Text": truncated when the frame is lower than
    /// the lines need; "Stack views": a hidden arranged view keeps its frame, 0 along the
    /// axis): no line shown, truncated. The contract makes no exception for hidden views.
    @Test func aCollapsedHiddenLabelIsAnsweredByItsFrame() throws {
        let hidden = #"{"hidden":true,"text":{"string":"aaaa bbbb cccc dddd","font":{"family":"DejaVu Sans Mono","size":13},"numberOfLines":0}}"#
        let (status, body, text) = try answer(#"""
        {"container":{"width":\#(8 * Self.mono.advance),"height":300},
         "views":{"s":{"stack":{"axis":"vertical","arranged":["a","h"]}},"a":\#(label("aaaa")),"h":\#(hidden)},
         "constraints":["H:|[s]|","V:|[s]"]}
        """#)
        #expect(status == 200, "\(text)")
        #expect(body["frames"]?["h"]?["height"] == .number(0), "\(text)")
        #expect(body["text"]?["h"]?["lines"] == .number(0), "\(text)")
        #expect(body["text"]?["h"]?["truncated"] == .bool(true), "\(text)")
        #expect(text.contains(#""text":{"a":{"lines":1,"truncated":false},"h":{"lines":0,"truncated":true}}"#), "\(text)")
    }

    @Test func validateJudgesLabels() throws {
        let (status, body, text) = try answer(#"""
        {"container":{"width":320,"height":300},"views":{"l":{"text":{"string":"Hi ☃ \u0fff","font":{"family":"Inter"}}}},
         "constraints":["H:|-[l]","V:|-[l]"]}
        """#, validate: true)
        #expect(status == 200)
        #expect(body["valid"] == .bool(true), "\(text)")
        guard case .array(let diagnostics)? = body["diagnostics"] else { Issue.record("\(text)"); return }
        #expect(diagnostics.map { $0["code"] } == [.string("missing_glyphs")], "\(text)")
        // It names the characters: U+0FFF (unassigned) is in no built-in family.
        #expect(diagnostics.first?["message"] == .string("Label 'l' has characters that neither Inter nor any built-in family has (U+0FFF): they are measured as the font's .notdef glyph"), "\(text)")
    }

    @Test func badTextIsRejected() throws {
        let cases: [(String, Int, String)] = [
            (#"{"text":{"string":"x"},"intrinsicSize":{"width":1}}"#, 422, "invalid_scene"),
            (#"{"text":{"string":"x"},"baseline":3}"#, 422, "invalid_scene"),
            (#"{"text":{"string":"x","font":{"size":0}}}"#, 422, "invalid_scene"),
            (#"{"text":{"string":"x","font":{"size":1001}}}"#, 422, "invalid_scene"),
            (#"{"text":{"string":"x","font":{"weight":50}}}"#, 422, "invalid_scene"),
            (#"{"text":{"string":"x","font":{"weight":"bold"}}}"#, 400, "invalid_scene"),
            (#"{"text":{"string":"\#(String(repeating: "é", count: 10_001))"}}"#, 422, "invalid_scene"),
            (#"{"text":{"string":"x","font":{"family":"Comic Sands"}}}"#, 422, "unknown_font"),
            (#"{"text":{"font":{"size":3}}}"#, 400, "invalid_scene"),
        ]
        for (view, status, code) in cases {
            let (got, body, text) = try answer(#"{"container":{"width":100,"height":100},"views":{"l":\#(view)},"constraints":["H:|[l]"]}"#)
            #expect(got == status, "\(view): \(text)")
            #expect(first(body["diagnostics"])?["code"] == .string(code), "\(view): \(text)")
        }
        let (_, body, _) = try answer(#"{"views":{"l":{"text":{"string":"x","font":{"family":"LIBERATION sanz"}}}}}"#)
        #expect(first(body["diagnostics"])?["message"] == .string("Unknown font family 'LIBERATION sanz'; did you mean 'Liberation Sans'?"))
    }

    /// A family that ends with a weight or style word names the family to write with the
    /// weight and italic that say it; an Apple family names what `POST /import` maps it to
    /// (``FontFamilyHint``).
    @Test func styledAndAppleFamiliesSuggestTheFamilyToWrite() throws {
        let cases: [(family: String, message: String)] = [
            ("DejaVu Sans Bold", "Unknown font family 'DejaVu Sans Bold'; did you mean family 'DejaVu Sans' with weight 700?"),
            ("Inter Bold", "Unknown font family 'Inter Bold'; did you mean family 'Inter' with weight 700?"),
            ("Inter-Bold", "Unknown font family 'Inter-Bold'; did you mean family 'Inter' with weight 700?"),
            ("inter-BoldItalic", "Unknown font family 'inter-BoldItalic'; did you mean family 'Inter' with weight 700 and italic true?"),
            ("Liberation Serif Italic", "Unknown font family 'Liberation Serif Italic'; did you mean family 'Liberation Serif' with italic true?"),
            ("Inter Semi Bold", "Unknown font family 'Inter Semi Bold'; did you mean family 'Inter' with weight 600?"),
            ("Inter UltraLight Oblique", "Unknown font family 'Inter UltraLight Oblique'; did you mean family 'Inter' with weight 200 and italic true?"),
            ("system heavy", "Unknown font family 'system heavy'; did you mean family 'system' with weight 800?"),
            ("Helvetica", "Unknown font family 'Helvetica'; did you mean 'Liberation Sans' (what /import uses for Helvetica)?"),
            ("Times New Roman", "Unknown font family 'Times New Roman'; did you mean 'Liberation Serif' (what /import uses for Times New Roman)?"),
            ("Menlo", "Unknown font family 'Menlo'; did you mean 'Liberation Mono' (what /import uses for Menlo)?"),
            ("SF Pro", "Unknown font family 'SF Pro'; did you mean 'system' (what /import uses for SF Pro)?"),
            ("Helvetica Neue-Medium", "Unknown font family 'Helvetica Neue-Medium'; did you mean family 'Liberation Sans' with weight 500 (what /import uses for Helvetica Neue)?"),
            // Neither a style nor an Apple family: the edit distance, as before.
            ("Comic Bold", "Unknown font family 'Comic Bold'"),
            ("Bold", "Unknown font family 'Bold'"),
        ]
        for (family, message) in cases {
            let (status, body, text) = try answer(#"{"views":{"l":{"text":{"string":"x","font":{"family":"\#(family)"}}}}}"#)
            #expect(status == 422, "\(text)")
            #expect(first(body["diagnostics"])?["code"] == .string("unknown_font"), "\(text)")
            #expect(first(body["diagnostics"])?["message"] == .string(message), "\(text)")
            #expect(first(body["diagnostics"])?["path"] == .string("$.views.l.text.font.family"), "\(text)")
        }
    }

    /// A label wrapped into many short lines costs a HarfBuzz call a line, and is charged
    /// so: one label of 10,000 `W` at 47 points (2 a line, 5,000 lines) is refused under a
    /// budget of 4 million cell operations that the same label on one line fits in
    /// (preparing, the first pass and the second each charge its 10,001 units at 75).
    @Test func narrowLabelsAreChargedPerLineShaped() throws {
        var limits = SceneLimits()
        limits.maxSolverWork = 4_000_000
        func scene(width: Int) -> String {
            #"{"container":{"width":\#(width)},"views":{"l":{"text":{"string":"\#(String(repeating: "W", count: 10_000))","numberOfLines":0}}},"constraints":["H:|[l]|","V:|[l]"]}"#
        }
        let (wide, wideBody, wideText) = try answer(scene(width: 1_000_000), limits: limits)
        #expect(wide == 200, "\(wideText.prefix(300))")
        #expect(wideBody["text"]?["l"]?["lines"] == .number(1))
        let (narrow, narrowBody, narrowText) = try answer(scene(width: 47), limits: limits)
        #expect(narrow == 422, "\(narrowText.prefix(300))")
        #expect(first(narrowBody["diagnostics"])?["code"] == .string("limit_exceeded"), "\(narrowText.prefix(300))")
        #expect(narrowBody["frames"] == nil)
        // Under the default budget it is laid out: 5,000 lines.
        let (_, body, text) = try answer(scene(width: 47))
        #expect(body["text"]?["l"]?["lines"] == .number(5000), "\(text.prefix(300))")
    }

    /// Labels whose strings alone pass the budget (75 units a UTF-16 code unit and one per
    /// label) are refused before measuring, at the string of the label that passed it: `a`
    /// (101 × 75 = 7,575) fits 100,000, `b` (2,001 × 75 more) does not.
    @Test func labelsOverTheBudgetAreRefusedAtTheirString() throws {
        var limits = SceneLimits()
        limits.maxSolverWork = 100_000
        let a = String(repeating: "a", count: 100), b = String(repeating: "b ", count: 1_000)
        let (status, body, text) = try answer(#"{"views":{"a":\#(label(a)),"b":\#(label(b))},"constraints":["H:|[a]|","H:|[b]|","V:|[a][b]"]}"#, limits: limits)
        #expect(status == 422, "\(text.prefix(300))")
        #expect(body["diagnostics"] == .array([.object([
            ("severity", .string("error")), ("code", .string("limit_exceeded")),
            ("message", .string("The scene's labels take more work to measure than allowed (limit maxSolverWork, 100000 cell operations for a request): shorten or split them, or raise --max-solver-work")),
            ("path", .string("$.views.b.text.string")), ("view", .string("b")),
        ])]), "\(text.prefix(600))")
    }

    @Test func aThousandLabelsAtAThousandSizesIsOverTheWorkLimit() throws {
        let views = (0..<1000).map { #""l\#($0)":{"text":{"string":"Label number \#($0) wraps","numberOfLines":0}}"# }.joined(separator: ",")
        let constraints = (0..<1000).map { #""H:|-[l\#($0)]-|""# }.joined(separator: ",")
        let sizes = (0..<1000).map { #"{"width":\#(200 + $0 % 100),"height":900}"# }.joined(separator: ",")
        let (status, body, text) = try answer(#"{"views":{\#(views)},"constraints":[\#(constraints)],"sizes":[\#(sizes)],"options":{"ambiguity":"ignore"}}"#)
        // Solving is charged per size: the request stops at the budget (a 200 whose later
        // layouts are limit_exceeded errors), never running all the passes.
        #expect(status == 200 || status == 422, "\(text.prefix(300))")
        let codes: [JSONValue?]
        if case .array(let layouts)? = body["layouts"] {
            codes = layouts.compactMap { first($0["diagnostics"])?["code"] }
        } else {
            codes = [first(body["diagnostics"])?["code"]]
        }
        #expect(codes.contains(.string("limit_exceeded")), "\(text.prefix(300))")
    }
}
