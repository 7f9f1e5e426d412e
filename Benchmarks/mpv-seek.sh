# Playhead: writes the mpv Lua script that times exact seeks (sourced by Benchmarks/compare).

# Writes the script to PATH.
bench_write_mpv_seek_script() {
    cat > "$1" <<'LUA'
-- Playhead: mpv's side of the exact-seek comparison, run by Benchmarks/compare.
--
-- Waits for the first playback restart after load, makes one untimed exact seek to 0 (as
-- `playhead bench seek` does), then seeks exactly to each position in turn, timing each from
-- the seek command to the next `playback-restart` event with mp.get_time(). Writes
-- {"seeks":[ms...]} to the file named by the `out` option and quits.
-- Options (--script-opts): benchseek-positions=1.5:10.2:... benchseek-out=/path/result.json
local options = { positions = "", out = "" }
require("mp.options").read_options(options, "benchseek")

local positions = {}
for value in string.gmatch(options.positions, "[^:]+") do
    positions[#positions + 1] = tonumber(value)
end

local timings = {}
local index = -1 -- -1: waiting for load; 0: warm-up seek in flight; n: timed seek n
local started = nil

local function finish()
    local parts = {}
    for i, value in ipairs(timings) do parts[i] = string.format("%.3f", value) end
    local file = assert(io.open(options.out, "w"))
    file:write('{"seeks":[' .. table.concat(parts, ",") .. ']}\n')
    file:close()
    mp.command("quit")
end

local function seek_next()
    index = index + 1
    if index > #positions then return finish() end
    local target = index == 0 and 0 or positions[index]
    started = mp.get_time()
    mp.commandv("seek", tostring(target), "absolute+exact")
end

mp.register_event("playback-restart", function()
    if index > 0 and started then
        timings[#timings + 1] = (mp.get_time() - started) * 1000
    end
    started = nil
    seek_next()
end)
LUA
}
