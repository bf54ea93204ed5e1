-- GET of the URL given on the command line (nginx's static file); adds only the report.
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "report.lua")
