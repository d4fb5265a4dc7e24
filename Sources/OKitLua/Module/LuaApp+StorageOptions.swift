import CLua
import OKitEngine

extension LuaApp {
    /// A model's option its storage kind does not read is refused, not dropped (`encrypted = true` on a file model
    /// would otherwise leave the data unsealed without a word): the message names the kinds that read it.
    /// `encrypted = false` asks for nothing and passes.
    func refuseOptionsNotRead(_ given: [String: Value], by kind: StorageKind, type: String) throws {
        let read = options.storageKinds.options(of: kind)
        for key in given.keys.sorted() where !read.contains(key) {
            if key == "encrypted", given[key]?.truthy != true { continue }
            let readers = options.storageKinds.kinds.filter { options.storageKinds.options(of: $0).contains(key) }
            let hint = key == "encrypted" && kind == .file
                ? "use storage = \"encrypted\" for sealed JSON files"
                : "it is read by storage " + readers.map { "\"\($0)\"" }.joined(separator: ", ")
            throw LuaRaise("okit.model(\"\(type)\"): storage \"\(kind)\" does not take \(key) (\(hint))")
        }
    }
}

extension LuaApp {
    /// `okit.model`'s own options of the wrong type (`storage = 5`, `name = 7`, `seed = "text"`) are refused at the
    /// value, as an unknown storage kind is: left out, the model would be kept somewhere else, under another name,
    /// or created empty, without a word.
    func refuseWrongTypedModelOptions(_ index: Int32, type: String, site: String?) throws {
        let expected: [(key: String, luaType: Int32, what: String, example: String)] = [
            ("name", LUA_TSTRING, "a name in quotes", "name = \"directory\""),
            ("storage", LUA_TSTRING, "a storage kind in quotes (\(storageKindNames))", "storage = \"sqlite\""),
            ("seed", LUA_TFUNCTION, "a function(root)", "seed = function(root) … end"),
        ]
        for option in expected {
            let given = lua.rawGet(index, option.key)
            let typeName = lua.typeName(at: -1)
            lua.pop()
            guard given != LUA_TNIL, given != option.luaType else { continue }
            throw modelOptionError("okit.model(\"\(type)\"): \(option.key) must be \(option.what), not a \(typeName); "
                                   + "write it like \(option.example)", key: option.key, type: type, site: site)
        }
    }

    /// A refusal of `okit.model`'s option `key`, at its value's line and column when the source shows it.
    func modelOptionError(_ text: String, key: String, type: String, site: String?) -> LuaRaise {
        valueError(text, at: [[.name(key)]], function: "model", id: type, site: site)
    }

    /// A refusal of a value of the `okit.<function>([id,] { … })` call at `site` (`chunk:line`), at the first of
    /// `paths` the source shows, else at the call's id (no paths: the id); at the call's line when neither shows.
    func valueError(_ text: String, at paths: [[DeclarationKey]], function: String, id: String?, site: String?) -> LuaRaise {
        guard let at = position(ofValue: paths, function: function, id: id, site: site) else { return LuaRaise(text) }
        return LuaRaise("\(at): \(text)", withPosition: false)
    }
}
