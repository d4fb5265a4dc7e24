-- Loaded before the specs (.busted: helper): a custom assertion with its messages.
local assert = require "luassert"
local say = require "say"
local codec = require "codec"

local function round_trips(state, arguments)
  local value = arguments[1]
  local ok, again = pcall(function() return codec.decode(codec.encode(value)) end)
  if not ok then return false end
  local util = require "luassert.util"
  return util.deepcompare(value, again, true)
end

say:set("assertion.round_trips.positive", "Expected %s to survive encode and decode")
say:set("assertion.round_trips.negative", "Expected %s not to survive encode and decode")
assert:register("assertion", "round_trips", round_trips, "assertion.round_trips.positive", "assertion.round_trips.negative")
