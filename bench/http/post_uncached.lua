-- POST a scene whose container width differs on every request, so that no two
-- bodies (and no two cache keys) are equal: every request is a miss that is
-- parsed, compiled, solved, encoded and stored.
-- The body file must contain the placeholder "@WIDTH@" where the width goes, or
-- "@METRIC@" where a metric's value goes (12.000000-12.999999): then every scene has
-- another structure, so the compiled-scene cache never helps either.
-- Usage: wrk -s post_uncached.lua URL -- BODY_FILE SEED [MISS_EVERY]
-- MISS_EVERY = n > 1 varies only every n-th request (the others repeat one
-- body, i.e. are cache hits): the memory rounds use this mix.
-- Widths are 320 + k/10000 points, k = SEED*10^7 + thread*10^6 + counter
-- (unique for up to 10^6 requests per thread and 10 threads per seed).
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "report.lua")

local threads = {}
local counter = 0

function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end

function init(args)
  local f = assert(io.open(args[1], "rb"))
  template = f:read("*a")
  f:close()
  seed = tonumber(args[2] or "0")
  missEvery = tonumber(args[3] or "1")
  base = seed * 10000000 + tid * 1000000
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  -- The body sent on the requests that are not varied (MISS_EVERY > 1):
  -- always the same width, so a cache hit after its first request.
  fixed = wrk.format(nil, nil, nil, (template:gsub("@WIDTH@", "375", 1)))
end

function request()
  counter = counter + 1
  if missEvery > 1 and counter % missEvery ~= 0 then return fixed end
  local k = base + counter
  local width = string.format("%d.%04d", 320 + math.floor(k / 10000) % 100000, k % 10000)
  local body = template:gsub("@WIDTH@", width, 1)
  -- A template with "@METRIC@" (a metric's value) is a new structure every request.
  body = body:gsub("@METRIC@", string.format("12.%06d", k % 1000000), 1)
  return wrk.format(nil, nil, nil, body)
end
