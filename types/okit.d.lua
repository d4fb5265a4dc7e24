---@meta okit
-- LuaLS definitions for the `okit` module (docs/lua-api.md). Point your editor at this folder:
-- .luarc.json at the repository root does it for files in this repository.

---@class okit
local okit = {}

---@alias okit.FieldType
---| "string" | "int" | "double" | "bool" | "date" | "data" | "image" | "inlineData" | "inlineImage"
---| "ref" | string  # "ref Author", an entity type name, "[T]", "{T}", "{string: T}", with "?" for optional

---@class okit.FieldSpec
---@field [1] okit.FieldType the type
---@field default? any the default value
---@field didSet? fun(self: okit.Entity, old: any) called after the field changed

---@class okit.Computed
---@field __okit_computed true

---@class okit.EntityOptions
---@field id? boolean false: entities of this type have no id (cannot be referenced)

--- Declares an entity type. Values of `spec`: a type string, a long form `{ TYPE, default = v, didSet = fn }`,
--- `okit.computed(get [, set])`, a method (a function), or the hooks `managed`, `unmanaged`, `loaded`.
---@param name string
---@param spec table<string, okit.FieldType|okit.FieldSpec|okit.Computed|function>
---@param options? okit.EntityOptions
---@return string name
function okit.entity(name, spec, options) end

--- A computed field: read like a field, never stored; writable when `set` is given.
---@param get fun(self: okit.Entity): any
---@param set? fun(self: okit.Entity, value: any)
---@return okit.Computed
function okit.computed(get, set) end

---@class okit.ModelOptions
---@field name? string the model's name (default "default", stored as default.json)
---@field storage? "file"|"transient"|"encrypted"|"http"|"encryptedHttp"
---@field seed? fun(root: okit.Entity) runs only when the model is created fresh
---@field endpoint? string for http models

--- Registers a model, loads it (or creates it fresh and seeds it) and returns its root entity.
---@param type string
---@param options? okit.ModelOptions
---@return okit.Entity root
function okit.model(type, options) end

--- Names the models stored and restored together.
---@param roots okit.Entity[]
function okit.state(roots) end

--- Stores one model now (only if it changed).
---@param root okit.Entity
function okit.store(root) end

--- Stores every model of the state that changed.
function okit.storeState() end

--- Reloads every model of the state from storage.
function okit.restoreState() end

--- The models by name.
---@return table<string, okit.Entity>
function okit.models() end

--- Creates an entity (defaults applied; not yet in a model).
---@param type string
---@param fields? table<string, any>
---@return okit.Entity
function okit.new(type, fields) end

--- The value of a binding on a context (several parts give text).
---@param ctx okit.Entity|nil
---@param binding string
---@return any
function okit.get(ctx, binding) end

---@class okit.Values: { [integer]: any }
---@field n integer the number of parts (values may be nil)

--- The raw value of every part of a binding.
---@param ctx okit.Entity|nil
---@param binding string
---@return okit.Values
function okit.getAll(ctx, binding) end

--- Writes through a binding (type-checked and coerced).
---@param ctx okit.Entity|nil
---@param binding string
---@param value any
function okit.set(ctx, binding, value) end

--- Evaluates a binding for its effect (an action); returns the last part's value.
---@param ctx okit.Entity|nil
---@param binding string
---@return any
function okit.call(ctx, binding) end

---@class okit.Binding
---@field text string
local Binding = {}
---@param ctx okit.Entity|nil
---@return any
function Binding:get(ctx) end
---@param ctx okit.Entity|nil
---@param value any
function Binding:set(ctx, value) end

--- Compiles a binding once.
---@param text string
---@return okit.Binding
function okit.binding(text) end

--- Groups writes: dependents re-evaluate once, after it; an error rolls every write back.
---@generic T
---@param fn fun(): T
---@return T
function okit.transaction(fn) end

--- Registers an extension function callable from bindings (`name/initial`, `price/euro`, `label(#!)`).
---@param type "string"|"number"|"bool"|"date"|"collection"|"entity"|"any"|string
---@param name string
---@param fn fun(receiver: any, ...: any): any
function okit.extension(type, name, fn) end

--- Adds strings of a language: a table, or an Apple .strings file in the app's folder.
---@param language string
---@param strings table<string, string>|string
function okit.strings(language, strings) end

---@class okit.Locale
---@field language? string
---@field region? string
---@field timeZone? string

--- Sets (and returns) the language, region and time zone.
---@param locale? okit.Locale
---@return okit.Locale
function okit.locale(locale) end

--- The localized string of a key (the key itself when missing).
---@param key string
---@return string
function okit.localize(key) end

--- A loaded entity by id.
---@param id string
---@return okit.Entity|nil
function okit.byId(id) end

---@param e okit.Entity
---@return string
function okit.typeof(e) end

---@param e okit.Entity
---@return okit.Entity
function okit.rootof(e) end

---@param e okit.Entity
---@return string|nil
function okit.modelof(e) end

---@class okit.Timer
local Timer = {}
function Timer:cancel() end

---@class okit.Watch
---@field value any the binding's current value
---@field evaluations integer how many times it was evaluated
local Watch = {}
function Watch:cancel() end

--- Watches a binding: `fn(value)` runs after each transaction that changed what the binding read
--- (dependency-tracked, including reads inside extensions and computed fields).
---@param ctx okit.Entity|nil
---@param binding string
---@param fn fun(value: any)
---@return okit.Watch
function okit.watch(ctx, binding, fn) end

--- Runs `fn` once after `seconds` on the app clock.
---@param seconds number
---@param fn fun()
---@return okit.Timer
function okit.after(seconds, fn) end

--- Runs `fn` every `seconds` on the app clock.
---@param seconds number
---@param fn fun()
---@return okit.Timer
function okit.every(seconds, fn) end

--- Runs once per model stored by `version` when a newer version loads it (in a transaction).
---@param version integer
---@param fn fun(root: okit.Entity, storedVersion: integer)
function okit.migrate(version, fn) end

---@class okit.ListCell
---@field path? string the row text
---@field detailPath? string the row detail

---@class okit.ListOptions
---@field type? string
---@field contextPath? string
---@field dataPath? string
---@field titlePath? string
---@field subTitlePath? string
---@field titleCount? string
---@field subTitleObject? string
---@field subTitleObjectPlural? string
---@field rowSort? string
---@field rowSortAsc? string
---@field group? string
---@field groupName? string
---@field groupSortAsc? string
---@field search? string
---@field searchPath? string
---@field index? string
---@field cell? okit.ListCell
---@field add? string
---@field addAppend? string
---@field addName? string a field name (literal)
---@field typeName? string (literal)
---@field delete? string
---@field deletePrompt? string
---@field segue? string a screen id (literal)

---@class okit.Cell
---@field path? string
---@field detailPath? string
---@field contextPath? string
---@field id? string
---@field showDisplay? string
---@field showEdit? string
---@field readOnly? string
---@field textPath? string
---@field onPath? string
---@field datePath? string
---@field valuePath? string
---@field minValuePath? string
---@field maxValuePath? string
---@field stepValuePath? string
---@field selectIndexPath? string
---@field selectionPath? string
---@field segmentsPath? string
---@field placeholder? string

---@class okit.CellModule
okit.cell = {}
---@param p okit.Cell
---@return okit.Cell
function okit.cell.table(p) end
---@param p okit.Cell
---@return okit.Cell
function okit.cell.text(p) end
---@param p okit.Cell
---@return okit.Cell
function okit.cell.multiline(p) end
---@param p okit.Cell
---@return okit.Cell
function okit.cell.switch(p) end
---@param p okit.Cell
---@return okit.Cell
function okit.cell.date(p) end
---@param p okit.Cell
---@return okit.Cell
function okit.cell.segment(p) end
---@param p okit.Cell
---@return okit.Cell
function okit.cell.picker(p) end
---@param p okit.Cell
---@return okit.Cell
function okit.cell.slider(p) end
---@param p okit.Cell
---@return okit.Cell
function okit.cell.stepper(p) end
---@param p okit.Cell
---@return okit.Cell
function okit.cell.progress(p) end
---@param p okit.Cell
---@return okit.Cell
function okit.cell.image(p) end
---@param p okit.Cell
---@return okit.Cell
function okit.cell.web(p) end

---@class okit.Section
---@field header? string
---@field footer? string
---@field showDisplay? string
---@field showEdit? string
---@field [integer] okit.Cell

---@class okit.DetailOptions
---@field type? string
---@field contextPath? string
---@field titlePath? string
---@field subTitlePath? string
---@field editAlways? string
---@field sections? okit.Section[]

--- Declares a detail screen.
---@param id string
---@param options okit.DetailOptions
function okit.detail(id, options) end

---@class okit.AlertOptions
---@field title? string a binding ("%Set as Marked")
---@field message? string a binding
---@field actions? string[] bindings
---@field fields? { placeholder?: string, value?: string, secure?: boolean }[]
---@field onAction? fun(choice: integer, values: string[])

--- Shows an alert on the current screen; it waits for an answer (`respond`).
---@param options okit.AlertOptions
function okit.alert(options) end

--- Shows a prompt with fields.
---@param options okit.AlertOptions
function okit.prompt(options) end

--- Declares a list screen (properties are binding strings).
---@param id string
---@param options okit.ListOptions
function okit.list(id, options) end

---@class okit.AppOptions
---@field id? string
---@field version? integer
---@field home? string|string[]
---@field menu? string

--- Declares the app (screens arrive with the screens issue; `version` stamps stored models).
---@param options okit.AppOptions
function okit.app(options) end

---@class okit.DateComponents
---@field year integer
---@field month integer
---@field day integer
---@field hour integer
---@field minute integer
---@field second integer
---@field weekday integer 1 = Sunday

---@class okit.Date
---@field time number seconds since 1970 UTC
---@field year integer
---@field month integer
---@field day integer
---@field hour integer
---@field minute integer
---@field second integer
---@field weekday integer
---@operator add(number): okit.Date
---@operator sub(okit.Date): number
local Date = {}
---@param pattern string an ICU pattern such as "yyyy-MM-dd"
---@return string
function Date:format(pattern) end
---@return string
function Date:iso() end
---@return okit.DateComponents
function Date:components() end

---@class okit.DateModule
okit.date = {}
--- The app clock's now.
---@return okit.Date
function okit.date.now() end
---@param iso string
---@return okit.Date
function okit.date.parse(iso) end
---@param seconds number seconds since 1970 UTC
---@return okit.Date
function okit.date.fromTime(seconds) end
---@param d okit.Date
---@return okit.DateComponents
function okit.date.components(d) end

---@class okit.DataModule
okit.data = {}
--- The bytes of a data or image field (loaded lazily from beside the model), or nil.
---@param meta okit.Entity|nil the field's value, e.g. book.icon
---@return string|nil bytes
function okit.data.read(meta) end
--- Replaces the bytes of a data or image field of `e` (an image's format is checked against its bytes).
---@param e okit.Entity
---@param field string
---@param bytes string
---@param format string a MIME type: "image/png", "image/jpeg", "application/pdf", …
---@param label? string
function okit.data.write(e, field, bytes, format, label) end

---@type string
okit.version = ""

---@class okit.Entity
---@field id string|nil
---@field parent okit.Entity|nil
---@field [string] any

---@class okit.Collection<T>: { [integer]: T }
local Collection = {}
--- Inserts at the front (OKit's default), or at Lua index `pos`.
---@param e any
---@param pos? integer
function Collection:add(e, pos) end
---@param e any
function Collection:append(e) end
---@param e_or_index any
function Collection:remove(e_or_index) end
---@param from integer
---@param to integer
function Collection:move(from, to) end
function Collection:clear() end
---@param fn fun(e: any): boolean
---@return any
function Collection:find(fn) end
---@param fn fun(e: any): boolean
---@return any[]
function Collection:filter(fn) end
---@param e any
---@return boolean
function Collection:contains(e) end

return okit
