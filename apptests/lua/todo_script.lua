-- app: examples/todo/app.lua
list.tasks:append(okit.new("Task", { title = "Write a flow test" }))
okit.call(list.tasks[1], "finish()")
assert(okit.get(list, "tasks.@count") == 2)
assert(okit.get(list, "tasks[0]/label") == "[x] Try okit")
assert(okit.get(list, "=name .. ': ' .. tasks.@count .. ' tasks'") == "Todo: 2 tasks")
print("todo script: all assertions passed")
