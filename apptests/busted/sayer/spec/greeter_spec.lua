local greeter = require("greeter")
local say = require("say")

describe("greeter", function()
  after_each(function() greeter.speak("en") end)

  it("greets by name", function()
    assert.are.equal("Hello, Ada!", greeter.greet("Ada"))
  end)

  it("says goodbye to two", function()
    assert.are.equal("Goodbye, Ada and Bob.", greeter.farewell("Ada", "Bob"))
  end)

  it("falls back to English for a missing word", function()
    greeter.speak("fr")
    say:set("greeting", "Bonjour, %s !")
    assert.are.equal("Bonjour, Ada !", greeter.greet("Ada"))
    assert.are.equal("Goodbye, Ada and Bob.", greeter.farewell("Ada", "Bob"))
  end)

  it("keeps namespaces in say's registry", function()
    assert.are.equal("Hello, %s!", say._registry.en.greeting)
    assert.are.equal("Hello, %s!", say.en.greeting)
  end)

  it("refuses arguments that are not a table", function()
    assert.has_error(function() say("greeting", 42) end, "expected parameter table to be a table, got 'number'")
  end)

  pending("plural forms")

  it("fails on purpose #wrong", function()
    assert.are.equal("Hi, Ada!", greeter.greet("Ada"))
  end)
end)
