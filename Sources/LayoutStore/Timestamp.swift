#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// RFC 3339 timestamps in UTC to the second (`2026-11-30T14:05:09Z`), the `date-time`
/// production of RFC 3339 §5.6 with the `Z` offset.
enum Timestamp {
    /// The current time, formatted: `CLOCK_REALTIME`'s second. (glibc's `time()` reads the
    /// coarse clock, up to a tick behind: near a second's end it named the second before
    /// the one `Date()` read just earlier; `GroupStoringConformanceTests.updatedAtIsTheDatabasesClockToTheSecond`.)
    static func now() -> String {
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        return format(epochSeconds: Int64(clock.tv_sec))
    }

    /// Formats seconds since 1970-01-01T00:00:00Z (proleptic Gregorian calendar, no leap
    /// seconds, as POSIX time is). Uses Howard Hinnant's `civil_from_days` algorithm
    /// (<https://howardhinnant.github.io/date_algorithms.html>), so it needs no C library
    /// time zone state.
    static func format(epochSeconds: Int64) -> String {
        let secondsPerDay: Int64 = 86_400
        var days = epochSeconds / secondsPerDay
        var secondOfDay = epochSeconds % secondsPerDay
        if secondOfDay < 0 {
            secondOfDay += secondsPerDay
            days -= 1
        }
        // civil_from_days
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)

        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
            + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
