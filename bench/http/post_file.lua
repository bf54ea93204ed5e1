-- POST the same JSON body on every request (the cached path: after the first
-- request every answer is a hit of the in-memory front cache).
-- Usage: wrk -s post_file.lua URL -- BODY_FILE
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "report.lua")

function init(args)
  local f = assert(io.open(args[1], "rb"))
  wrk.method = "POST"
  wrk.body = f:read("*a")
  wrk.headers["Content-Type"] = "application/json"
  f:close()
end
