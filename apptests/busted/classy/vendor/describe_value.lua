-- Vendored: a one-line description of any value.
return function(v)
  if type(v) == "table" then
    local mt = getmetatable(v)
    if mt and mt.__tostring then return tostring(v) end
    return "table"
  end
  return type(v) .. " " .. tostring(v)
end
