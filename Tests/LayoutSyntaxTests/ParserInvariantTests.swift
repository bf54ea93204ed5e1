import Foundation
import Testing
@testable import LayoutSyntax

/// Replays the inputs kept in `fuzz/regressions/{vfl,equation}/` through the parsers with
/// the fuzz targets' settings and checks the same invariants. Every crasher a fuzz run
/// finds is copied there (as libFuzzer wrote it), so it stays fixed; the directory also
/// keeps a selection of the long runs' corpus that reaches the deepest code paths.
struct ParserInvariantTests {
    /// The VFL target's option sets, chosen by the first byte (as in fuzz/FuzzVisualFormat.swift).
    static let formatOptionSets: [[String]] = [
        [], ["alignAllTop"], ["alignAllLeading", "alignAllCenterX"], ["directionRightToLeft"],
        ["directionLeftToRight", "alignAllBaseline"], ["alignAllBogus"], ["directionLeftToRight", "directionRightToLeft"],
        ["alignAllFirstBaseline", "alignAllFirstBaseline"],
    ]
    static let options = ParseOptions(metrics: ["pad": 8, "gap": 12, "p": 750, "big": 1e308, "zero": 0])

    /// The files of `fuzz/regressions/KIND/`, found from this file's path (symlinks resolved).
    static func inputs(_ kind: String) throws -> [(name: String, bytes: [UInt8])] {
        let here = URL(fileURLWithPath: #filePath)
        let candidates = [here, here.resolvingSymlinksInPath()].map { file in
            file.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("fuzz/regressions/\(kind)")
        }
        guard let directory = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            .filter { !$0.hasPrefix(".") }
            .map { ($0, Array(try Data(contentsOf: directory.appendingPathComponent($0)))) }
    }

    @Test("kept VFL fuzz inputs keep the invariants")
    func visualFormat() throws {
        let inputs = try Self.inputs("vfl")
        #expect(inputs.count >= 10)
        for input in inputs where !input.bytes.isEmpty {
            let optionSet = Self.formatOptionSets[Int(input.bytes[0]) % Self.formatOptionSets.count]
            let source = String(decoding: input.bytes.dropFirst(), as: UTF8.self)
            checkInvariants(VisualFormatParser(options: Self.options).parse(source, formatOptions: optionSet), source: source)
        }
    }

    @Test("kept equation fuzz inputs keep the invariants")
    func equations() throws {
        let inputs = try Self.inputs("equation")
        #expect(inputs.count >= 10)
        for input in inputs {
            let source = String(decoding: input.bytes, as: UTF8.self)
            checkInvariants(EquationParser(options: Self.options).parse(source), source: source)
        }
    }
}
