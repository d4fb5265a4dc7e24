-- A command-line parser: flags, options with values, positional arguments, and messages in two languages.
local say = require "say"

say:set_namespace("en")
say:set("cliparse.unknown", "unknown option %s")
say:set("cliparse.missing", "option %s needs a value")
say:set_namespace("fr")
say:set("cliparse.unknown", "option inconnue %s")
say:set("cliparse.missing", "l'option %s attend une valeur")
say:set_namespace("en")

local cliparse = {}
cliparse.__index = cliparse

--- A parser; `spec` maps option names to "flag" or "value".
function cliparse.new(spec)
  return setmetatable({ spec = spec or {} }, cliparse)
end

--- Parses a list of words; returns options and positionals, or raises a message in the current language.
function cliparse:parse(words)
  local options, positionals = {}, {}
  local i = 1
  while i <= #words do
    local w = words[i]
    local name, inline = w:match("^%-%-([%w%-]+)=(.*)$")
    name = name or w:match("^%-%-([%w%-]+)$")
    if name then
      local kind = self.spec[name]
      if not kind then error(say("cliparse.unknown", { w }), 0) end
      if kind == "flag" then
        options[name] = true
      elseif inline then
        options[name] = inline
      else
        i = i + 1
        if words[i] == nil then error(say("cliparse.missing", { "--" .. name }), 0) end
        options[name] = words[i]
      end
    else
      positionals[#positionals + 1] = w
    end
    i = i + 1
  end
  return options, positionals
end

return cliparse
