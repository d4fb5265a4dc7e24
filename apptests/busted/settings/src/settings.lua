-- Reads "key = value" lines (a comment starts with #): numbers and booleans as such, the rest as text.
local settings = {}

local function value(text)
  if text == "true" then return true elseif text == "false" then return false end
  return tonumber(text) or text
end

--- The settings of `text` as a table, or an error naming the line that is not "key = value".
function settings.parse(text)
  local out, n = {}, 0
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do
    n = n + 1
    line = line:gsub("#.*", ""):match("^%s*(.-)%s*$")
    if line ~= "" then
      local key, raw = line:match("^([%w_]+)%s*=%s*(.-)$")
      if not key then error(("line %d: expected key = value, got %q"):format(n, line)) end
      out[key] = value(raw)
    end
  end
  return out
end

--- The settings of `base` with `over` laid on it.
function settings.merge(base, over)
  local out = {}
  for k, v in pairs(base) do out[k] = v end
  for k, v in pairs(over) do out[k] = v end
  return out
end

return settings
