import Foundation
@testable import LayoutSyntax

/// The texts of the constraints of a parse, failing loudly on diagnostics.
func texts(_ result: ParseResult) -> [String] {
    result.constraints.map(\.text)
}

/// `code@column` for each diagnostic (`code@-` without a span), the shape malformed-input tables use.
func faults(_ result: ParseResult, source: String) -> [String] {
    result.diagnostics.map { "\($0.code.rawValue)@\($0.column(in: source).map(String.init) ?? "-")" }
}

/// The public corpus directory (`../shared/corpus` from the repository root), found from this file.
func corpusDirectory() -> URL? {
    let here = URL(fileURLWithPath: #filePath)
    for file in [here, here.resolvingSymlinksInPath()] {
        let root = file.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        if FileManager.default.fileExists(atPath: corpus.path) { return corpus }
    }
    return nil
}

/// The public corpus is not beside the clone (`../shared/corpus`); it is not part of this
/// repository.
struct CorpusMissing: Error, CustomStringConvertible {
    var description: String {
        "the public corpus is missing: expected ../shared/corpus beside the clone (the shared/ folder)"
    }
}

/// One constraint entry of a corpus scene.
struct CorpusConstraint {
    var caseName: String
    var source: String
    var isVisualFormat: Bool
    var formatOptions: [String]
    var metrics: [String: Double]
    /// Expected `vfl_syntax` columns of the case (all strings of the case).
    var expectedColumns: [Int]
}

/// Every constraint string of the corpus cases whose file name starts with one of `prefixes`.
func corpusConstraints(prefixes: [String]) throws -> [CorpusConstraint] {
    guard let directory = corpusDirectory() else { throw CorpusMissing() }
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .filter { name in name.hasSuffix(".json") && prefixes.contains { name.hasPrefix($0) } }
        .sorted()
    var entries: [CorpusConstraint] = []
    for file in files {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let scene = object["scene"] as? [String: Any],
              let constraints = scene["constraints"] as? [Any] else { continue }
        let metrics = (scene["metrics"] as? [String: Any] ?? [:]).compactMapValues { ($0 as? NSNumber)?.doubleValue }
        let expect = object["expect"] as? [String: Any] ?? [:]
        let columns = (expect["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["column"] as? Int }
        for entry in constraints {
            if let string = entry as? String {
                entries.append(CorpusConstraint(caseName: file, source: string, isVisualFormat: isVisualFormat(string),
                                                formatOptions: [], metrics: metrics, expectedColumns: columns))
            } else if let dictionary = entry as? [String: Any] {
                if let vfl = dictionary["vfl"] as? String {
                    entries.append(CorpusConstraint(caseName: file, source: vfl, isVisualFormat: true,
                                                    formatOptions: dictionary["options"] as? [String] ?? [],
                                                    metrics: metrics, expectedColumns: columns))
                } else if let equation = dictionary["equation"] as? String {
                    entries.append(CorpusConstraint(caseName: file, source: equation, isVisualFormat: false,
                                                    formatOptions: [], metrics: metrics, expectedColumns: columns))
                }
            }
        }
    }
    return entries
}
