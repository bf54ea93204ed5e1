import LayoutCompiler
import LayoutSyntax
import Testing

/// One diagnostics list holds at most 100 diagnostics and one warning for the
/// rest; `source` is a window of at most 256 scalars with the caret on its character.
extension DiagnosticsTests {
    /// `H:|[a][a]…[a]|` with `parts` views: a's width is at least 10 (required), and
    /// each `[a][a]` (a.leading == a.trailing) conflicts with it.
    func flushChain(_ parts: Int, conflicts: String = "break") -> String {
        let chain = "H:|" + String(repeating: "[a]", count: parts) + "|"
        return #"{"container":{"width":375,"height":667},"views":{"a":{"intrinsicSize":{"width":10},"compressionResistance":{"horizontal":1000}}},"constraints":[""# + chain + #""],"options":{"conflicts":""# + conflicts + #""}}"#
    }

    @Test func aHundredConflictsAndOneWarning() throws {
        // 299 conflicts (parts 1…299) and a's y and height ambiguous: 301 findings.
        let (_, result) = try layout(flushChain(300))
        let listed = LayoutDiagnostic.bounded(result.diagnostics)
        #expect(listed.count == 101)
        // Every code keeps its first findings (the two ambiguous fields), then the errors
        // fill the list in the contract's order: parts 1 to 98.
        #expect(listed.prefix(98).allSatisfy { $0.code == .unsatisfiableConstraints })
        #expect(listed.prefix(98).map { $0.part ?? -1 } == Array(1...98))
        #expect(listed[98 ..< 100].map(\.code) == [.ambiguousLayout, .ambiguousLayout])
        #expect(listed[98 ..< 100].map { $0.attribute ?? "" } == ["y", "height"])
        let warning = try #require(listed.last)
        #expect(warning.code == .limitExceeded)
        #expect(warning.severity == .warning)
        #expect(warning.message == "201 more diagnostics were found and left out: a list holds at most 100 (limit maxDiagnostics)")
        // The conflicts left unexplained are left out all the same: a's width is 375.
        #expect(result.frame("a").width == 375)
        #expect(!result.isRejected)
        // Bounding is idempotent.
        #expect(LayoutDiagnostic.bounded(listed) == listed)
    }

    @Test func conflictsUnderErrorAreBoundedToo() throws {
        let (_, result) = try layout(flushChain(300, conflicts: "error"))
        let listed = LayoutDiagnostic.bounded(result.diagnostics)
        #expect(result.isRejected)
        #expect(listed.count == 101)
        #expect(listed.last?.message == "201 more diagnostics were found and left out: a list holds at most 100 (limit maxDiagnostics)")
    }

    @Test func exactlyAHundredNeedNoWarning() throws {
        // 99 conflicts and 2 ambiguous fields: 101 → 100 and a warning for 1; 98 and 2: 100, no warning.
        let (_, over) = try layout(flushChain(100))
        #expect(LayoutDiagnostic.bounded(over.diagnostics).count == 101)
        #expect(LayoutDiagnostic.bounded(over.diagnostics).last?.message == "1 more diagnostic was found and left out: a list holds at most 100 (limit maxDiagnostics)")
        let (_, full) = try layout(flushChain(99))
        #expect(full.diagnostics.count == 100)
        #expect(LayoutDiagnostic.bounded(full.diagnostics) == full.diagnostics)
        #expect(!full.diagnostics.contains { $0.code == .limitExceeded })
    }

    @Test func aWorkLimitErrorIsKeptPastTheBound() throws {
        let list = (0..<150).map { LayoutDiagnostic(severity: .warning, code: .ambiguousLayout, message: "m\($0)") }
        let decisive = LayoutDiagnostic(code: .limitExceeded, message: "work")
        let kept = LayoutDiagnostic.appending(decisive, to: list)
        #expect(kept.count == 101)
        #expect(kept[99] == decisive)
        #expect(kept[98].message == "m98")
        #expect(kept[100].message == "51 more diagnostics were found and left out: a list holds at most 100 (limit maxDiagnostics)")
        #expect(LayoutDiagnostic.bounded(kept) == kept)
    }

    /// Hundreds of one kind do not hide another: a 300-view chain of ambiguous views
    /// and one view with a negative width answer 99 `ambiguous_layout` warnings (the first
    /// found) and the `negative_size` one; past the bound each code keeps its first five,
    /// then errors, then warnings fill the list.
    @Test func everyCodeKeepsItsFirstDiagnostics() throws {
        let names = (0..<300).map { "v\($0)" }
        let chain = "H:|" + names.map { "[\($0)]" }.joined() + "|"
        let views = (names + ["n"]).map { "\"\($0)\"" }.joined(separator: ",")
        let (_, result) = try layout(#"{"container":{"width":375,"height":667},"views":[\#(views)],"constraints":[""#
            + chain + #"","n.width == -10","n.height == 5","n.left == 0","n.top == 0"]}"#)
        let listed = LayoutDiagnostic.bounded(result.diagnostics)
        #expect(listed.count == 101)
        #expect(listed.prefix(99).allSatisfy { $0.code == .ambiguousLayout })
        #expect(listed[99].code == .negativeSize)
        #expect(listed[99].message == "'n' has a negative width (-10 points)")
        let found = LayoutDiagnostic.total(result.diagnostics)
        #expect(listed[100].message == "\(found - 100) more diagnostics were found and left out: a list holds at most 100 (limit maxDiagnostics)")
        #expect(LayoutDiagnostic.bounded(listed) == listed)

        // The rule itself: floors of five per code, then errors, then warnings, in order.
        func made(_ code: LayoutDiagnostic.Code, _ count: Int, warning: Bool = false) -> [LayoutDiagnostic] {
            (0..<count).map { LayoutDiagnostic(severity: warning ? .warning : .error, code: code, message: "\(code.rawValue) \($0)") }
        }
        let mixed = made(.ambiguousLayout, 120, warning: true) + made(.unknownView, 60) + made(.negativeSize, 2, warning: true)
            + made(.vflSyntax, 30)
        let kept = LayoutDiagnostic.bounded(mixed)
        #expect(kept.count == 101)
        // 5 + 5 + 2 + 5 floors, the 80 other errors, then the first 3 other warnings.
        #expect(kept.filter { $0.code == .ambiguousLayout }.map(\.message) == (0..<8).map { "ambiguous_layout \($0)" })
        #expect(kept.filter { $0.code == .unknownView }.count == 60)
        #expect(kept.filter { $0.code == .negativeSize }.count == 2)
        #expect(kept.filter { $0.code == .vflSyntax }.count == 30)
        #expect(kept.prefix(100).map(\.message) == mixed.map(\.message).filter { Set(kept.map(\.message)).contains($0) })
        #expect(kept[100].message == "112 more diagnostics were found and left out: a list holds at most 100 (limit maxDiagnostics)")
        #expect(LayoutDiagnostic.bounded(kept) == kept)

        // The compiler builds the first of each code past the bound too: 150 unknown views,
        // then a VFL syntax error.
        let constraints = (0..<150).map { _ in #""zz.width == 5""# }.joined(separator: ",") + #","H:|-[a""#
        let scene = try SceneDecoder().decode(body: Array(#"{"views":["a"],"constraints":[\#(constraints)]}"#.utf8))
        let compiled = SceneCompiler(scene: scene).compile()
        #expect(compiled.diagnostics.map(\.code) == Array(repeating: .unknownView, count: 100) + [.vflSyntax, .limitExceeded])
        let answered = LayoutDiagnostic.bounded(compiled.diagnostics)
        #expect(answered.map(\.code) == Array(repeating: .unknownView, count: 99) + [.vflSyntax, .limitExceeded])
        #expect(answered.last?.message == "51 more diagnostics were found and left out: a list holds at most 100 (limit maxDiagnostics)")
    }

    @Test func compileErrorsAreBoundedAndStillErrors() throws {
        // 150 entries naming an unknown view: 100 listed, 50 counted, and the scene has errors.
        let constraints = (0..<150).map { _ in #""zz.width == 5""# }.joined(separator: ",")
        let scene = try SceneDecoder().decode(body: Array(#"{"views":["a"],"constraints":[\#(constraints)]}"#.utf8))
        let compiled = SceneCompiler(scene: scene).compile()
        #expect(compiled.hasErrors)
        #expect(compiled.diagnostics.count == 101)
        #expect(compiled.diagnostics.last?.message == "50 more diagnostics were found and left out: a list holds at most 100 (limit maxDiagnostics)")
        #expect(compiled.diagnostics.prefix(100).allSatisfy { $0.code == .unknownView })
    }

    @Test func aLongSourceIsAWindowWithTheCaretOnItsCharacter() throws {
        // An unknown view `zz` after 200 views: column 604 of a 1,207-scalar string.
        let chain = "H:|" + String(repeating: "[a]", count: 200) + "[zz]" + String(repeating: "[a]", count: 200) + "|"
        let scene = try SceneDecoder().decode(body: Array(#"{"views":["a"],"constraints":[""#.utf8) + Array(chain.utf8) + Array(#""]}"#.utf8))
        let compiled = SceneCompiler(scene: scene).compile()
        let unknown = try #require(compiled.diagnostics.first { $0.code == .unknownView })
        let source = try #require(unknown.source)
        let column = try #require(unknown.column)
        let offset = try #require(unknown.sourceOffset)
        #expect(source.unicodeScalars.count == 256)
        #expect(offset + column == 604)
        let original = Array(chain.unicodeScalars)
        #expect(original[604] == "z" && original[603] == "[")
        let shown = Array(source.unicodeScalars)
        #expect(shown[column] == "z" && shown[column - 1] == "[")
        #expect(shown.first == "…" && shown.last == "…")
        #expect(column == 128)
        #expect(unknown.rendered().hasSuffix("\n    (a window of a longer string: the caret is at its column 604)"))
        // The constraint ref text of a long part is cut too; a short source is whole.
        let short = try SceneDecoder().decode(body: Array(#"{"views":["a"],"constraints":["H:|[zz]|"]}"#.utf8))
        let plain = try #require(SceneCompiler(scene: short).compile().diagnostics.first)
        #expect(plain.source == "H:|[zz]|" && plain.column == 4 && plain.sourceOffset == nil)
    }

    @Test func aLongUnknownNameIsQuotedCut() throws {
        let name = String(repeating: "q", count: 5_000)
        let scene = try SceneDecoder().decode(body: Array(#"{"views":["a"],"constraints":["H:|[\#(name)]|"]}"#.utf8))
        let diagnostic = try #require(SceneCompiler(scene: scene).compile().diagnostics.first)
        #expect(diagnostic.code == .unknownView)
        #expect(diagnostic.message == "Unknown view '\(String(repeating: "q", count: 255))…'")
        #expect(diagnostic.source?.unicodeScalars.count == 256)
        #expect(diagnostic.column == 4)
    }
}
