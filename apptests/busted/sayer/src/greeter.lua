-- Greetings in several languages, through say (busted's message library).
local say = require("say")

say:set_namespace("en")
say:set("greeting", "Hello, %s!")
say:set("farewell", "Goodbye, %s and %s.")

local greeter = {}

function greeter.greet(name) return say("greeting", { name }) end

function greeter.farewell(a, b) return say("farewell", { a, b }) end

function greeter.speak(language)
  say:set_namespace(language)
end

return greeter
