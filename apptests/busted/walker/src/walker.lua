-- Lists a folder's files with LuaFileSystem (a C module, as most Lua projects that touch files use).
local lfs = require "lfs"

local walker = {}

--- The names of the plain files in `dir`, sorted.
function walker.files(dir)
  local names = {}
  for name in lfs.dir(dir) do
    if name ~= "." and name ~= ".." and lfs.attributes(dir .. "/" .. name, "mode") == "file" then
      names[#names + 1] = name
    end
  end
  table.sort(names)
  return names
end

--- The size of a file, or an error naming it.
function walker.size(path)
  local size = lfs.attributes(path, "size")
  if not size then error("no such file: " .. path) end
  return size
end

return walker
