import Foundation
import LayoutService
import TextLayout

/// `layoutd-bench text`: measure and wrap 10,000 labels of 3–30 words at widths 120–400
/// (sizes 12–20, the built-in families), timed, then the same labels measured and wrapped
/// by HarfBuzz from Python (uharfbuzz, integration/text/differential.py --bench) in the
/// same run, printed side by side. `text-lines`: the differential test's driver.
enum TextBench {
    static let words = ["the", "of", "and", "layout", "constraint", "Your", "order", "has", "shipped", "tomorrow", "will",
                        "be", "sunny", "in", "morning", "with", "clouds", "moving", "after", "lunch", "light", "rain",
                        "by", "evening", "office", "Wavy", "AV", "To", "well-known", "naïve", "café", "fjord", "quickly",
                        "a", "label", "measures", "itself", "text", "wraps", "at", "width"]
    static let families: [(String, Int, Bool)] = [
        ("Inter", 400, false), ("Inter", 700, false), ("DejaVu Sans", 400, false), ("Liberation Sans", 400, false),
        ("Liberation Serif", 400, true), ("DejaVu Serif", 400, false),
    ]

    struct Label {
        var string: String
        var font: FontRequest
        var width: Double
    }

    static func labels(_ count: Int) -> [Label] {
        var state: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        return (0..<count).map { _ in
            let string = (0..<(3 + next(28))).map { _ in words[next(words.count)] }.joined(separator: " ")
            let (family, weight, italic) = families[next(families.count)]
            return Label(string: string, font: FontRequest(family: family, size: Double(12 + next(9)), weight: weight, italic: italic),
                         width: Double(120 + next(281)))
        }
    }

    static func run(_ arguments: [String]) -> Int32 {
        var count = 10_000
        var python = "python3"
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--labels": index += 1; count = Int(arguments[index]) ?? count
            case "--python": index += 1; python = arguments[index]
            default: FileHandle.standardError.write(Data("unknown argument \(arguments[index])\n".utf8)); return 2
            }
            index += 1
        }
        let all = labels(count)
        let measurer = TextMeasurer()
        // Faces loaded before timing (a server loads each once, at its first label).
        for label in all.prefix(50) { _ = try? measurer.measure("x", font: label.font) }
        var lines = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for label in all {
            guard let measured = try? measurer.measure(label.string, font: label.font, numberOfLines: 0, width: label.width) else { return 1 }
            lines += measured.lines.count
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9

        // The same labels for uharfbuzz.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-text-bench-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        var jsonl = ""
        for label in all {
            let object: [String: Any] = ["string": label.string, "family": label.font.family, "weight": label.font.weight,
                                         "italic": label.font.italic, "size": label.font.size, "width": label.width]
            jsonl += String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self) + "\n"
        }
        try? jsonl.write(to: file, atomically: true, encoding: .utf8)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("integration/text/differential.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, script, "--bench", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        var reference = "uharfbuzz: not run"
        if (try? process.run()) != nil {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
               let other = object["seconds"] as? Double, let otherLines = object["lines"] as? Int {
                reference = String(format: "uharfbuzz (Python): %.3f s, %.1f µs/label, %d lines; layoutd/uharfbuzz = %.2f×",
                                   other, other / Double(count) * 1e6, otherLines, seconds / other)
            }
        }
        print(String(format: "text: %d labels of 3–30 words at widths 120–400, measured and wrapped", count))
        print(String(format: "  layoutd (TextLayout): %.3f s, %.1f µs/label, %d lines", seconds, seconds / Double(count) * 1e6, lines))
        print("  " + reference)
        return 0
    }

    /// One JSON object a line on stdin (`string`, `family`, `size`, `weight`, `italic`,
    /// `width`, `numberOfLines`) → one a line on stdout: `{"lines": [[start, end, width]],
    /// "truncated"}`, offsets in UTF-16 code units.
    static func runLines(_ arguments: [String]) -> Int32 {
        let measurer = TextMeasurer()
        while let line = readLine(strippingNewline: true) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let string = object["string"] as? String else { return 1 }
            let font = FontRequest(family: object["family"] as? String ?? "system", size: (object["size"] as? NSNumber)?.doubleValue ?? 17,
                                   weight: object["weight"] as? Int ?? 400, italic: object["italic"] as? Bool ?? false)
            guard let measured = try? measurer.measure(string, font: font, numberOfLines: object["numberOfLines"] as? Int ?? 0,
                                                       width: (object["width"] as? NSNumber)?.doubleValue) else { return 1 }
            let lines = measured.lines.map { [$0.range.lowerBound, $0.range.upperBound, $0.width] as [Any] }
            let answer: [String: Any] = ["lines": lines, "truncated": measured.truncated]
            print(String(decoding: try! JSONSerialization.data(withJSONObject: answer), as: UTF8.self))
        }
        return 0
    }
}

/// `layoutd-bench text-table`: a self-sizing table of N cells (title, a two-line body and a
/// multi-line footnote, each a label) at widths 320 and 768 through `sizes` (heights
/// fitted, labels in passes), beside the same table with the labels' intrinsic sizes and
/// baselines given by hand (measured beforehand at each width), one request per width.
enum TextTableBench {
    static func scene(cells: Int, width: Double?, measurer: TextMeasurer) -> String {
        var views: [String] = []
        var constraints: [String] = []
        let title = "Weather for the weekend"
        let body = "Tomorrow will be sunny in the morning with clouds moving in after lunch and light rain by evening"
        let foot = "Forecasts are updated every hour. Temperatures are given in degrees Celsius and wind speeds in kilometres per hour."
        let fonts = [FontRequest(family: "Inter", size: 17, weight: 700), FontRequest(family: "Inter", size: 15), FontRequest(family: "Inter", size: 12)]
        let lines = [1, 2, 0]
        for cell in 0..<cells {
            views.append(#""cell\#(cell)":{}"#)
            for (kind, (name, string)) in [("title", title), ("body", body), ("foot", foot)].enumerated() {
                let font = fonts[kind]
                let member: String
                if let width {
                    let measured = try! measurer.measure(string, font: font, numberOfLines: lines[kind], width: width - 32)
                    let size = measured.intrinsicSize(displayScale: 2)
                    member = #""intrinsicSize":{"width":\#(size.width),"height":\#(size.height)},"baseline":\#(measured.lastBaseline),"firstBaseline":\#(measured.firstBaseline)"#
                } else {
                    member = #""text":{"string":"\#(string)","font":{"family":"Inter","size":\#(font.size),"weight":\#(font.weight)},"numberOfLines":\#(lines[kind])}"#
                }
                views.append(#""\#(name)\#(cell)":{"parent":"cell\#(cell)",\#(member)}"#)
            }
            constraints += [#""H:|[cell\#(cell)]|""#, #""H:|-16-[title\#(cell)]-16-|""#, #""H:|-16-[body\#(cell)]-16-|""#,
                            #""H:|-16-[foot\#(cell)]-16-|""#, #""V:|-10-[title\#(cell)]-6-[body\#(cell)]-4-[foot\#(cell)]-10-|""#]
            constraints.append(cell == 0 ? #""V:|[cell0]""# : #""V:[cell\#(cell - 1)][cell\#(cell)]""#)
        }
        constraints.append(#""V:[cell\#(cells - 1)]|""#)
        let container = width.map { #""container":{"width":\#($0)}"# } ?? #""sizes":[{"width":320},{"width":768}]"#
        return #"{\#(container),"views":{\#(views.joined(separator: ","))},"constraints":[\#(constraints.joined(separator: ","))],"options":{"displayScale":2,"ambiguity":"ignore"}}"#
    }

    static func run(_ arguments: [String]) -> Int32 {
        let cells = arguments.count >= 2 && arguments[0] == "--cells" ? Int(arguments[1]) ?? 200 : 200
        let repeats = 5
        let measurer = TextMeasurer()
        let engine = SceneEngine()
        let labelled = Array(scene(cells: cells, width: nil, measurer: measurer).utf8)
        let byHand = [320.0, 768.0].map { Array(scene(cells: cells, width: $0, measurer: measurer).utf8) }
        func time(_ bodies: [[UInt8]]) -> (Double, [UInt8]) {
            var best = Double.infinity
            var last: [UInt8] = []
            for _ in 0..<repeats {
                let start = DispatchTime.now().uptimeNanoseconds
                for body in bodies {
                    guard case .success(let prepared) = engine.prepare(body: body, resolveGroup: { _ in nil }) else { return (.nan, []) }
                    last = engine.solve(prepared).body
                }
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            return (best, last)
        }
        let (textMs, answer) = time([labelled])
        let (handMs, _) = time(byHand)
        // The labels' frames at each width are those of the table sized by hand.
        var same = true
        if let layouts = (try? JSONSerialization.jsonObject(with: Data(answer)) as? [String: Any])?["layouts"] as? [[String: Any]] {
            for (index, body) in byHand.enumerated() {
                guard case .success(let prepared) = engine.prepare(body: body, resolveGroup: { _ in nil }),
                      let hand = try? JSONSerialization.jsonObject(with: Data(engine.solve(prepared).body)) as? [String: Any] else { same = false; continue }
                same = same && NSDictionary(dictionary: hand["frames"] as? [String: Any] ?? [:]).isEqual(to: layouts[index]["frames"] as? [String: Any] ?? [:])
            }
        } else { same = false }
        let text = String(decoding: answer, as: UTF8.self)
        print(String(format: "text-table: %d cells (3 labels each) at widths 320 and 768, best of %d", cells, repeats))
        print(String(format: "  labels measured, in passes (one request with sizes): %.1f ms", textMs))
        print(String(format: "  intrinsic sizes by hand (one request per width):      %.1f ms; labels/hand = %.2f×", handMs, textMs / handMs))
        print("  frames equal to the table sized by hand at both widths: \(same)")
        if text.contains("limit_exceeded") || !text.contains("\"layouts\"") { print("  (the labelled answer is not a layout: \(text.prefix(200)))") }
        return 0
    }
}
