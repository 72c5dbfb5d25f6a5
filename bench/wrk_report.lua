-- wrk's summary as one JSON line, read by bench/wrk_runner.py:
--   wrk -t1 -c8 -d3s -s bench/wrk_report.lua [-H 'Authorization: Bearer ...'] URL
-- No request() or response() hook: wrk sends its default request (the URL and -H headers)
-- at full speed; responses other than 2xx/3xx are counted by wrk itself (errors.status).
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests": %d, "duration_us": %d, "bytes": %d, "connect": %d, "read": %d, ' ..
    '"write": %d, "status": %d, "timeout": %d, "p50_us": %d, "p99_us": %d, "max_us": %d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status,
    e.timeout, latency:percentile(50), latency:percentile(99), latency.max))
end
