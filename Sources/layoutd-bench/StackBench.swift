// Stack views: a table of rows built from stacks against the same table
// written with hand-made constraints. Times are wall-clock medians over repeats of one
// in-process uncached /solve (JSON parse, decode, compile, solve, ambiguity, serialise).
import Foundation
import LayoutCompiler
import LayoutService

enum StackBench {
    /// `rows` table rows, each an image (40 x 40), a vertical stack of two labels (title
    /// and subtitle) and a badge, in a vertical stack 375 wide.
    ///
    /// With `stacks`, the table and each row and label column are stack views: the table
    /// vertical (fill), a row horizontal (spacing 8, alignment center), the labels
    /// vertical (spacing 2, alignment leading). Without, the same views are laid out by
    /// constraints written as a user would: VFL chains for the arrangement, centerY
    /// equations, `>=` insets to keep each row around its views, and a row height `== 0`
    /// at 51 so a row is as tall as its tallest view.
    static func tableScene(rows: Int, stacks: Bool) -> [UInt8] {
        var views: [String] = []
        var constraints: [String] = ["\"H:|[table]|\"", "\"V:|[table]\""]
        let rowNames = (0..<rows).map { "r\($0)" }
        if stacks {
            views.append("\"table\":{\"stack\":{\"axis\":\"vertical\",\"arranged\":[\(rowNames.map { "\"\($0)\"" }.joined(separator: ","))]}}")
        } else {
            views.append("\"table\":{}")
            constraints.append("\"V:|" + rowNames.map { "[\($0)]" }.joined() + "|\"")
        }
        for row in 0..<rows {
            let (r, i, l, t, s, b) = ("r\(row)", "i\(row)", "l\(row)", "t\(row)", "s\(row)", "b\(row)")
            let leaves = [
                "\"\(i)\":{\"intrinsicSize\":{\"width\":40,\"height\":40}%@}",
                "\"\(t)\":{\"intrinsicSize\":{\"width\":\(100 + row % 7 * 10),\"height\":20}%@}",
                "\"\(s)\":{\"intrinsicSize\":{\"width\":\(140 + row % 5 * 12),\"height\":16}%@}",
                "\"\(b)\":{\"intrinsicSize\":{\"width\":24,\"height\":18}%@}",
            ]
            if stacks {
                views.append("\"\(r)\":{\"stack\":{\"spacing\":8,\"alignment\":\"center\",\"arranged\":[\"\(i)\",\"\(l)\",\"\(b)\"]}}")
                views.append("\"\(l)\":{\"stack\":{\"axis\":\"vertical\",\"spacing\":2,\"alignment\":\"leading\",\"arranged\":[\"\(t)\",\"\(s)\"]}}")
                views += leaves.map { $0.replacingOccurrences(of: "%@", with: "") }
            } else {
                views.append("\"\(r)\":{\"parent\":\"table\"}")
                views.append("\"\(l)\":{\"parent\":\"\(r)\"}")
                views += zip(leaves, [r, l, l, r]).map { $0.replacingOccurrences(of: "%@", with: ",\"parent\":\"\($1)\"") }
                constraints += [
                    "\"H:|[\(r)]|\"", "\"H:|[\(i)]-8-[\(l)]-8-[\(b)]|\"",
                    "\"\(i).centerY == \(r).centerY\"", "\"\(l).centerY == \(r).centerY\"", "\"\(b).centerY == \(r).centerY\"",
                    "\"V:|-(>=0)-[\(i)]-(>=0)-|\"", "\"V:|-(>=0)-[\(l)]-(>=0)-|\"", "\"V:|-(>=0)-[\(b)]-(>=0)-|\"",
                    "\"\(r).height == 0 @51\"",
                    "\"V:|[\(t)]-2-[\(s)]|\"", "\"H:|[\(t)]-(>=0)-|\"", "\"H:|[\(s)]-(>=0)-|\"",
                ]
            }
        }
        let body = "{\"container\":{\"width\":375,\"height\":\(rows * 40 + 100)},\"views\":{\(views.joined(separator: ","))},"
            + "\"constraints\":[\(constraints.joined(separator: ","))],\"options\":{\"ambiguity\":\"warn\"}}"
        return Array(body.utf8)
    }

    /// `layoutd-bench stacks [--rows 1000] [--repeats 5] [--max-solver-work 2e10]`: the stack table against the
    /// hand-written one; both must answer 200 with the same frames for every view they
    /// share (the hand-written scene has the same view names).
    static func run(_ arguments: [String]) -> Int32 {
        let rows = SceneBench.intOption(arguments, "--rows", 1000)
        let repeats = SceneBench.intOption(arguments, "--repeats", 5)
        // Both forms of a 1,000-row table exceed the default solver work (10⁸ cell
        // operations: the rows' heights are solved at priority 51 along one chain, whose
        // tableau fills in): the limit is raised so that the figures can be compared.
        var limits = SceneLimits()
        limits.maxSolverWork = SceneBench.intOption(arguments, "--max-solver-work", 20_000_000_000)
        func makeEngine() -> SceneEngine { SceneEngine(limits: limits) }
        let stacked = tableScene(rows: rows, stacks: true)
        let hand = tableScene(rows: rows, stacks: false)
        let stackedAnswer = SceneBench.solve(stacked, engine: makeEngine())
        let handAnswer = SceneBench.solve(hand, engine: makeEngine())
        guard stackedAnswer.status == 200, handAnswer.status == 200 else {
            let detail = [stackedAnswer, handAnswer].map { String(decoding: $0.body.prefix(400), as: UTF8.self) }.joined(separator: "\n")
            FileHandle.standardError.write(Data("stacks: a generated scene did not solve (\(stackedAnswer.status), \(handAnswer.status))\n\(detail)\n".utf8))
            return 1
        }
        guard let stackedJSON = try? JSONSerialization.jsonObject(with: Data(stackedAnswer.body)) as? [String: Any],
              let handJSON = try? JSONSerialization.jsonObject(with: Data(handAnswer.body)) as? [String: Any],
              let stackedFrames = stackedJSON["frames"] as? [String: [String: Double]],
              let handFrames = handJSON["frames"] as? [String: [String: Double]] else {
            FileHandle.standardError.write(Data("stacks: no frames in an answer\n".utf8))
            return 1
        }
        let differing = stackedFrames.keys.sorted().filter { name in
            guard let a = stackedFrames[name], let b = handFrames[name] else { return true }
            return ["x", "y", "width", "height"].contains { abs((a[$0] ?? .nan) - (b[$0] ?? .nan)) > 1e-6 }
        }
        guard differing.isEmpty else {
            FileHandle.standardError.write(Data("stacks: frames differ for \(differing.prefix(5))\n".utf8))
            return 1
        }
        let stackedMs = SceneBench.medianMilliseconds(repeats: repeats) { _ = SceneBench.solve(stacked, engine: makeEngine()) }
        let handMs = SceneBench.medianMilliseconds(repeats: repeats) { _ = SceneBench.solve(hand, engine: makeEngine()) }
        print(String(format: "{\"bench\":\"stacks\",\"rows\":%d,\"views\":%d,\"stack_views_ms\":%.3f,\"hand_written_ms\":%.3f,\"ratio\":%.3f}",
                     rows, rows * 6 + 1, stackedMs, handMs, stackedMs / handMs))
        return 0
    }
}
