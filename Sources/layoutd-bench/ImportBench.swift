// `layoutd-bench import`: the Interface Builder corpus imported and solved, per document
// and per hierarchy, beside libxml2's own `xmllint --noout` parsing the same files in the
// same run.
import Foundation
import InterfaceBuilder
import LayoutCompiler

enum ImportBench {
    /// The documents of `path`: a folder of `.xib`/`.storyboard` files, or one with such a
    /// `files/` folder (the corpus's layout), sorted by name.
    static func documents(_ path: String) -> [String] {
        let manager = FileManager.default
        for folder in [path + "/files", path] {
            let names = ((try? manager.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.hasSuffix(".xib") || $0.hasSuffix(".storyboard") }.sorted()
            if !names.isEmpty { return names.map { folder + "/" + $0 } }
        }
        return []
    }

    /// CPU milliseconds per parse of `file` by `xmllint --noout --repeat` (100 parses in
    /// one process; its CPU time from getrusage(RUSAGE_CHILDREN), start-up included, divided
    /// by 100), or nil when xmllint cannot be run (scripts/install-deps.sh installs libxml2-utils).
    static func xmllintMilliseconds(_ file: String, xmllint: String) -> Double? {
        func childrenCPU() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_CHILDREN.rawValue, &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: xmllint)
        process.arguments = ["--noout", "--nonet", "--repeat", file]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let before = childrenCPU()
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return (childrenCPU() - before) / 100
    }

    static func median(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        return sorted[sorted.count / 2]
    }

    /// This thread's CPU time, ns.
    static func threadCPU() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// CPU milliseconds of each of `repeats` runs of `work` (CPU time, not wall time: on a
    /// shared machine a neighbour's load stretches wall time, not the work done).
    static func samples(_ repeats: Int, _ work: () -> Void) -> [Double] {
        (0..<repeats).map { _ in
            let start = threadCPU()
            work()
            return Double(threadCPU() - start) / 1e6
        }
    }

    struct HierarchyFigure {
        var name: String
        var views: Int
        var milliseconds: Double
    }

    /// Decodes, compiles and solves one imported hierarchy at its container's size, as
    /// `POST /import?solve=true` does; the number of views, or nil when its scene does not decode.
    @discardableResult
    static func solve(_ hierarchy: IBHierarchy) -> Int? {
        guard let scene = try? SceneDecoder().decode(hierarchy.scene) else { return nil }
        let compiled = SceneCompiler(scene: scene).compile()
        if !compiled.hasErrors { _ = compiled.solve(size: scene.container.size) }
        return scene.views.count
    }

    /// `layoutd-bench import [DIR] [--repeats N] [--xmllint PATH] [--hierarchies]`.
    ///
    /// For each document: `import` (``InterfaceBuilderImporter/importDocument(_:options:)``,
    /// which includes its XML parse), `parse` (SafeXML alone), `solve` (every hierarchy
    /// decoded, compiled and solved) and `total` (import + solve), each the median of N
    /// runs in CPU ms, beside xmllint's CPU ms per parse of the same file. Then the corpus's
    /// totals and the largest storyboard (by bytes) against the 50 ms anchor.
    /// `--hierarchies` adds one line per hierarchy (median ms of its solve).
    static func run(_ arguments: [String]) -> Int32 {
        // The first argument that is neither an option nor an option's value.
        let valued: Set<String> = ["--repeats", "--xmllint"]
        let path = arguments.indices.first { index in
            !arguments[index].hasPrefix("--") && (index == 0 || !valued.contains(arguments[index - 1]))
        }.map { arguments[$0] } ?? "../shared/corpus/ib"
        let repeats = SceneBench.intOption(arguments, "--repeats", 9)
        let xmllint = arguments.firstIndex(of: "--xmllint").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } ?? "/usr/bin/xmllint"
        let perHierarchy = arguments.contains("--hierarchies")
        let files = documents(path)
        guard !files.isEmpty else {
            FileHandle.standardError.write(Data("import: no .xib or .storyboard files in \(path) (or \(path)/files)\n".utf8))
            return 2
        }
        print("document | bytes | hierarchies | views | parse ms | import ms | solve ms | total ms | xmllint ms | total / xmllint")
        var totals = (parse: 0.0, importing: 0.0, solve: 0.0, xmllint: 0.0, hierarchies: 0, views: 0, failed: 0)
        var largest: (file: String, bytes: Int, total: Double, xmllint: Double?)?
        var slowest: [(String, HierarchyFigure)] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            let bytes = [UInt8](data)
            let name = (file as NSString).lastPathComponent
            guard let imported = try? InterfaceBuilderImporter.importDocument(bytes) else {
                print("\(name) | \(bytes.count) | does not import")
                totals.failed += 1
                continue
            }
            let parse = median(samples(repeats) { _ = try? SafeXML.parse(bytes) })
            let importing = median(samples(repeats) { _ = try? InterfaceBuilderImporter.importDocument(bytes) })
            var views = 0
            var figures: [HierarchyFigure] = []
            for hierarchy in imported.hierarchies {
                let count = solve(hierarchy) ?? 0
                views += count
                figures.append(HierarchyFigure(name: hierarchy.name, views: count, milliseconds: median(samples(repeats) { solve(hierarchy) })))
            }
            let solveMs = median(samples(repeats) { for hierarchy in imported.hierarchies { solve(hierarchy) } })
            let total = median(samples(repeats) {
                if let again = try? InterfaceBuilderImporter.importDocument(bytes) {
                    for hierarchy in again.hierarchies { solve(hierarchy) }
                }
            })
            let lint = xmllintMilliseconds(file, xmllint: xmllint)
            let ratio = lint.map { String(format: "%.1f", total / max($0, 0.001)) } ?? "—"
            print(String(format: "%@ | %d | %d | %d | %.3f | %.3f | %.3f | %.3f | %@ | %@", name, bytes.count, imported.hierarchies.count, views,
                         parse, importing, solveMs, total, lint.map { String(format: "%.3f", $0) } ?? "not run", ratio))
            if perHierarchy {
                for figure in figures { print(String(format: "  %@ | %d views | %.3f ms", figure.name, figure.views, figure.milliseconds)) }
            }
            slowest += figures.map { (name, $0) }
            totals.parse += parse
            totals.importing += importing
            totals.solve += solveMs
            totals.xmllint += lint ?? 0
            totals.hierarchies += imported.hierarchies.count
            totals.views += views
            if name.hasSuffix(".storyboard"), largest == nil || bytes.count > largest!.bytes {
                largest = (name, bytes.count, total, lint)
            }
        }
        slowest.sort { $0.1.milliseconds > $1.1.milliseconds }
        print("\nslowest hierarchies (solve, median ms):")
        for (file, figure) in slowest.prefix(5) {
            print(String(format: "  %@ %@ | %d views | %.3f", file, figure.name, figure.views, figure.milliseconds))
        }
        print(String(format: "\ncorpus: %d documents (%d do not import), %d hierarchies, %d views; sums of medians: parse %.1f ms, import %.1f ms, solve %.1f ms, xmllint %.1f ms",
                     files.count, totals.failed, totals.hierarchies, totals.views, totals.parse, totals.importing, totals.solve, totals.xmllint))
        if let largest {
            let verdict = largest.total < 50 ? "met" : "missed"
            print(String(format: "{\"bench\":\"import\",\"documents\":%d,\"hierarchies\":%d,\"repeats\":%d,\"import_ms\":%.1f,\"solve_ms\":%.1f,\"xmllint_ms\":%.1f,\"largest_storyboard\":\"%@\",\"largest_bytes\":%d,\"largest_total_ms\":%.3f,\"largest_xmllint_ms\":%.3f,\"target_ms\":50,\"verdict\":\"%@\"}",
                         files.count, totals.hierarchies, repeats, totals.importing, totals.solve, totals.xmllint, largest.file, largest.bytes, largest.total, largest.xmllint ?? -1, verdict))
        }
        return totals.failed == 0 ? 0 : 1
    }
}
