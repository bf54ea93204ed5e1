#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// IMF-fixdate formatting for the `Date` field (RFC 9110 §5.6.7), e.g.
/// `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats `secondsSince1970` (UTC) as an IMF-fixdate.
    static func format(secondsSince1970: Int) -> String {
        var time = time_t(secondsSince1970)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let weekday = weekdays[Int(parts.tm_wday) % 7]
        let month = months[Int(parts.tm_mon) % 12]
        return "\(weekday), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// The formatted current time, recomputed at most once a second.
    private static let cache = Mutex<(second: Int, text: String)>((-1, ""))

    /// The current time as an IMF-fixdate, cached per second.
    static func now() -> String {
        let second = Int(time(nil))
        return cache.withLock { entry in
            if entry.second != second {
                entry = (second, format(secondsSince1970: second))
            }
            return entry.text
        }
    }
}
