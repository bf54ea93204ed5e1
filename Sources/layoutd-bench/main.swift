// layoutd-bench: benchmark subcommands.
//
//   layoutd-bench solver FILE [--repeats N] [--min-repeats N] [--budget-s S] [--dump-solution F]
//   layoutd-bench solver-batch DIR
//   layoutd-bench parse | sizes | explain   (parser throughput; `sizes` against separate solves; explaining a conflict)
//   layoutd-bench stacks [--rows N]   (a table of stack views against hand-written constraints)
//   layoutd-bench text | text-table | text-lines   (text measuring beside uharfbuzz; a self-sizing table; the differential test's driver)
//   layoutd-bench import [DIR]   (the Interface Builder corpus imported and solved, beside xmllint)
//
// Other modules' benchmarks are added as further subcommands in `commands`.
import Foundation

/// A subcommand: its usage line and entry point (returns the exit status).
struct Subcommand {
    var usage: String
    var run: ([String]) -> Int32
}

let commands: [(name: String, command: Subcommand)] = [
    ("solver", Subcommand(
        usage: "solver FILE [--repeats N] [--min-repeats N] [--budget-s S] [--dump-solution F] [--no-deferral]",
        run: SolverBenchCommand.run)),
    ("solver-batch", Subcommand(
        usage: "solver-batch DIR   (one JSON line of values per *.json system, for the kiwi differential test)",
        run: SolverBatchCommand.run)),
    ("parse", Subcommand(
        usage: "parse [ARGS]   (VFL and equation parser throughput, MB/s)",
        run: { runParseBenchmark(arguments: $0) })),
    ("sizes", Subcommand(
        usage: "sizes [--views 50] [--sizes 100] [--repeats 5]   (one request with sizes vs separate requests)",
        run: SceneBench.runSizes)),
    ("engine", Subcommand(
        usage: "engine FILE [--repeats 2000] [--structure-hit-only | --new-scene-only]   (in-process cost of one uncached /solve)",
        run: SceneBench.runEngine)),
    ("cached", Subcommand(
        usage: "cached FILE [--repeats 2000]   (in-process cost of a /solve answered from the caches)",
        run: CachedBench.run)),
    ("explain", Subcommand(
        usage: "explain [--constraints 1000] [--repeats 5]   (cost of explaining one conflict)",
        run: SceneBench.runExplain)),
    ("stacks", Subcommand(
        usage: "stacks [--rows 1000] [--repeats 5]   (a table of stack views vs the same table in hand-written constraints)",
        run: StackBench.run)),
    ("text", Subcommand(
        usage: "text [--labels 10000] [--python python3]   (measure and wrap labels, beside uharfbuzz doing the same)",
        run: TextBench.run)),
    ("text-table", Subcommand(
        usage: "text-table [--cells 200]   (a self-sizing table of labels in passes vs intrinsic sizes by hand)",
        run: TextTableBench.run)),
    ("import", Subcommand(
        usage: "import [DIR=../shared/corpus/ib] [--repeats 9] [--hierarchies]   (Interface Builder documents imported and solved, beside xmllint)",
        run: ImportBench.run)),
    ("text-lines", Subcommand(
        usage: "text-lines   (JSON lines of labels on stdin → their lines; for integration/text/differential.py)",
        run: TextBench.runLines)),
]

@MainActor func printUsage() {
    var text = "usage: layoutd-bench COMMAND ...\n"
    for entry in commands { text += "  layoutd-bench \(entry.command.usage)\n" }
    FileHandle.standardError.write(Data(text.utf8))
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let entry = commands.first(where: { $0.name == name }) else {
    printUsage()
    exit(2)
}
exit(entry.command.run(Array(arguments.dropFirst())))
