---@meta okit
-- LuaLS definitions for the `okit` module: the contract is docs/lua-api.md (and the spec it follows).
-- Nothing here runs: bodies are stubs. How to point an editor at this folder: types/README.md.
--
-- Conventions in this file:
--   * A property typed `string` on a screen, cell, button or alert is a binding string (docs/bindings.md)
--     unless its description says "literal".
--   * An action property is `okit.Action`: a binding string or `function(ctx, app) ... end`.
--   * "(beyond the spec)" marks a name the runtime offers that the spec does not name; it may change.

---@class okit
okit = {}

--------------------------------------------------------------------------------------------------------------
-- Entities
--------------------------------------------------------------------------------------------------------------

--- A field type string. Scalars: `string`, `int`, `double`, `bool`, `date`, `data`, `image`, `inlineData`,
--- `inlineImage`. Also `ref Type` (one reference), an entity type name (an owned entity), `[T]` (array),
--- `{T}` (set, unique by id), `{string: T}` (map). A trailing `?` makes the field optional (may be nil).
---@alias okit.FieldType
---| "string" | "string?"
---| "int" | "int?"
---| "double" | "double?"
---| "bool" | "bool?"
---| "date" | "date?"
---| "data" | "data?"
---| "image" | "image?"
---| "inlineData" | "inlineData?"
---| "inlineImage" | "inlineImage?"
---| string # "ref Author", "Address", "[Book]", "[ref Author]", "{Tag}", "{string: Note}", "Address?"

--- The long form of a field: `{ TYPE, default = v, didSet = fn }` and its validation rules (checked on writes
--- from commands: `set`, `add` with a name; never on writes from Lua code).
---@class okit.FieldSpec
---@field [1] okit.FieldType the field type (first, without a key)
---@field default? any the initial value (checked against the type when the app loads)
---@field didSet? fun(self: okit.Entity, old: any) field observer: runs after the field changed
---@field required? boolean|okit.Rule not nil and, for strings, not empty; for a `ref`, a reference is set
---@field min? number|okit.Rule the smallest value of an int or double field
---@field max? number|okit.Rule the largest value of an int or double field
---@field maxLength? integer|okit.Rule the most characters of a string field
---@field pattern? string|okit.Rule a Lua pattern a string value must match (`string.find`; anchor with ^ and $)
---@field validate? fun(value: any, entity: okit.Entity): boolean, string? true when valid, else false and the message
---@field message? string the message of every rule of the field (instead of the default ones)
---@field label? string the field's name in default messages ("Name is required"); default: the field name, capitalized

--- A rule with its own message: `{ 0, message = "A price cannot be negative" }`.
---@class okit.Rule
---@field [1] any the rule's value
---@field message string

--- What `okit.computed` returns: a field read like any other and never stored.
---@class okit.Computed
---@field __okit_computed true
---@field get fun(self: okit.Entity): any
---@field set? fun(self: okit.Entity, value: any)

--- A value in an entity declaration: a field type, a long form, a computed field, or a function (a method,
--- callable from Lua as `e:name(...)` and from bindings as `name()` / `name(arg)` / `name`).
---@alias okit.EntityMember okit.FieldType|okit.FieldSpec|okit.Computed|fun(self: okit.Entity, ...: any): any

--- The declaration table of `okit.entity`: field name → member, plus the optional lifecycle hooks.
--- A field or computed field named `description` is the entity's display string.
---@class okit.EntitySpec
---@field managed? fun(self: okit.Entity, container: okit.Entity?) once, after the entity entered its container (`parent` is set)
---@field unmanaged? fun(self: okit.Entity, container: okit.Entity?) once, after the entity left its container
---@field loaded? fun(self: okit.Entity) after its model loaded (after migrations)
---@field [string] okit.EntityMember

---@class okit.EntityOptions
---@field id? boolean `false`: entities of this type have no `id` field and cannot be referenced (default true)
---@field table? string sqlite models: the table of this type (default the type's name; Action Data's `tableName`)
---@field primaryKey? string sqlite models: the primary key column (default "id")
---@field key? "autoincrement" ids "1", "2", … allocated when an entity is created (Action Data's `.autoIncrementingInt`); default okit's UUIDs

--- Declares an entity type and returns its name.
---
--- Load-time errors (file:line): an unknown field type, a duplicate entity type or field, a reserved field name
--- (`id`, `parent`), a default of the wrong type, an entity type that is never declared.
---
--- ```lua
--- okit.entity("Book", {
---   name = "string", price = { "double", default = 0 }, author = "ref Author", dates = "[BookDate]",
---   formatMarked = okit.computed(function(self) return self.marked and "marked" or "not marked" end),
---   setAsMarked = function(self) self.marked = true end,
--- })
--- ```
---@param name string the entity type name (a Lua identifier-like name, unique)
---@param spec okit.EntitySpec
---@param options? okit.EntityOptions
---@return string type the type name
function okit.entity(name, spec, options) end

--- A computed field: read like a field (also in bindings), never stored; writable when `set` is given
--- (`okit.Settings.darkMode` is one). Reads inside `get` are dependency-tracked.
---@param get fun(self: okit.Entity): any
---@param set? fun(self: okit.Entity, value: any)
---@return okit.Computed
function okit.computed(get, set) end

--------------------------------------------------------------------------------------------------------------
-- Entity objects
--------------------------------------------------------------------------------------------------------------

--- An entity as seen from Lua. Fields, computed fields and methods are dynamic: `book.name`,
--- `book.name = "Dune"` (type-checked, coerced, marks the model dirty), `book:setAsMarked()`.
--- Two Lua values for the same entity are `==`; `tostring(e)` is its display string.
--- Reading a name the type does not have raises `Book has no field or method "nmae"`; using an entity after it
--- was removed and its model stored raises `Book(…) was removed from its model and can no longer be used`.
---@class okit.Entity
---@field id string? a new upper-case UUID when created, or the id given to `okit.new`; nil for `{ id = false }` types
---@field parent okit.Entity? the entity holding this one (through a field or a collection); nil for roots and detached entities
---@field [string] any

--- The small entity a `ref` field holds.
---@class okit.Ref: okit.Entity
---@field refKey string? the target's id (stored)
---@field ref okit.Entity? the target, resolved through the id index of all loaded models (not stored); nil when gone

--- An array (`[T]`), set (`{T}`) or map (`{string: T}`) field. Arrays index from 1 in Lua
--- (`shop.books[1]`; binding paths stay 0-based: `books[0]`); `#c`, `ipairs(c)` and `pairs(c)` work.
--- Maps index by key: `m[key]`, `m[key] = e`. Reads are dependency-tracked.
---@class okit.Collection<T>: { [integer]: T }
---@operator len: integer
local Collection = {}

--- Inserts `e` at the front (OKit's default), or before Lua index `pos` (1 … #c + 1). Sets: adds it once.
--- Errors: an entity another container owns (`… already belongs to …: remove it there first`), an entity
--- added inside itself, an entity of the wrong type, an index out of range.
--- Returns `e` (beyond the spec).
---@generic T
---@param e T an entity (or for `[ref T]`: an entity or an id string)
---@param pos? integer
---@return T
function Collection:add(e, pos) end

--- Inserts `e` at the end. Returns `e` (beyond the spec).
---@generic T
---@param e T
---@return T
function Collection:append(e) end

--- Removes an entity, or the element at a Lua index; its `unmanaged` hook fires once. Returns the removed
--- element (beyond the spec). Errors: not in the collection, index out of range.
---@param e_or_index okit.Entity|integer
---@return any removed
function Collection:remove(e_or_index) end

--- Moves the element at Lua index `from` to Lua index `to`.
---@param from integer
---@param to integer
function Collection:move(from, to) end

--- Removes every element (each `unmanaged` hook fires once).
function Collection:clear() end

--- The first element for which `fn` returns a truthy value, or nil.
---@param fn fun(e: any): any
---@return any
function Collection:find(fn) end

--- The elements for which `fn` returns a truthy value, as a plain Lua sequence.
---@param fn fun(e: any): any
---@return any[]
function Collection:filter(fn) end

--- Whether the collection holds `e` (for ref collections: a ref whose target is `e`).
---@param e any
---@return boolean
function Collection:contains(e) end

--- Creates an entity of `type` (defaults applied; a new id unless `fields.id` gives one — codes like
--- `"FANTASY"` are fine). It is not in a model yet: it becomes managed when added or assigned.
--- Errors: an unknown type, a field the type does not have, a value that cannot be coerced.
---@param type string
---@param fields? table<string, any>
---@return okit.Entity
function okit.new(type, fields) end

--- A loaded entity by id: its own model first, then the others in registration order (a duplicate id across
--- models warns once), or nil.
---@param id string
---@return okit.Entity?
function okit.byId(id) end

--- Checks an entity's fields against their validation rules: true and an empty table, or false and the message
--- of each field that breaks a rule, by field name.
---@param e okit.Entity
---@return boolean ok
---@return table<string, string> messages
function okit.valid(e) end

--- The entity's type name (so a field may be called `type`).
---@param e okit.Entity
---@return string
function okit.typeof(e) end

--- The root entity of the entity's model (the entity itself for a root or a detached entity).
---@param e okit.Entity
---@return okit.Entity
function okit.rootof(e) end

--- The name of the entity's model, or nil while it is detached.
---@param e okit.Entity
---@return string?
function okit.modelof(e) end

--------------------------------------------------------------------------------------------------------------
-- Models and state
--------------------------------------------------------------------------------------------------------------

---@alias okit.StorageKind
---| "file"          # JSON files in <data>/okit/data (default)
---| "transient"     # never read or written
---| "encrypted"     # files sealed with AES-256-GCM while the app's `encryption` binding is true
---| "http"          # GET/PUT/DELETE of <endpoint>/<model>.json
---| "encryptedHttp" # http carrying encrypted bodies
---| "sqlite"        # a SQLite database <data>/okit/data/<model>.sqlite: a table per entity type, a store writes only changed rows
---| "postgres"      # shared: the sqlite tables in PostgreSQL (OKIT_DATABASE_URL), followed live by every process

---@class okit.ModelOptions
---@field name? string the model's name (default "default", stored as default.json); a name with `/`, `\`, `..` or a leading `.` is refused
---@field storage? okit.StorageKind default "file"
---@field seed? fun(root: okit.Entity) runs only when the model is created fresh (not when it loads)
---@field endpoint? string for http models (`OKIT_ENDPOINT` beats it; it beats `okit.app { endpoint }`)
---@field encrypted? boolean refused with `storage = "sqlite"` (no SQLCipher: the encryption setting does not apply to sqlite models) and with `storage = "postgres"`
---@field database? string for postgres models: `postgres://user@host:port/database` (`OKIT_DATABASE_URL` beats it; it beats `okit.app { database }`)

--- Registers a model (a root entity of `type`) under `options.name`, loads it from storage or creates it
--- fresh (running `seed`), and returns its root entity.
--- Errors: an unknown type, a duplicate name, an unknown storage kind, a model file that cannot be read
--- (the app stops with exit code 4; the file is never overwritten).
---@param type string
---@param options? okit.ModelOptions
---@return okit.Entity root
---@overload fun(type: "Settings", options?: okit.ModelOptions): okit.Settings
function okit.model(type, options) end

--- Names the models stored and restored together (OKit's `Model.state`; default: every registered model).
--- Error: an element that is not a model root.
---@param roots okit.Entity[]
function okit.state(roots) end

--- Stores one model now (only if it changed). Error: the entity is not a model root; a storage failure.
---@param root okit.Entity
function okit.store(root) end

--- Stores every model of the state that changed.
function okit.storeState() end

--- Reloads every model of the state from storage (unsaved changes are dropped; root entities stay the same
--- Lua values).
function okit.restoreState() end

--- The registered models: name → root entity.
---@return table<string, okit.Entity>
function okit.models() end

--------------------------------------------------------------------------------------------------------------
-- Bindings from Lua (docs/bindings.md)
--------------------------------------------------------------------------------------------------------------

--- What `okit.getAll` returns: the raw value of every part (nil kept) and the part count.
---@class okit.Values: { [integer]: any }
---@field n integer the number of parts (parts may be nil)

--- Evaluates a binding on a context (nil: the default model's root). One part gives its raw value; several
--- parts give their display strings joined with a space. Errors: a parse error
--- (`binding "books[0/name": expected "]" at column 8`), an unknown model name. A name the schema does not
--- know yields nil and warns once.
---@param ctx okit.Entity?
---@param binding string
---@return any
function okit.get(ctx, binding) end

--- The raw value of every part of a binding, plus `n`.
---@param ctx okit.Entity?
---@param binding string
---@return okit.Values
function okit.getAll(ctx, binding) end

--- Writes through a binding: the field reached by the last segment (type-checked and coerced), or calls
--- `fn(value)` when the last segment is a call. Errors: a parse error, an unknown model, a value that cannot
--- be coerced, nil into a non-optional field, a write through a constant or a scalar.
---@param ctx okit.Entity?
---@param binding string
---@param value any
function okit.set(ctx, binding, value) end

--- Evaluates a binding for its effect (an action: writes allowed) and returns its value.
---@param ctx okit.Entity?
---@param binding string
---@return any
function okit.call(ctx, binding) end

--- A binding compiled once (`okit.binding`).
---@class okit.Binding
---@field text string the binding's text (beyond the spec)
local Binding = {}

--- Same as `okit.get(ctx, text)`.
---@param ctx okit.Entity?
---@return any
function Binding:get(ctx) end

--- Same as `okit.set(ctx, text, value)`.
---@param ctx okit.Entity?
---@param value any
function Binding:set(ctx, value) end

--- Compiles a binding once. Error: a parse error.
---@param text string
---@return okit.Binding
function okit.binding(text) end

--- A dependency-tracked watch (`okit.watch`, beyond the spec).
---@class okit.Watch
---@field value any the binding's current value
---@field evaluations integer how many times it was evaluated
local Watch = {}

--- Stops the watch.
function Watch:cancel() end

--- (beyond the spec) Runs `fn(value)` after each transaction that changed something the binding read
--- (including reads inside extensions and computed fields), and never otherwise.
---@param ctx okit.Entity?
---@param binding string
---@param fn fun(value: any)
---@return okit.Watch
function okit.watch(ctx, binding, fn) end

--------------------------------------------------------------------------------------------------------------
-- Transactions
--------------------------------------------------------------------------------------------------------------

--- Runs `fn` as one transaction: dependents re-evaluate once, after it; a nested transaction joins the outer
--- one; a Lua error (or an exhausted budget) inside rolls back every write of it and is raised again.
--- Returns what `fn` returned (its first value).
---@generic T
---@param fn fun(): T
---@return T
function okit.transaction(fn) end

--------------------------------------------------------------------------------------------------------------
-- Extension functions
--------------------------------------------------------------------------------------------------------------

---@alias okit.ExtensionType
---| "string"
---| "number"
---| "bool"
---| "date"
---| "collection"
---| "entity"
---| "any"
---| string # an entity type name

--- Registers an extension function, called from bindings as `name/initial`, `price/euro`, `label(#!)`; the
--- receiver comes first, then the arguments (each a binding evaluated on the binding's starting context).
--- A Lua extension replaces a built-in of the same name for that type. Reads inside it are dependency-tracked.
--- A Lua error inside it is reported with its traceback and the calling binding; that binding yields nil.
---@param type okit.ExtensionType
---@param name string
---@param fn fun(receiver: any, ...: any): any
function okit.extension(type, name, fn) end

--------------------------------------------------------------------------------------------------------------
-- Dates
--------------------------------------------------------------------------------------------------------------

---@class okit.DateComponents
---@field year integer
---@field month integer 1 … 12
---@field day integer
---@field hour integer
---@field minute integer
---@field second integer
---@field weekday integer 1 = Sunday … 7 = Saturday

--- A point in time (seconds since 1970 UTC inside). Compare with `==`, `<`, `<=`; `d + seconds` and
--- `d - seconds` give dates, `d1 - d2` the difference in seconds; `tostring(d)` is ISO 8601 UTC.
--- Components are in the app's time zone (`okit.locale`).
---@class okit.Date
---@field time number (beyond the spec) seconds since 1970 UTC (also `seconds`)
---@field seconds number (beyond the spec) same as `time`
---@field year integer (beyond the spec) accessor for `okit.date.components(d).year`
---@field month integer (beyond the spec)
---@field day integer (beyond the spec)
---@field hour integer (beyond the spec)
---@field minute integer (beyond the spec)
---@field second integer (beyond the spec)
---@field weekday integer (beyond the spec) 1 = Sunday
---@operator add(number): okit.Date
---@operator sub(okit.Date): number
---@operator sub(number): okit.Date
local Date = {}

--- Formats with a Unicode (ICU) pattern in the app's locale and time zone: `d:format("yyyy-MM-dd")`.
---@param pattern string
---@return string
function Date:format(pattern) end

--- (beyond the spec) ISO 8601 in UTC: `2019-05-01T10:00:00Z`.
---@return string
function Date:iso() end

--- (beyond the spec) Same as `okit.date.components(d)`.
---@return okit.DateComponents
function Date:components() end

---@class okit.DateModule
okit.date = {}

--- The app clock's now (the virtual clock in tests and under `--clock virtual`). Dependency-tracked.
---@return okit.Date
function okit.date.now() end

--- Parses ISO 8601 (`Z` or an offset, fraction optional). Error: not an ISO 8601 date.
---@param iso string
---@return okit.Date
function okit.date.parse(iso) end

--- Year, month, day, hour, minute, second and weekday in the app's time zone.
---@param d okit.Date
---@return okit.DateComponents
function okit.date.components(d) end

--- (beyond the spec) A date from Unix seconds.
---@param seconds number
---@return okit.Date
function okit.date.fromTime(seconds) end

--------------------------------------------------------------------------------------------------------------
-- Localization
--------------------------------------------------------------------------------------------------------------

--- A plural key's forms by CLDR category, for languages with more than two (lua-api.md "Counts"):
--- `books = { few = "книги", many = "книг", other = "книги" }`; `other` is required.
---@class okit.PluralForms
---@field zero? string
---@field one? string
---@field two? string
---@field few? string
---@field many? string
---@field other string

--- Adds strings of a language: a table (key → text, or a plural key's forms), or the path of an Apple
--- `.strings` file inside the app's folder. Errors: a path outside the app's folder, a file that cannot be
--- read, forms without `other` or with a name that is no category.
---@param language string "en", "de", …
---@param strings table<string, string|okit.PluralForms>|string
function okit.strings(language, strings) end

---@class okit.Locale
---@field language? string default "en" (`okit-run --lang` beats it)
---@field region? string default "US"
---@field timeZone? string default "UTC"; an IANA name such as "Europe/Berlin"

--- Sets the language, region and time zone (keys left out keep their value). Returns the resulting locale
--- (beyond the spec; `okit.locale()` reads it). Error: an unknown time zone.
---@param locale? okit.Locale
---@return okit.Locale
function okit.locale(locale) end

--- The localized string of a key in the current language; the key itself when missing.
---@param key string
---@return string
function okit.localize(key) end

--------------------------------------------------------------------------------------------------------------
-- Timers
--------------------------------------------------------------------------------------------------------------

--- A timer handle (`okit.after`, `okit.every`).
---@class okit.Timer
local Timer = {}

--- Cancels the timer (nothing happens if it already ran or was cancelled).
function Timer:cancel() end

--- Runs `fn` once, `seconds` from now on the app clock, in a transaction. Error: negative seconds.
---@param seconds number
---@param fn fun()
---@return okit.Timer
function okit.after(seconds, fn) end

--- Runs `fn` every `seconds` on the app clock, each run in a transaction.
---@param seconds number
---@param fn fun()
---@return okit.Timer
function okit.every(seconds, fn) end

--------------------------------------------------------------------------------------------------------------
-- Schema versions
--------------------------------------------------------------------------------------------------------------

--- Runs `fn` once per model stored by schema `version` when a newer `okit.app { version = … }` loads it
--- (in a transaction, before the `loaded` hooks); migrations from the stored version up run in order.
---@param version integer the stored version this migration upgrades from
---@param fn fun(model: okit.Entity, raw: table) `model`: the root entity; `raw`: the model as stored, its JSON document as tables (`raw.okit.version` the stored version)
function okit.migrate(version, fn) end

--------------------------------------------------------------------------------------------------------------
-- Data and images (storage.md)
--------------------------------------------------------------------------------------------------------------

--- The value of a `data` or `image` field: metadata in the model, bytes in a side file.
---@class okit.DataMeta: okit.Entity
---@field format string a MIME type: "image/png", "image/jpeg", "application/pdf", …
---@field label string?
---@field size integer bytes
---@field sha256 string hex

---@class okit.DataModule
okit.data = {}

--- The bytes of a `data`/`image` field (loaded lazily, then kept), or nil for nil.
---@param field okit.DataMeta? the field's value, e.g. `book.icon`
---@return string? bytes
function okit.data.read(field) end

--- storage.md's name for `okit.data.read`.
---@param field okit.DataMeta?
---@return string? bytes
function okit.data.bytes(field) end

--- Replaces the bytes of a `data`/`image` field of `e`; written beside the model on the next store.
--- Errors: not a data/image field, an empty format, an image whose bytes are not PNG/JPEG as `format` says.
---@param e okit.Entity
---@param field string
---@param bytes string
---@param format string a MIME type
---@param label? string (beyond the spec)
function okit.data.write(e, field, bytes, format, label) end

--------------------------------------------------------------------------------------------------------------
-- Partials (storage.md)
--------------------------------------------------------------------------------------------------------------

---@class okit.PartialOptions
---@field field? string the stub's field holding the payload (default: the payload type's name, lower-cased)
---@field sync? string[] fields kept equal in the stub and the payload, both ways

--- Declares a stub entity type `name` whose payload (an entity of `payloadType`) lives in its own file
--- `<model>/<stub id>.json` and loads on the first read of the stub's `field`. Returns the stub type name.
---@param name string the stub type
---@param payloadType string
---@param fields table<string, okit.EntityMember> the stub's own fields
---@param options? okit.PartialOptions
---@return string type
function okit.partial(name, payloadType, fields, options) end

--------------------------------------------------------------------------------------------------------------
-- Settings and theming (storage.md)
--------------------------------------------------------------------------------------------------------------

--- A protection timeout choice (`okit.Settings.timeouts`): id "0", "1", "5" or "10" minutes.
---@class okit.ProtectionTimeout: okit.Entity
---@field name string localized: "Immediately", "1 minute", "5 minutes", "10 minutes"
---@field minutes integer

--- The built-in settings entity type `"Settings"`: `okit.model(okit.Settings, { name = "settings" })` (declared
--- unless the app declares its own `Settings`); the first launch applies the defaults below.
---@class okit.Settings: okit.Entity
---@field themeName string "" (the default theme) or "dark", or a name given to `okit.theme`
---@field darkMode boolean computed and writable: themeName == "dark"
---@field encryption boolean default true
---@field protection boolean default true
---@field protectionTimeout okit.Ref a ref to one of `timeouts` (default "5")
---@field timeouts okit.Collection<okit.ProtectionTimeout>

--- The type name of the built-in settings entity: `"Settings"`.
---@type string
okit.Settings = "Settings"

--- Theme values (OKit's ModelTheme names); colours are "#RRGGBB" strings.
---@class okit.ThemeValues
---@field tintColor? string
---@field backgroundColor? string
---@field textColor? string
---@field accentColor? string
---@field activeColor? string
---@field cellColor? string
---@field placeholderColor? string
---@field groupedBackgroundColor? string
---@field statusBarStyle? string
---@field barStyle? string
---@field [string] string other OKit theme values (navigation, tab and tool bar colours, …)

--- Registers a theme (`default` and `dark` exist); the settings' `themeName` selects it.
---@param name string
---@param values okit.ThemeValues
function okit.theme(name, values) end

--------------------------------------------------------------------------------------------------------------
-- Screens (screens.md)
--------------------------------------------------------------------------------------------------------------

--- An action property: a binding evaluated on the row's, cell's or screen's entity, or a Lua function.
--- Navigation the function issues (`app:open`, `app:present`, `app:back`, `app:close`) runs after the current
--- command, in order.
---@alias okit.Action string|fun(ctx: okit.Entity, app: okit.Navigator)

--- The `app` a Lua action or hook gets: navigation that runs after the current command, in order (not at all
--- when the action raises). `ctx`: an entity, or a binding evaluated on the screen on top then.
---@class okit.Navigator
local Navigator = {}
---@param id string
---@param ctx? okit.Entity|string
function Navigator:open(id, ctx) end
---@param id string
---@param ctx? okit.Entity|string
function Navigator:present(id, ctx) end
function Navigator:back() end
function Navigator:close() end

--- The screen a controller hook receives: its id, kind and context entity.
---@class okit.ScreenInfo
---@field id string
---@field kind string "list", "detail", "selection", "menu", "settings", "backups"
---@field context okit.Entity?

--- A bar button (`buttons = { … }` on any screen).
---@class okit.BarButton
---@field id? string a name for tests (default: its title as written, without a leading % or #; else its icon)
---@field title? string a binding on the screen's context: "%Add" (localized) or "#Add" (as it is); "Add" names a field
---@field icon? string
---@field tapPath? okit.Action runs on the screen's context
---@field enabledPath? string
---@field showPath? string
---@field segue? string literal: a screen id pushed with the screen's context
---@field present? string literal: a screen id presented with the screen's context

--- Properties every screen kind takes.
---@class okit.Screen
---@field type? string literal: the entity type of the screen's context (list: of its rows); helps `okit-run check`
---@field typeName? string literal: the type's display name (add prompt)
---@field contextPath? string resolved on the context passed in (else on the default model's root)
---@field titlePath? string
---@field subTitlePath? string
---@field titleCount? string a count: "N objects" as the subtitle with subTitleObject, else "Title (N)" (lists, details, settings)
---@field subTitleObject? string
---@field subTitleObjectPlural? string
---@field subTitleSwap? string
---@field promptPath? string
---@field titleTap? okit.Action
---@field edit? string shows the Edit button (default #true)
---@field editAlways? string
---@field editInherit? string
---@field help? string literal: plain help text; the help button shows when set
---@field buttons? okit.BarButton[]
---@field onAppear? string|fun(screen: okit.ScreenInfo, app: okit.Navigator) each time the screen becomes the top one
---@field onDisappear? string|fun(screen: okit.ScreenInfo, app: okit.Navigator) when it stops being the top one
---@field onEdit? string|fun(screen: okit.ScreenInfo, app: okit.Navigator) when edit mode switches
---@field onAdd? string|fun(entity: okit.Entity, screen: okit.ScreenInfo, app: okit.Navigator)
---@field onDelete? string|fun(entity: okit.Entity, screen: okit.ScreenInfo, app: okit.Navigator)
---@field onSelect? string|fun(entity: okit.Entity, screen: okit.ScreenInfo, app: okit.Navigator)

--- A list, menu or selection screen.
---@class okit.ListScreen: okit.Screen
---@field dataPath? string an array or set of entities
---@field cell? okit.TableCell|okit.Cell the rows' cell: a table cell's properties, or any `okit.cell.*`
---@field rowSort? string
---@field rowSortAsc? string default #true
---@field group? string the section key
---@field groupName? string the section title (default: the key as text)
---@field groupSort? string default #true: sections ordered by key (false: by their first rows)
---@field groupSortAsc? string default #true
---@field groupHeader? string a line under each section's title, on the section (`rows`, `key`): "rows.@count/suffixPlural(#item)"
---@field groupFooter? string a line at each section's end, on the section (`rows`, `key`): "%Total:,rows.@sum.amount"
---@field footerPath? string the list's footer line, on a section of every row shown (`rows`; `key` is nil)
---@field search? string default #true
---@field searchPath? string default: the cell's `path`
---@field searchFilters? string multipart: scopes after "All"
---@field searchFilterPath? string
---@field index? string default #false
---@field add? string default #true (shown when a new row's type is known)
---@field addAppend? string default #false
---@field addName? string literal: the field the add prompt writes
---@field addNav? string default #false
---@field delete? string default #true
---@field deleteEnabled? string default #true, per row
---@field deletePrompt? string default true
---@field more? string default #false
---@field moreEnabled? string default #true, per row
---@field moreTap? okit.Action
---@field moreActions? string multipart: the action titles
---@field moreActionsEnabled? string multipart
---@field moreActionsTap? string|okit.Action[] multipart binding, or one action per `moreActions` part
---@field quickName? string
---@field quickImage? string an image name: shows the quick action without a name
---@field quickEnabled? string default #true, per row
---@field quickTap? okit.Action
---@field reorder? string default #false (not with group; with rowSort the sort puts rows back)
---@field reorderEnabled? string default #true, per row
---@field tap? okit.Action display mode, on the row entity; a row tap runs it or, without one, follows `segue`
---@field tapEdit? okit.Action edit mode, on the row entity
---@field selectPath? string
---@field editEnabled? string default #true, per row: delete and move in edit mode
---@field navEnabled? string default #true, per row
---@field refresh? string default #true: `button refresh` recomputes the rows (OKit's pull to refresh)
---@field segue? string literal: the screen a row tap opens with the row entity
---@field present? string literal: the screen a row tap presents with the row entity

---@class okit.SelectionScreen: okit.ListScreen
---@field selectionPath? string a ref (single) or an array/set of refs (multi), on the selection context
---@field selectionContextPath? string
---@field unique? string
---@field unselect? string
---@field selectAppend? string
---@field refType? string
---@field clear? string
---@field close? string
---@field autoClose? string default "#false"

--- A menu toolbar item.
---@class okit.MenuItem
---@field id? string default: its title text
---@field title? string
---@field icon? string
---@field present? string literal: a screen id
---@field segue? string literal: a screen id
---@field home? boolean shows home

---@class okit.MenuScreen: okit.ListScreen
---@field rowIdentifier? string literal: the screen an accessory tap shows with the row entity
---@field identifier? string literal
---@field hideMenu? string default true
---@field items? okit.MenuItem[]

--- A section of a detail or settings screen: cells in order, plus optional properties.
---@class okit.Section
---@field header? string
---@field footer? string
---@field showDisplay? string false hides the header and footer (the cells show by their own showDisplay)
---@field showEdit? string false hides the header and footer in edit mode
---@field [integer] okit.Cell

---@class okit.DetailScreen: okit.Screen
---@field sections? okit.Section[]
---@field sectionHeaders? string multipart
---@field sectionFooters? string multipart
---@field sectionsShowDisplay? string multipart: a false part hides its section's header and footer (not its cells)
---@field sectionsShowEdit? string multipart, in edit mode
---@field tap? okit.Action on the screen's context, a tap on any cell without its own tap/tapEdit (display mode)
---@field tapEdit? okit.Action on the screen's context, a tap on any cell without its own tap/tapEdit (edit mode)
---@field accyTap? okit.Action on the screen's context, an accessory tap on a cell without its own accyTap/accyEditTap
---@field accyEditTap? okit.Action the same in edit mode (else accyTap)

---@class okit.BackupsScreen: okit.Screen
---@field secure? boolean|string secure backups (password-sealed archives)

--- Declares a list screen.
---@param id string
---@param properties okit.ListScreen
function okit.list(id, properties) end

--- Declares a detail screen.
---@param id string
---@param properties okit.DetailScreen
function okit.detail(id, properties) end

--- Declares a selection screen.
---@param id string
---@param properties okit.SelectionScreen
function okit.selection(id, properties) end

--- Declares the menu.
---@param id string
---@param properties okit.MenuScreen
function okit.menu(id, properties) end

--- Declares a settings screen (a detail screen whose changes apply theme, encryption and protection at once).
---@param id string
---@param properties okit.DetailScreen
function okit.settings(id, properties) end

--- Declares the backups screen.
---@param id string
---@param properties okit.BackupsScreen
function okit.backups(id, properties) end

---@class okit.AppOptions
---@field id? string literal: names the default data directory (default: the app file's folder name)
---@field home? string|string[] literal: one screen id, or the tabs
---@field menu? string literal: the menu screen's id
---@field version? integer the schema version stamped on stored models (`okit.migrate`)
---@field endpoint? string base URL of http models
---@field database? string default database URL of postgres models (`postgres://user@host:port/database`)
---@field autosave? number store the state every so many seconds
---@field authenticate? fun(): boolean the shell's authentication (default: the passphrase)
---@field contextPath? string the settings context, e.g. "settings>/"
---@field themeName? string
---@field encryption? string
---@field protection? string
---@field protectionTimeout? string minutes
---@field protectionCover? string whether the cover shows protectionText and protectionImage (default "#true"; covered either way)
---@field protectionText? string
---@field protectionImage? string
---@field homeIdentifier? string OKit's name of `home` (one screen id; kept by ports)
---@field menuIdentifier? string OKit's name of `menu`
---@field storyboardName? string OKit's; no headless meaning, ignored
---@field popGesture? string OKit's flag binding; no headless meaning, compiled and ignored
---@field menuHideStatusBar? string OKit's flag binding; no headless meaning, compiled and ignored

--- Declares the app shell.
---@param options okit.AppOptions
function okit.app(options) end

--------------------------------------------------------------------------------------------------------------
-- Cells (screens.md; `okit.cell.*`)
--------------------------------------------------------------------------------------------------------------

--- Properties every cell takes (OKit's table cell).
---@class okit.Cell
---@field id? string a name for tests (default: the `path` text without `%`/`#`)
---@field contextPath? string
---@field path? string the text
---@field detailPath? string the detail text
---@field editPath? string the text in edit mode
---@field editDetailPath? string the detail text in edit mode
---@field imagePath? string
---@field editImagePath? string the image in edit mode
---@field ribbonColor? string
---@field editRibbonColor? string
---@field accyPath? string the accessory type ("checkmark", "disclosure", … or UIKit's number); shows even when accyShow is false
---@field accyEditPath? string
---@field showDisplay? string on the screen's context (a list: the row), not after the cell's contextPath
---@field showEdit? string on the screen's context (a list: the row), not after the cell's contextPath
---@field heightDisplay? string 0 hides the cell; read where showDisplay is
---@field heightEdit? string
---@field heightSelect? string default "#216" for date and picker cells
---@field selectNextRow? string
---@field selectNextAccent? string
---@field tap? okit.Action
---@field tapEdit? okit.Action
---@field segue? string literal: a screen id opened with the cell's context
---@field present? string literal: a screen id presented with the cell's context

--- A table cell, also a list's row cell (with the accessory properties, evaluated per row).
---@class okit.TableCell: okit.Cell
---@field accyText? string
---@field accyIcon? string
---@field accyTap? okit.Action
---@field accyShow? string false hides the button (accyText/accyIcon), not accyPath's type
---@field accyEnabled? string
---@field accyEditText? string
---@field accyEditIcon? string
---@field accyEditTap? okit.Action
---@field accyEditShow? string
---@field accyEditEnabled? string

--- An edit cell (takes values in edit mode).
---@class okit.EditCell: okit.Cell
---@field readOnly? string
---@field controlInDisplay? string

---@class okit.TextCell: okit.EditCell
---@field textPath? string two-way: a string
---@field placeholder? string
---@field secure? string

---@class okit.MultilineCell: okit.EditCell
---@field textPath? string two-way: a string
---@field placeholder? string

---@class okit.SwitchCell: okit.EditCell
---@field onPath? string two-way: a bool (or a text: "yes"/"true"/"1"/"on" is on; writes the field's own words)

---@class okit.DateCell: okit.EditCell
---@field datePath? string two-way: a date
---@field minDatePath? string a date or an ISO 8601 string
---@field maxDatePath? string a date or an ISO 8601 string
---@field modePath? string what the detail shows: "#0" the time, "#1" the date, "#2" (default) both

---@class okit.SegmentCell: okit.EditCell
---@field segmentsPath? string multipart: the segment titles
---@field selectIndexPath? string two-way: the 0-based index (stored as the field's type), or the title with byTitle
---@field byTitle? string flag, default "#false": selectIndexPath holds the segment's title
---@field width? string

---@class okit.PickerCell: okit.EditCell
---@field dataPath? string the options (an array or set of entities)
---@field namePath? string an option's name
---@field optionValues? string the options as texts instead of dataPath: "Dog,Cat,Bird" (stored as written, shown localized) or multipart bindings
---@field selectionPath? string two-way: a ref (a text with optionValues)

---@class okit.SliderCell: okit.EditCell
---@field valuePath? string two-way: a number
---@field minValuePath? string default "#0"
---@field maxValuePath? string default "#1"
---@field minImagePath? string
---@field maxImagePath? string
---@field width? string

---@class okit.StepperCell: okit.EditCell
---@field valuePath? string two-way: a number
---@field minValuePath? string default "#0"
---@field maxValuePath? string default "#100"
---@field stepValuePath? string default "#1"

---@class okit.ProgressCell: okit.Cell
---@field valuePath? string 0 … 1

---@class okit.ImageCell: okit.Cell
---@field imagePath? string a binary field, an image's name, or a text holding a base64 image (or a data: URL)

---@class okit.WebCell: okit.Cell
---@field urlPath? string
---@field htmlPath? string the page as HTML text (when no urlPath)

---@class okit.CellModule
okit.cell = {}

---@param p okit.TableCell
---@return okit.TableCell
function okit.cell.table(p) end

---@param p okit.TextCell
---@return okit.TextCell
function okit.cell.text(p) end

---@param p okit.MultilineCell
---@return okit.MultilineCell
function okit.cell.multiline(p) end

---@param p okit.SwitchCell
---@return okit.SwitchCell
function okit.cell.switch(p) end

---@param p okit.DateCell
---@return okit.DateCell
function okit.cell.date(p) end

---@param p okit.SegmentCell
---@return okit.SegmentCell
function okit.cell.segment(p) end

---@param p okit.PickerCell
---@return okit.PickerCell
function okit.cell.picker(p) end

---@param p okit.SliderCell
---@return okit.SliderCell
function okit.cell.slider(p) end

---@param p okit.StepperCell
---@return okit.StepperCell
function okit.cell.stepper(p) end

---@param p okit.ProgressCell
---@return okit.ProgressCell
function okit.cell.progress(p) end

---@param p okit.ImageCell
---@return okit.ImageCell
function okit.cell.image(p) end

---@param p okit.WebCell
---@return okit.WebCell
function okit.cell.web(p) end

--------------------------------------------------------------------------------------------------------------
-- Alerts and prompts
--------------------------------------------------------------------------------------------------------------

---@class okit.AlertOptions
---@field title? string a binding ("%Set As Marked")
---@field message? string a binding
---@field actions? string[] bindings (default: { "OK" })
---@field onAction? fun(choice: integer) the 1-based index of the chosen action

---@class okit.PromptField
---@field placeholder? string a binding
---@field secure? boolean never echoed in snapshots
---@field value? string the initial text
---@field rules? { [1]: okit.Entity, [2]: string } check the value by this entity field's validation rules when the first action is chosen

---@class okit.PromptOptions
---@field title? string a binding
---@field message? string a binding
---@field fields? okit.PromptField[]
---@field actions? string[] bindings (default: { "OK" })
---@field onAction? fun(choice: integer, values: string[]) the chosen action and the fields' values in order

--- Shows an alert on the current screen; it waits for an answer (`app:respond`).
---@param options okit.AlertOptions
function okit.alert(options) end

--- Shows a prompt: an alert with text fields.
---@param options okit.PromptOptions
function okit.prompt(options) end

--------------------------------------------------------------------------------------------------------------

--- (beyond the spec) The runtime's version text, e.g. "okit 0.1.0".
---@type string
okit.version = ""

return okit
