-- Shared wrk `done` hook: prints one machine-readable line that
-- scripts/bench-http.sh parses. Latencies are in microseconds (wrk's unit).
-- Format: RESULT requests=<n> duration_us=<n> rps=<r> p50_us=<n> p99_us=<n>
--         errors=<connect+read+write+timeout> non2xx=<status errors>
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d duration_us=%d rps=%.1f p50_us=%d p99_us=%d errors=%d non2xx=%d\n",
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
end
