-- wrk script: POST a validation body built from a random line of the sample file
-- (`<licenseKey> <fingerprint>` per line). Every thread pre-builds its requests in init so the
-- load generator spends as little as possible of the two cores it shares with the server.
-- Env: BENCH_SAMPLE (file), BENCH_API_KEY (X-API-Key), BENCH_PATH (request path),
-- BENCH_NONCE=1 (a fresh Licensing-Nonce per request: the client library's signed validation).

local requests = {}
local nonces = os.getenv("BENCH_NONCE") == "1"
-- A placeholder as long as every nonce sent, so the pre-built request is split around it once.
local PLACEHOLDER = "NONCE___________________"
local counter = 0
local prefix = ""

function init(args)
  local path = os.getenv("BENCH_PATH")
  local headers = {
    ["Content-Type"] = "application/json",
    ["X-API-Key"] = os.getenv("BENCH_API_KEY"),
  }
  if nonces then headers["Licensing-Nonce"] = PLACEHOLDER end
  for line in io.lines(os.getenv("BENCH_SAMPLE")) do
    local key, fingerprint = line:match("^(%S+) (%S+)$")
    if key then
      local body = '{"licenseKey":"' .. key .. '","machineFingerprint":"' .. fingerprint .. '"}'
      local request = wrk.format("POST", path, headers, body)
      if nonces then
        local at = request:find(PLACEHOLDER, 1, true)
        request = { request:sub(1, at - 1), request:sub(at + #PLACEHOLDER) }
      end
      requests[#requests + 1] = request
    end
  end
  if #requests == 0 then
    error("no requests built from " .. tostring(os.getenv("BENCH_SAMPLE")))
  end
  local seed = os.time() + tonumber(tostring({}):match("0x(%x+)") or "0", 16) % 100000
  math.randomseed(seed)
  -- Distinct per thread and per run: 8 random hex digits, then a 16-digit counter (24 characters).
  prefix = string.format("%08x", math.random(0, 0x7fffffff))
end

function request()
  local request = requests[math.random(#requests)]
  if not nonces then return request end
  counter = counter + 1
  return request[1] .. prefix .. string.format("%016d", counter) .. request[2]
end

-- One parseable line for bench/run.ts: latency percentiles are in microseconds.
function done(summary, latency, _)
  local e = summary.errors
  io.write(string.format(
    "BENCH_RESULT requests=%d duration_us=%d p50_us=%d p99_us=%d max_us=%d non2xx=%d connect=%d read=%d write=%d timeout=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
    e.status, e.connect, e.read, e.write, e.timeout))
end
