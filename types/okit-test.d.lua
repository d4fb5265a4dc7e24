---@meta okit.test
-- LuaLS definitions for flow tests run by `okit-run test` (spec: testing.md, screens.md): the `okit.test`
-- module (`launch`), the app driver `okit.App` (also the `function(ctx, app)` of actions and the global `app`
-- of `okit-run --script`), the snapshot shape `okit.Snapshot`, and busted's globals. Stubs only.

--------------------------------------------------------------------------------------------------------------
-- Snapshots (screens.md, "Snapshot"). In Lua a JSON null is simply absent (nil).
--------------------------------------------------------------------------------------------------------------

---@class okit.SnapshotApp
---@field tab string? the current tab's screen id
---@field tabs string[] the tabs' screen ids
---@field tabTitles string[] the tabs' titles
---@field menuOpen boolean
---@field covered boolean protection cover shown
---@field cover string? the cover's text
---@field theme string the current theme's name
---@field themeValues table<string, string> the current theme's values ("tintColor" = "#007AFF", …)
---@field depth integer screens on the current stack
---@field presented boolean a presented screen is on top
---@field offline boolean a shared (postgres) model's database is out of reach: reads go on, stores wait

---@class okit.SnapshotButton
---@field id string "edit", "add", "clear", "close", "refresh", or a declared button's id
---@field title string
---@field enabled boolean

---@class okit.SnapshotSearch
---@field visible boolean
---@field text string
---@field scopes string[] the scopes after "All"
---@field scope string the current scope's title ("All" first)

---@class okit.SnapshotAccessory
---@field kind string "button", …
---@field text string?
---@field enabled boolean

---@class okit.SnapshotQuick
---@field title string
---@field enabled boolean

--- An edit cell's control: `value` keeps its type; the extras depend on the cell kind.
---@class okit.SnapshotControl
---@field value any
---@field enabled boolean
---@field placeholder string? text and multiline cells
---@field min number? slider, stepper (date cells: the minimum date)
---@field max number? slider, stepper (date cells: the maximum date)
---@field step number? stepper
---@field segments string[]? segment cells
---@field index integer? segment cells (0-based, as stored)
---@field options string[]? picker cells
---@field selected integer|string? picker cells

--- A list row or a detail cell.
---@class okit.SnapshotRow
---@field id string the row entity's id, or the cell's id
---@field kind string? detail cells: "table", "text", "multiline", "switch", "date", "segment", "picker", "slider", "stepper", "progress", "image", "web"
---@field text string? display string
---@field detail string? display string
---@field image string?
---@field ribbon string?
---@field accessory okit.SnapshotAccessory?
---@field quick okit.SnapshotQuick?
---@field more boolean?
---@field delete boolean?
---@field move boolean? lists in edit mode: whether `app:move` takes this row now (absent outside edit mode)
---@field checked boolean? selection screens
---@field selected boolean
---@field control okit.SnapshotControl?
---@field invalid string? edit cells: the message of the field rule the current value breaks (absent when valid)

---@class okit.SnapshotSection
---@field header string?
---@field subheader string? lists: the `groupHeader` line
---@field footer string? lists: the `groupFooter` line
---@field rows okit.SnapshotRow[] visible rows only (hidden rows are absent)

---@class okit.SnapshotScreen
---@field id string
---@field kind string "list", "detail", "selection", "menu", "settings", "backups"
---@field context string? the context entity's display string, e.g. "Shop(6F1C…)"
---@field title string?
---@field subtitle string?
---@field prompt string?
---@field editing boolean
---@field reorder boolean? lists in edit mode: whether rows can be moved now (`reorder`, no `group`, no search)
---@field buttons okit.SnapshotButton[]
---@field search okit.SnapshotSearch?
---@field index string[] section index letters
---@field sections okit.SnapshotSection[]
---@field rowCount integer? lists: the total number of rows (the snapshot holds a window of them)
---@field footer string? lists: the `footerPath` line (over the rows shown)
---@field help string? after `app:help()`, until the next command

---@class okit.SnapshotAlertField
---@field placeholder string?
---@field value string? never set for a secure field
---@field secure boolean?

---@class okit.SnapshotAlert
---@field kind "alert"|"sheet"|"prompt"
---@field title string?
---@field message string?
---@field actions string[]
---@field fields okit.SnapshotAlertField[]?

--- What every command returns and `app:screen()` reads: everything a person would see.
---@class okit.Snapshot
---@field app okit.SnapshotApp
---@field screen okit.SnapshotScreen
---@field alert okit.SnapshotAlert? the pending alert

--- A model change listed by `app:changes`: a field write `{model, path, old, new}` (no `op`; a nil value is
--- absent) or a collection change `{model, path, op, index, id}` (`path` names the collection).
---@class okit.Change
---@field model string the model's name
---@field path string binding syntax from the model's root, 0-based: "books[0]/marked", "books", "labels/kind/text"
---@field old any field writes: the value before
---@field new any field writes: the value after
---@field op "insert"|"remove"|"move"|nil collection changes
---@field index integer? collection changes: 0-based, like the paths (insert, remove: where; move: where to)
---@field id string? collection changes: the element's id (a reference's target id); absent for entities without ids
---@field value any collection changes of plain values (`[string]`, …): the element

--------------------------------------------------------------------------------------------------------------
-- The driver (screens.md, "Commands"). Every command returns the new snapshot; a command that is not
-- possible now raises a Lua error saying why and changes nothing.
--------------------------------------------------------------------------------------------------------------

--- A row or cell: a 1-based index over the visible rows (flattened across sections), a `{section, row}` pair,
--- a row/cell id, or a text matched against the row's `text` — tried in that order; exactly one must match.
--- An entity stands for its id.
---@alias okit.RowRef integer|{ [1]: integer, [2]: integer }|string|okit.Entity

---@class okit.ScreenWindow
---@field offset? integer first row of the window (default 0)
---@field limit? integer rows in the window (default 200)

--- The driver of a running app: the global `app` of `okit-run APP --script FILE` (apps with screens), the
--- `app` of flow tests. One method per driver command; positional arguments map to the command's named
--- arguments (JSON lines) in order. Every command returns the new snapshot (a table with exactly the JSON keys;
--- JSON null is absent). A command that is not possible now raises an error without a file:line prefix (an
--- error in the app's own Lua code keeps its position) and changes nothing. Reading an unknown field raises.
---@class okit.App
---@field models table<string, okit.Entity> name → the current root entity (also after `relaunch` or a restore)
---@field dataDir string? the app's `<data>` folder (the one holding `okit/`)
local App = {}

--- The current snapshot (a query; always allowed): `app:screen()`, `app:screen{offset = 0, limit = 200}` or
--- `app:screen(offset, limit)`. `offset` and `limit` window a list's rows (row indices in commands still address
--- the whole list).
---@param window? okit.ScreenWindow|integer
---@param limit? integer
---@return okit.Snapshot
function App:screen(window, limit) end

--- Pushes screen `screenId`, with the context a binding gives (evaluated on the current screen's context).
---@param screenId string
---@param contextBinding? string
---@return okit.Snapshot
function App:open(screenId, contextBinding) end

--- Presents screen `screenId` (close it with `close`), with the context a binding gives.
---@param screenId string
---@param contextBinding? string
---@return okit.Snapshot
function App:present(screenId, contextBinding) end

--- Switches to a tab.
---@param id string
---@return okit.Snapshot
function App:tab(id) end

---@param row okit.RowRef
---@return okit.Snapshot
function App:tap(row) end

---@param row okit.RowRef
---@return okit.Snapshot
function App:accessory(row) end

--- The add button; with `text`, the name the add prompt would ask for.
---@param text? string
---@return okit.Snapshot
function App:add(text) end

---@param row okit.RowRef
---@return okit.Snapshot
function App:delete(row) end

--- Moves a row in edit mode (`reorder`).
---@param fromRow okit.RowRef
---@param toRow okit.RowRef
---@return okit.Snapshot
function App:move(fromRow, toRow) end

--- Opens a row's more actions (an action sheet; answer with `respond`).
---@param row okit.RowRef
---@return okit.Snapshot
function App:more(row) end

--- Runs a row's quick action.
---@param row okit.RowRef
---@return okit.Snapshot
function App:quick(row) end

--- Enters (`true`) or leaves (`false`) edit mode.
---@param on boolean
---@return okit.Snapshot
function App:edit(on) end

--- Toggles a row: edit-mode selection, or a selection screen's row.
---@param row okit.RowRef
---@return okit.Snapshot
function App:select(row) end

--- Sets an edit cell: text a string; switch a bool; date an okit.Date or ISO string; slider/stepper a number;
--- segment a title or the 0-based stored index; picker a name, an id or a 1-based position.
---@param cell okit.RowRef
---@param value any
---@return okit.Snapshot
function App:set(cell, value) end

--- Searches; `scope` by title or 1-based position (1 is "All"); a title wins (scopes titled "1"–"5" are found by title).
---@param text string
---@param scope? string|integer
---@return okit.Snapshot
function App:search(text, scope) end

--- Taps a bar button by id.
---@param id string
---@return okit.Snapshot
function App:button(id) end

---@return okit.Snapshot
function App:titleTap() end

---@return okit.Snapshot
function App:back() end

--- Dismisses the top presented screen.
---@return okit.Snapshot
function App:close() end

--- Opens the menu (its snapshot is then `screen`).
---@return okit.Snapshot
function App:menu() end

---@param title string
---@return okit.Snapshot
function App:menuItem(title) end

--- Answers the pending alert: an action's title or 1-based position, and a prompt's field values in order.
---@param action string|integer
---@param fields? string[]
---@return okit.Snapshot
function App:respond(action, fields) end

--- Puts the help text into `screen.help` until the next command.
---@return okit.Snapshot
function App:help() end

--- Stores the state and, with protection on, covers the app.
---@return okit.Snapshot
function App:background() end

---@return okit.Snapshot
function App:foreground() end

---@param ok boolean
---@return okit.Snapshot
function App:authenticate(ok) end

--- Moves the virtual clock; due timers fire.
---@param seconds number
---@return okit.Snapshot
function App:advance(seconds) end

--- Stores the state (does not cover the app).
---@return okit.Snapshot
function App:store() end

--- Stores, drops everything in memory and starts again from storage (model roots stay the same objects).
---@return okit.Snapshot
function App:relaunch() end

--- Stores the state; returns nothing (the JSON-lines session ends with it; in Lua the script goes on).
function App:quit() end

--- (flow tests) Asserts that the current snapshot contains `partial` (a deep subset).
---@param partial table
function App:expectScreen(partial) end

--- (flow tests) Compares the whole snapshot with `__snapshots__/<test file>/<name>.json` (written on the first run and with
--- `--update-snapshots`).
---@param name string
function App:snapshot(name) end

--- Runs `fn` and returns the model changes made while it ran, in order (every model of the app; changes undone
--- by a failed command are left out). Logs nest. An error in `fn` is raised again.
---@param fn fun()
---@return okit.Change[]
function App:changes(fn) end

--- (flow tests) Writes the session's commands from now on as JSON lines (for `okit-run replay LOG`); returns the
--- log's path (default: beside the app's data folder). Call it right after `launch`.
---@param file? string relative to the test file's folder
---@return string
function App:record(file) end

--- The current screen's cells whose value breaks a field rule: cell id → message (empty when all are valid).
---@return table<string, string>
function App:invalid() end

--- The warnings logged so far (unknown names at run time, dropped bindings, …).
---@return string[]
function App:warnings() end

---@class okit.Conflict
---@field model string
---@field type string
---@field id string
---@field field string
---@field base string JSON text: the value this process had read
---@field theirs string JSON text: the value the earlier store wrote (`null`: it deleted the entity)
---@field mine string JSON text: this process's value, which was not stored

--- Fields of shared (postgres) models that another process stored first: this process's values, reported and
--- not stored (storage.md "Shared models on PostgreSQL"). Oldest first.
---@return okit.Conflict[]
function App:conflicts() end

--------------------------------------------------------------------------------------------------------------
-- The module: `local launch = require("okit.test").launch`
--------------------------------------------------------------------------------------------------------------

---@class okit.LaunchOptions
---@field data? string reuse this data folder (default: a fresh temporary one)
---@field fixtures? string a model file, or a folder of them, copied into `<data>/okit/data/` first (relative to the test file)
---@field now? string the virtual clock's start, ISO 8601 (default 2019-05-01T10:00:00Z)
---@field lang? string
---@field seed? integer the seed of new ids and math.random (default 0)
---@field storage? table<string, okit.StorageKind> models kept in another kind than the app declares, by model name: `{ default = "sqlite" }` runs the same tests on a sqlite model

---@class okit.test
local test = {}

--- Launches an app on a fresh temporary data folder and a virtual clock. `appFile` is relative to the test
--- file's folder. Apps launched in a test are isolated from each other.
---@param appFile string
---@param options? okit.LaunchOptions
---@return okit.App
function test.launch(appFile, options) end

--------------------------------------------------------------------------------------------------------------
-- busted's vocabulary (globals in test files)
--------------------------------------------------------------------------------------------------------------

---@param name string
---@param fn fun()
function describe(name, fn) end

---@param name string
---@param fn fun()
function it(name, fn) end

--- Runs before each test of the enclosing `describe`.
---@param fn fun()
function before_each(fn) end

--- Runs after each test of the enclosing `describe`.
---@param fn fun()
function after_each(fn) end

--- Runs once before the tests of the enclosing `describe`.
---@param fn fun()
function setup(fn) end

--- Runs once after the tests of the enclosing `describe`.
---@param fn fun()
function teardown(fn) end

--- A test that is skipped (counted as skipped). Inside a running test, `pending("reason")` stops it there and
--- reports it as pending.
---@param name string
---@param fn? fun()
function pending(name, fn) end

--- (inside a running test) Runs `fn` when the test body ends, also when it failed, before the `after_each` hooks;
--- the last registered runs first.
---@param fn fun()
function finally(fn) end

---@param name string
---@param fn fun()
function context(name, fn) end

---@param name string
---@param fn? fun()
function test(name, fn) end

--------------------------------------------------------------------------------------------------------------
-- Spies, stubs, mocks and matchers (busted's luassert)
--------------------------------------------------------------------------------------------------------------

--- One recorded call: the arguments (or return values) copied at the call (`vals`) and as passed (`refs`); `n`
--- counts trailing nils.
---@class okit.test.SpyRecord
---@field vals table
---@field refs table

--- A spy: callable like the function it stands for; records every call.
---@class okit.test.Spy
---@overload fun(...: any): ...
---@field calls okit.test.SpyRecord[]
---@field returnvals okit.test.SpyRecord[]
local Spy = {}

--- Puts the original back in its table (spy.on, stub, mock); returns it.
---@return any
function Spy:revert() end

--- Forgets the recorded calls.
---@return okit.test.Spy
function Spy:clear() end

--- Whether it was called (`n`: exactly n times), and the number of calls.
---@param n? integer
---@return boolean, integer
function Spy:called(n) end

---@return boolean
function Spy:called_with(...) end

---@return boolean
function Spy:returned_with(...) end

--- A stub: a spy that does not call the original. `s.returns(…)` and `s:returns(…)` both work.
---@class okit.test.Stub: okit.test.Spy
---@field by_default { returns: fun(...: any): okit.test.Stub, invokes: fun(fn: function): okit.test.Stub }
local Stub = {}

--- From now on it returns these values.
---@return okit.test.Stub
function Stub.returns(...) end

--- From now on it calls `fn` with its arguments and returns what `fn` returns.
---@param fn function
---@return okit.test.Stub
function Stub.invokes(fn) end

--- Called with exactly these arguments (matchers allowed), it answers differently: `.returns(…)` or `.invokes(fn)`.
---@return { returns: fun(...: any): okit.test.Stub, invokes: fun(fn: function): okit.test.Stub }
function Stub.on_call_with(...) end

---@class okit.test.SpyModule
---@overload fun(fn?: function): okit.test.Spy
spy = {}

--- A spy that calls `fn` (default: a function that returns nothing).
---@param fn? function
---@return okit.test.Spy
function spy.new(fn) end

--- Replaces `t[key]` by a spy that calls the original (reverted when the test that made it ends).
---@param t table
---@param key any
---@return okit.test.Spy
function spy.on(t, key) end

---@param v any
---@return boolean
function spy.is_spy(v) end

--- `stub(t, key, …)`: replaces `t[key]` by a stub returning `…` (or calling the one function given); `stub()`: a
--- stub on no table. Reverted when the test that made it ends.
---@class okit.test.StubModule
---@overload fun(t?: table, key?: any, ...: any): okit.test.Stub
stub = {}

---@param t? table
---@param key? any
---@return okit.test.Stub
function stub.new(t, key, ...) end

---@param v any
---@return boolean
function stub.is_stub(v) end

--- `mock(t [, stubbed])`: every function of `t` (nested plain tables too) becomes a spy (`stubbed`: a stub).
---@class okit.test.MockModule
---@overload fun(t: table, stubbed?: boolean): table
mock = {}

--- Puts the original functions of `t` back.
---@param t table
---@return table
function mock.revert(t) end

--- An argument matcher for `called_with`, `returned_with` and `on_call_with`.
---@class okit.test.Matcher

--- Matchers: `match._` (anything), `match.is_string()` (each type), `match.is_truthy()`, `match.is_falsy()`,
--- `match.is_true()`, `match.is_false()`, `match.is_same(v)`, `match.is_equal(v)`, `match.is_ref(v)`,
--- `match.matches(pattern [, init [, plain]])`, `match.is_near(v, tolerance)`, `match.is_unique([deep])`, and `match.is_not.…` for each.
---@class okit.test.Match
---@field _ okit.test.Matcher
---@field is_not okit.test.Match
---@field is_string fun(): okit.test.Matcher
---@field is_number fun(): okit.test.Matcher
---@field is_table fun(): okit.test.Matcher
---@field is_function fun(): okit.test.Matcher
---@field is_boolean fun(): okit.test.Matcher
---@field is_nil fun(): okit.test.Matcher
---@field is_userdata fun(): okit.test.Matcher
---@field is_thread fun(): okit.test.Matcher
---@field is_truthy fun(): okit.test.Matcher
---@field is_falsy fun(): okit.test.Matcher
---@field is_true fun(): okit.test.Matcher
---@field is_false fun(): okit.test.Matcher
---@field is_same fun(v: any): okit.test.Matcher
---@field is_equal fun(v: any): okit.test.Matcher
---@field is_ref fun(v: any): okit.test.Matcher
---@field matches fun(pattern: string, init?: integer, plain?: boolean): okit.test.Matcher
---@field is_near fun(v: number, tolerance: number): okit.test.Matcher
match = {}

--- The assertions after `assert.spy(s)` / `assert.stub(s)`; `was`, `was_not`, `is`, `not`, … chain as elsewhere.
---@class okit.test.SpyAssert
---@field was okit.test.SpyAssert
---@field was_not okit.test.SpyAssert
---@field is okit.test.SpyAssert
---@field is_not okit.test.SpyAssert
---@field has okit.test.SpyAssert
---@field has_no okit.test.SpyAssert
local SpyAssert = {}

--- Called at least once; with `n`, exactly `n` times (`was_not.called()`: never).
---@param n? integer
---@param message? string
function SpyAssert.called(n, message) end

--- One call had exactly these arguments (deeply equal; matchers allowed).
function SpyAssert.called_with(...) end

--- One call returned exactly these values.
function SpyAssert.returned_with(...) end

---@param n integer
---@param message? string
function SpyAssert.called_at_least(n, message) end

---@param n integer
---@param message? string
function SpyAssert.called_at_most(n, message) end

---@param n integer
---@param message? string
function SpyAssert.called_more_than(n, message) end

---@param n integer
---@param message? string
function SpyAssert.called_less_than(n, message) end

--- `assert(v, msg)` keeps its Lua meaning; the fields are busted-style assertions. A failing assertion
--- reports expected vs actual (a deep diff for tables) and the test file:line. busted's spellings work: words that
--- read well (`is`, `are`, `has`, `was`, …) chained with dots or underscores, and `not`/`no` negating
--- (`assert.are.same`, `assert.is_not.nil`, `assert.has_no.errors`, `assert.True`).
---@class okit.test.Assert
---@overload fun(v: any, message?: any, ...: any): any
---@field is okit.test.Assert
---@field are okit.test.Assert
---@field has okit.test.Assert
---@field was okit.test.Assert
---@field is_not okit.test.Assert
---@field are_not okit.test.Assert
---@field has_no okit.test.Assert
---@field was_not okit.test.Assert
---@field Not okit.test.Assert
assert = {}

--- The assertions on a spy or stub: `assert.spy(s).was.called_with(…)`.
---@param s okit.test.Spy
---@return okit.test.SpyAssert
function assert.spy(s) end

---@param s okit.test.Spy
---@return okit.test.SpyAssert
function assert.stub(s) end

--- `|expected - actual| <= tolerance`.
---@param expected number
---@param actual number
---@param tolerance number
function assert.near(expected, actual, tolerance) end

---@param v any
function assert.is_string(v) end

---@param v any
function assert.is_number(v) end

---@param v any
function assert.is_table(v) end

---@param v any
function assert.is_function(v) end

---@param v any
function assert.is_boolean(v) end

---@param v any
function assert.is_userdata(v) end

---@param v any
function assert.is_thread(v) end

--- No two items are equal (`deep`: the same).
---@param list any[]
---@param deep? boolean
function assert.unique(list, deep) end

--- `fn()` raises an error whose text matches the Lua pattern from `init` (`plain`: contains `pattern`); a plain table
--- error has no text.
---@param fn fun()
---@param pattern string
---@param init? integer
---@param plain? boolean
function assert.error_matches(fn, pattern, init, plain) end

--- `fn()` does not raise (also `assert.has_no.errors`).
---@param fn fun()
function assert.has_no_error(fn) end

--- Compares with `==` (so `2 == 2.0`).
---@param expected any
---@param actual any
function assert.equal(expected, actual) end

--- Compares deeply, key by key even when the tables have `__eq` (as luassert).
---@param expected any
---@param actual any
function assert.same(expected, actual) end

---@param v any
function assert.is_true(v) end

---@param v any
function assert.is_false(v) end

---@param v any
function assert.is_nil(v) end

---@param v any
function assert.truthy(v) end

---@param v any
function assert.falsy(v) end

--- Asserts that `fn` raises an error; with `message`, that the error message contains it.
---@param fn fun()
---@param message? string
function assert.has_error(fn, message) end

---@param v any
function assert.is_not_nil(v) end

---@param expected any
---@param actual any
function assert.not_equal(expected, actual) end

---@param expected any
---@param actual any
function assert.not_same(expected, actual) end

--- Asserts that every key of `partial` is in `actual` with a same (or contained) value.
---@param partial table
---@param actual table
function assert.contains(partial, actual) end

--- Asserts that `s` matches the Lua pattern from `init` (`plain`: contains `pattern`).
---@param pattern string
---@param s string|number
---@param init? integer
---@param plain? boolean
function assert.matches(pattern, s, init, plain) end

return test
