@testable import LayoutCompiler
import Testing

/// The baseline check that decides whether a label pass compiles the scene again reads each
/// entry's text once (`SceneText.mentionsBaselines`).
struct SceneTextBaselineScanTests {
    /// `count` labels in one `V:` chain, each also pinned by an `H:` entry of its own.
    private func chainScene(_ count: Int, extra: String = "") throws -> CompiledScene {
        let views = (0..<count).map { #""l\#($0)":{"text":{"string":"Label \#($0)","numberOfLines":0}}"# }.joined(separator: ",")
        let horizontal = (0..<count).map { #""H:|-8-[l\#($0)]-8-|""# }.joined(separator: ",")
        let chain = "V:|" + (0..<count).map { "[l\($0)]" }.joined() + "|"
        let json = #"{"container":{"width":200},"views":{\#(views)},"constraints":[\#(horizontal),"\#(chain)"\#(extra)]}"#
        return SceneCompiler(scene: try SceneDecoder().decode(body: Array(json.utf8))).compile()
    }

    @Test func aLongChainIsSearchedOnceNotOncePerConstraint() throws {
        let compiled = try chainScene(2000)
        let chainBytes = ("V:|" + (0..<2000).map { "[l\($0)]" }.joined() + "|").utf8.count
        let horizontalBytes = (0..<2000).map { "H:|-8-[l\($0)]-8-|".utf8.count }.reduce(0, +)
        let scan = SceneText.mentionsBaselines(compiled.constraints)
        #expect(!scan.mentions)
        // Every entry's text once: 2,000 H: entries and the 12,894-byte chain. Searched per
        // compiled constraint, the chain alone would count 2,001 times.
        #expect(chainBytes == 12_894)
        #expect(scan.bytesExamined == horizontalBytes + chainBytes)
    }

    @Test func aBaselineAttributeInAnyEntryIsFound() throws {
        let compiled = try chainScene(3, extra: #","l0.lastBaseline == l1.firstBaseline @250""#)
        #expect(SceneText.mentionsBaselines(compiled.constraints).mentions)
        let plain = try chainScene(3)
        #expect(!SceneText.mentionsBaselines(plain.constraints).mentions)
        #expect(SceneText.mentionsBaselines([]) == (false, 0))
    }
}
