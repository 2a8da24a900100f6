-- wrk script: GET a random line of the sample file, each line a request path (with its query):
-- `/v1/checkout/status/<sessionId>`, or the lists benchmark's seller routes. Requests are pre-built
-- per thread in init, like post-random-key.lua. Env: BENCH_SAMPLE (file); BENCH_GET_WITH_KEY=1 sends
-- BENCH_API_KEY in X-API-Key.

local requests = {}

function init(args)
  local headers = {}
  if os.getenv("BENCH_GET_WITH_KEY") == "1" then headers["X-API-Key"] = os.getenv("BENCH_API_KEY") end
  for line in io.lines(os.getenv("BENCH_SAMPLE")) do
    if line:match("^/%S+$") then
      requests[#requests + 1] = wrk.format("GET", line, headers)
    end
  end
  if #requests == 0 then
    error("no requests built from " .. tostring(os.getenv("BENCH_SAMPLE")))
  end
  math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)") or "0", 16) % 100000)
end

function request()
  return requests[math.random(#requests)]
end

-- The same line as post-random-key.lua's, parsed by bench/wrk.ts.
function done(summary, latency, _)
  local e = summary.errors
  io.write(string.format(
    "BENCH_RESULT requests=%d duration_us=%d p50_us=%d p99_us=%d max_us=%d non2xx=%d connect=%d read=%d write=%d timeout=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
    e.status, e.connect, e.read, e.write, e.timeout))
end
