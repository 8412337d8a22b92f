-- wrk script: each connection is one reader of the wiki whose gadget asks Side editor for the
-- findings of pages picked at random. Environment: SIDE_WRK_PATHS (a file, one page a line:
-- "path<TAB>etag", the ETag its answer carried, possibly empty); with SIDE_WRK_REVALIDATE=1
-- each request carries that ETag in If-None-Match, as a browser revalidating a kept answer does.
-- Prints one line: p50 p95 (ms), requests, requests/s, 304 answers, answers neither 200 nor 304.

local pages, revalidate = nil, false
local threads, made = {}, 0
bad, notmodified = 0, 0

function setup(thread)
  made = made + 1
  thread:set("id", made)
  table.insert(threads, thread)
end

function init(args)
  math.randomseed(id * 7919)
  revalidate = os.getenv("SIDE_WRK_REVALIDATE") == "1"
  pages = {}
  for line in io.lines(os.getenv("SIDE_WRK_PATHS")) do
    local path, etag = line:match("^([^\t]+)\t?(.*)$")
    if path then pages[#pages + 1] = {path, etag} end
  end
end

function request()
  local page = pages[math.random(#pages)]
  local headers = {}
  if revalidate and page[2] ~= "" then headers["If-None-Match"] = page[2] end
  return wrk.format("GET", page[1], headers)
end

function response(status, headers, body)
  if status == 304 then notmodified = notmodified + 1
  elseif status ~= 200 then bad = bad + 1 end
end

function done(summary, latency, requests)
  local failed, seen304 = 0, 0
  for _, thread in ipairs(threads) do
    failed = failed + thread:get("bad")
    seen304 = seen304 + thread:get("notmodified")
  end
  failed = failed + summary.errors.connect + summary.errors.read + summary.errors.write
  io.write(string.format("WRK %.1f %.1f %d %.1f %d %d\n",
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    summary.requests, summary.requests / (summary.duration / 1e6), seen304, failed))
end
