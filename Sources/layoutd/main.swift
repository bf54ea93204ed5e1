// layoutd: the service and its offline commands. Everything lives in LayoutService.
import Foundation
import LayoutService
#if canImport(Glibc)
import CLayoutdSystem
import Glibc

/// Returns freed heap memory to the system four times a second while the service runs
/// (glibc `malloc_trim(0)`, malloc_trim(3), which also releases free pages inside every
/// arena).
///
/// glibc gives busy threads malloc arenas of their own, and memory freed into one arena
/// is not reused by the others; without the trim the resident size of a long-running
/// server creeps up with them. (One arena for all threads, `M_ARENA_MAX` 1, also stops
/// the creep, at a cost in uncached throughput.) No automated test holds this: the creep
/// shows only over hundreds of thousands of requests.
func startHeapTrimmer() {
    let thread = Thread {
        while true {
            Thread.sleep(forTimeInterval: 0.25)
            _ = malloc_trim(0)
        }
    }
    thread.name = "heap-trim"
    thread.start()
}

if CommandLine.arguments.dropFirst().first == "serve" {
    startHeapTrimmer()
}
#endif

exit(LayoutdCommand.main(Array(CommandLine.arguments.dropFirst())))
