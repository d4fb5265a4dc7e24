-- Escapes for quoted strings.
local escape = {}

local map = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }

function escape.quote(s)
  return (s:gsub('[%c"\\]', function(c) return map[c] or string.format("\\%03d", c:byte()) end))
end

return escape
