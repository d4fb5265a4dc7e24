-- The Japanese list of docs/screens.md "Sort order" (its steps run on this copy).
local okit = require "okit"
okit.entity("Word", { name = "string" })
okit.entity("Words", { words = "[Word]" })
okit.model("Words", { seed = function(root)
  for _, n in ipairs { "きのこ", "カニ", "漢字", "ｶﾒ", "Ａpple", "ばら", "かき", "はな", "1番", "ア" } do
    root.words:append(okit.new("Word", { name = n }))
  end
end })
okit.locale { language = "ja" }
okit.list("words", { dataPath = "words", rowSort = "name", group = "name/initial", index = "#true",
  cell = { path = "name" } })
okit.app { home = "words" }
