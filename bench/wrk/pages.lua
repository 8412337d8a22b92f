-- wrk script: each connection is one logged-in client (its own session cookie) asking
-- for pages picked at random from a list. Environment: SIDE_WRK_COOKIES (a file, one
-- Cookie header value per line, one line per connection), SIDE_WRK_PATHS (a file, one
-- path per line). With SIDE_WRK_VOTE=1 each client instead votes on the item its last
-- page showed (POST /annotate/, answered with the next item), as an annotator does.
-- Prints one line: p50 p95 p99 (ms), requests, requests/s, non-200 answers.

local function lines(path)
  local out = {}
  for line in io.lines(path) do
    if line ~= "" then out[#out + 1] = line end
  end
  return out
end

local threads, cookies, made = {}, nil, 0

function setup(thread)
  cookies = cookies or lines(os.getenv("SIDE_WRK_COOKIES"))
  made = made + 1
  thread:set("id", made)
  thread:set("cookie", cookies[(made - 1) % #cookies + 1])
  table.insert(threads, thread)
end

local paths, voting, item, token = nil, false, nil, nil
bad = 0

function init(args)
  math.randomseed(id * 7919)
  voting = os.getenv("SIDE_WRK_VOTE") == "1"
  if not voting then paths = lines(os.getenv("SIDE_WRK_PATHS")) end
end

function request()
  local headers = {Cookie = cookie}
  if not voting then
    return wrk.format("GET", paths[math.random(#paths)], headers)
  end
  if item == nil then  -- first request of this client, or its last page showed no item
    return wrk.format("GET", "/annotate/", headers)
  end
  headers["Content-Type"] = "application/x-www-form-urlencoded"
  local body = "item=" .. item .. "&preference=a&evidence_a=enough&evidence_b=partial&csrfmiddlewaretoken=" .. token
  return wrk.format("POST", "/annotate/", headers, body)
end

function response(status, headers, body)
  if status ~= 200 then bad = bad + 1 end
  if voting then
    item = body:match('name="item" value="(%d+)"')
    token = body:match('name="csrfmiddlewaretoken" value="([^"]+)"')
  end
end

function done(summary, latency, requests)
  local failed = 0
  for _, thread in ipairs(threads) do failed = failed + thread:get("bad") end
  -- Not timeouts: gunicorn's sync workers close each connection after answering, and wrk
  -- counts the connection it is reopening when the run ends as one (a real timeout, over
  -- 2 s, would show in the latencies).
  failed = failed + summary.errors.connect + summary.errors.read + summary.errors.write
  io.write(string.format("WRK %.1f %.1f %.1f %d %.1f %d\n",
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,
    summary.requests, summary.requests / (summary.duration / 1e6), failed))
end
