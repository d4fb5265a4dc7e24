-- A small serializer: Lua values to a stable, readable text and back.
local escape = require "codec.escape"

local codec = {}

local function sortedKeys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) == type(b) then return a < b end
    return type(a) == "number"
  end)
  return keys
end

--- Encodes nil, booleans, numbers, strings and tables of them; refuses cycles and functions.
function codec.encode(value, seen)
  seen = seen or {}
  local kind = type(value)
  if kind == "nil" or kind == "boolean" then return tostring(value) end
  if kind == "number" then
    if value ~= value then error("cannot encode NaN", 2) end
    if math.type(value) == "integer" then return tostring(value) end
    local text = string.format("%.17g", value)
    return text:find("[%.eEn]") and text or text .. ".0"
  end
  if kind == "string" then return '"' .. escape.quote(value) .. '"' end
  if kind ~= "table" then error("cannot encode a " .. kind, 2) end
  if seen[value] then error("cannot encode a cycle", 2) end
  seen[value] = true
  local parts = {}
  for i, k in ipairs(sortedKeys(value)) do
    local key = type(k) == "string" and k:match("^[%a_][%w_]*$") and k or ("[" .. codec.encode(k, seen) .. "]")
    parts[i] = key .. "=" .. codec.encode(value[k], seen)
  end
  seen[value] = nil
  return "{" .. table.concat(parts, ",") .. "}"
end

--- Decodes what encode wrote (in an empty environment: no globals reachable).
function codec.decode(text)
  local chunk, err = load("return " .. text, "=codec", "t", {})
  if not chunk then error("cannot decode: " .. err, 2) end
  return chunk()
end

return codec
