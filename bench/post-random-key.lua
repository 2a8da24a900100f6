-- wrk script: POST a validation body built from a random line of the sample file
-- (`<licenseKey> <fingerprint>` per line). Every thread pre-builds its requests in init so the
-- load generator spends as little as possible of the two cores it shares with the server.
-- Env: BENCH_SAMPLE (file), BENCH_API_KEY (X-API-Key), BENCH_PATH (request path).

local requests = {}

function init(args)
  local path = os.getenv("BENCH_PATH")
  local headers = {
    ["Content-Type"] = "application/json",
    ["X-API-Key"] = os.getenv("BENCH_API_KEY"),
  }
  for line in io.lines(os.getenv("BENCH_SAMPLE")) do
    local key, fingerprint = line:match("^(%S+) (%S+)$")
    if key then
      local body = '{"licenseKey":"' .. key .. '","machineFingerprint":"' .. fingerprint .. '"}'
      requests[#requests + 1] = wrk.format("POST", path, headers, body)
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

-- One parseable line for bench/run.ts: latency percentiles are in microseconds.
function done(summary, latency, _)
  local e = summary.errors
  io.write(string.format(
    "BENCH_RESULT requests=%d duration_us=%d p50_us=%d p99_us=%d max_us=%d non2xx=%d connect=%d read=%d write=%d timeout=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
    e.status, e.connect, e.read, e.write, e.timeout))
end
