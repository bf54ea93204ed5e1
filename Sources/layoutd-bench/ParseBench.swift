// Parse throughput benchmark for LayoutSyntax: `layoutd-bench parse [--megabytes N]`.
import LayoutSyntax
#if canImport(Glibc)
import Glibc
#endif

/// CPU time of this thread, in seconds (not disturbed by other processes on a shared machine).
private func threadCPUSeconds() -> Double {
    #if canImport(Glibc)
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    #else
    return 0
    #endif
}

/// Measures the VFL and equation parsers' throughput and prints MB/s.
///
/// Workloads (generated, deterministic): many typical strings totalling about
/// `--megabytes` MB (default 8) for each parser, then one single string of 128 KB,
/// 256 KB, 512 KB and 1 MB for each, to show time grows linearly with length (the
/// MB/s column stays flat). MB here is 10^6 bytes of UTF-8 source. Each figure is the
/// best of three runs; "cpu" figures use the thread's CPU time, "wall" the elapsed time
/// (the two differ when other processes share the cores). The target is
/// ≥ 20 MB/s for each workload in a release build.
///
/// - Returns: the exit status (0, or 2 on a bad argument or an unexpected parse error).
func runParseBenchmark(arguments: [String]) -> Int32 {
    var megabytes = 8.0
    var index = 0
    while index < arguments.count {
        if arguments[index] == "--megabytes", index + 1 < arguments.count, let value = Double(arguments[index + 1]), value > 0 {
            megabytes = value
            index += 2
        } else {
            print("usage: layoutd-bench parse [--megabytes N]")
            return 2
        }
    }
    let options = ParseOptions(metrics: ["pad": 16, "gap": 12, "p": 750])
    let visual = VisualFormatParser(options: options)
    let equations = EquationParser(options: options)
    let targetBytes = Int(megabytes * 1_000_000)

    var visualStrings: [String] = []
    var visualBytes = 0
    var counter = 0
    while visualBytes < targetBytes {
        let a = "view\(counter)", b = "label\(counter)", c = "icon\(counter)"
        let string: String
        switch counter % 4 {
        case 0: string = "H:|-pad-[\(a)(>=50@750,<=300)]-(>=gap@p)-[\(b)(==\(a))]-|"
        case 1: string = "V:|-[\(a)(44)]-8-[\(b)]-(11@750)-[\(c)(>=20)]-pad-|"
        case 2: string = "|[\(a)][\(b)]-[\(c)(100@20)]-(>=0)-|"
        default: string = "H:|-50-[\(a)]-50-|"
        }
        visualStrings.append(string)
        visualBytes += string.utf8.count
        counter += 1
    }
    var equationStrings: [String] = []
    var equationBytes = 0
    counter = 0
    while equationBytes < targetBytes {
        let a = "view\(counter)", b = "label\(counter)"
        let string: String
        switch counter % 4 {
        case 0: string = "\(a).centerX == (superview.width - pad) * 0.5 + superview.left @high"
        case 1: string = "\(a).edges == inset(\(b).edges, 8, pad, 8, pad)"
        case 2: string = "\(a).width >= \(b).width * 2 / 3 - gap ~ 250"
        default: string = "align(centerY: \(a), \(b), superview)"
        }
        equationStrings.append(string)
        equationBytes += string.utf8.count
        counter += 1
    }

    print("workload                          bytes  constraints  cpu s  cpu MB/s  wall MB/s")
    var failed = false
    func report(_ name: String, bytes: Int, _ body: () -> (constraints: Int, errors: Int)) {
        // Best of three runs, to keep one slow run from another process out of the figure.
        var bestCPU = Double.infinity
        var bestWall = Double.infinity
        var outcome = (constraints: 0, errors: 0)
        for _ in 0..<3 {
            let clock = ContinuousClock()
            let start = clock.now
            let cpuStart = threadCPUSeconds()
            outcome = body()
            let cpu = threadCPUSeconds() - cpuStart
            let elapsed = start.duration(to: clock.now)
            let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bestCPU = min(bestCPU, cpu)
            bestWall = min(bestWall, wall)
        }
        if outcome.errors > 0 { failed = true }
        let megabytes = Double(bytes) / 1e6
        let padded = name.padding(toLength: 28, withPad: " ", startingAt: 0)
        print("\(padded) \(String(bytes).parseBenchLeftPadded(11)) \(String(outcome.constraints).parseBenchLeftPadded(12)) \(parseBenchDecimal(bestCPU, 3).parseBenchLeftPadded(6)) \(parseBenchDecimal(megabytes / bestCPU, 1).parseBenchLeftPadded(9)) \(parseBenchDecimal(megabytes / bestWall, 1).parseBenchLeftPadded(10))")
    }
    report("vfl: many strings", bytes: visualBytes) {
        var constraints = 0, errors = 0
        for string in visualStrings {
            let result = visual.parse(string)
            constraints += result.constraints.count
            errors += result.diagnostics.count
        }
        return (constraints, errors)
    }
    report("equations: many strings", bytes: equationBytes) {
        var constraints = 0, errors = 0
        for string in equationStrings {
            let result = equations.parse(string)
            constraints += result.constraints.count
            errors += result.diagnostics.count
        }
        return (constraints, errors)
    }
    for kilobytes in [128, 256, 512, 1024] {
        var long = "H:|"
        var view = 0
        while long.utf8.count < kilobytes * 1024 - 2 {
            long += "-[v\(view)]"
            view += 1
        }
        long += "-|"
        report("vfl: one string \(kilobytes) KB", bytes: long.utf8.count) {
            let result = visual.parse(long)
            return (result.constraints.count, result.diagnostics.count)
        }
    }
    for kilobytes in [128, 256, 512, 1024] {
        var long = "v0.width"
        var term = 1
        while long.utf8.count < kilobytes * 1024 - 40 {
            long += " + v\(term).width"
            term += 1
        }
        long += " == superview.width * 0.5"
        report("equation: one string \(kilobytes) KB", bytes: long.utf8.count) {
            let result = equations.parse(long)
            return (result.constraints.count, result.diagnostics.count)
        }
    }
    if failed {
        print("error: a benchmark input produced diagnostics")
        return 2
    }
    return 0
}

private func parseBenchDecimal(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") {
        let have = text.distance(from: dot, to: text.endIndex) - 1
        if have < decimals { text += String(repeating: "0", count: decimals - have) }
    }
    return text
}

private extension String {
    func parseBenchLeftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
