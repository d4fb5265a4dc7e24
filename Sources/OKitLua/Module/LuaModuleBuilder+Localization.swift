import CLua
import Foundation
import OKitEngine

extension LuaModuleBuilder {
    /// Strings and locale: `okit.strings`, `okit.locale`, `okit.localize`.
    func localizationFunctions() -> [(String, LuaFunction)] {
        [
            ("strings", { call in try addStrings(call) }),
            ("locale", { call in try locale(call) }),
            ("localize", { call in lua.push(engine.localize(try call.string(1))); return 1 }),
        ]
    }

    /// `okit.strings(language, table)` or `okit.strings(language, "path/in/app.strings")`.
    private func addStrings(_ call: LuaCall) throws -> Int32 {
        let written = try call.string(1)
        // "DE" and "de-DE" are German as "de" is; a name that is no language would keep strings nobody sees.
        let site = LuaApp.callerPosition(call.L)
        guard let lang = AppLocale.languageTag(written) else {
            throw app.valueError("okit.strings: " + AppLocale.languageAdvice(written), at: [], function: "strings", id: written, site: site)
        }
        if let refusal = LuaApp.tagRegionRefusal(written) {
            throw app.valueError("okit.strings: " + refusal, at: [], function: "strings", id: written, site: site)
        }
        if app.stringsSites[lang] == nil { app.stringsSites[lang] = (written, site) }
        if call.type(2) == LUA_TSTRING {
            let path = try call.string(2)
            guard let folder = app.appFolder else {
                throw LuaRaise("okit.strings: \"\(path)\" must be a path inside the app's folder")
            }
            let lookup: AppFolderPolicy.Lookup
            do { lookup = try AppFolderPolicy.read(path, in: folder) } catch let error as AppFolderPolicy.Refusal { throw LuaRaise("okit.strings: \(error.message)") }
            guard case .file(let bytes) = lookup else { throw LuaRaise("okit.strings: \(path): cannot read the file") }
            do {
                try engine.strings.load(language: lang, stringsFileContents: bytes)
            } catch var e as StringsFileError {
                e.path = folder.appendingPathComponent(path).path
                throw e
            }
        } else {
            try call.requireTable(2)
            var table: [String: String] = [:]
            var forms: [String: [PluralCategory: String]] = [:]
            var refused: [(key: String, type: String)] = []
            try app.forEachEntry(2, what: "okit.strings") { k, v in
                app.stringKeySites[lang, default: [:]][k] = (written, site)
                // A plural key's forms by category (`books = { few = "книги", many = "книг", other = "книги" }`).
                // An empty table gives no form: refused as no text, as before.
                if app.isNonEmptyTable(v) {
                    forms[k] = try app.pluralForms(at: v, key: k, written: written, site: site)
                    return
                }
                guard lua_type(lua.L, v) == LUA_TSTRING, let text = lua.string(at: v) else { refused.append((k, lua.typeName(at: v))); return }
                table[k] = text
            }
            if let first = refused.first { throw app.stringsRefusal(first, also: refused.dropFirst().map(\.key), written: written, site: site) }
            engine.strings.add(language: lang, strings: table)
            engine.strings.add(language: lang, forms: forms)
        }
        engine.stringsChanged()
        return 0
    }

    /// `okit.locale { language, region, timeZone }` changes what it is given (`--lang` keeps the language);
    /// `okit.locale()` and both return the locale.
    private func locale(_ call: LuaCall) throws -> Int32 {
        if call.type(1) == LUA_TTABLE {
            let site = LuaApp.callerPosition(call.L)
            func refused(_ key: String, _ text: String) -> LuaRaise {
                app.valueError("okit.locale: " + text, at: [[.name(key)]], function: "locale", id: nil, site: site)
            }
            try app.refuseUnknownOptions(1, known: ["language", "region", "timeZone"], what: "okit.locale", function: "locale",
                                         id: nil, site: site)
            var l = engine.locale
            if lua.rawGet(1, "language") == LUA_TSTRING, let written = lua.string(at: -1) {
                guard let tag = AppLocale.languageTag(written) else { lua.pop(); throw refused("language", "language: " + AppLocale.languageAdvice(written)) }
                if let refusal = LuaApp.tagRegionRefusal(written) { lua.pop(); throw refused("language", "language: " + refusal) }
                if app.options.language == nil { l.language = tag }
            }
            lua.pop()
            if lua.rawGet(1, "region") == LUA_TSTRING, let written = lua.string(at: -1) {
                // A region okit does not know would switch the dates to another order silently (`XX`: US order).
                guard let code = written.isEmpty ? "" : AppLocale.regionCode(written) else {
                    lua.pop(); throw refused("region", "region: " + AppLocale.regionAdvice(written, language: l.language))
                }
                l.region = code
            }
            lua.pop()
            if lua.rawGet(1, "timeZone") == LUA_TSTRING {
                let tz = lua.string(at: -1) ?? "UTC"
                guard TimeZone(identifier: tz) != nil else { lua.pop(); throw refused("timeZone", "unknown time zone \"\(tz)\"") }
                l.timeZone = tz
            }
            lua.pop()
            engine.locale = l
        }
        lua.newTable(hash: 3)
        lua.push(engine.locale.language); lua.rawSet(-2, "language")
        lua.push(engine.locale.region); lua.rawSet(-2, "region")
        lua.push(engine.locale.timeZone); lua.rawSet(-2, "timeZone")
        return 1
    }
}

extension LuaApp {
    /// Why a language tag's region is none (`en-UK`: `"UK" is not a region code: write GB (United Kingdom)`), as
    /// `okit.locale { region = "XX" }` is refused; nil for a tag without a region or with one (`en-GB`, `es-419`).
    public static func tagRegionRefusal(_ written: String) -> String? {
        let parts = written.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard parts.count == 2, let tag = AppLocale.languageTag(written), AppLocale.regionCode(parts[1]) == nil else { return nil }
        let language = String(tag.prefix { $0 != "_" })
        let advice = AppLocale.regionAdvice(parts[1], language: language)
        // `write GB (United Kingdom)` → `write en-GB (United Kingdom)`; the general advice as it is.
        let meant = advice.contains("write an ISO") ? advice : advice.replacingOccurrences(of: ": write ", with: ": write \(language)-")
        return "\"\(written)\": " + meant
    }
}
