import Foundation

/// The built-in extension functions of bindings.md ("Built-in extension functions"), registered in every engine.
/// A Lua extension of the same name at the same type replaces a built-in.
public enum BuiltinExtensions {
    public static func register(in registry: ExtensionRegistry) {
        NumberExtensions.register(in: registry)
        LocaleNumberExtensions.register(in: registry)
        StringExtensions.register(in: registry)
        DateExtensions.register(in: registry)
        CollectionExtensions.register(in: registry)
        AnyExtensions.register(in: registry)
    }

    /// The display string of an argument, or "" when missing.
    static func text(_ args: [Value], _ i: Int) -> String {
        i < args.count ? (args[i].displayString ?? "") : ""
    }
}

/// Number extensions: prefixes, suffixes with plurals, rounding, patterns.
enum NumberExtensions {
    static func register(in r: ExtensionRegistry) {
        func n(_ v: Value) -> String { v.displayString ?? "0" }
        func joined(_ a: String, _ b: String) -> String { a.isEmpty ? b : (b.isEmpty ? a : a + " " + b) }
        r.register("number", "prefix") { v, a, _ in .string(joined(BuiltinExtensions.text(a, 0), n(v))) }
        r.register("number", "prefixLocalized") { v, a, e in .string(joined(e.localize(BuiltinExtensions.text(a, 0)), n(v))) }
        let prefixPlural: ExtensionFunction = { v, a, e in
            let p = BuiltinExtensions.text(a, 0)
            return .string(joined(e.countedWord(v.doubleValue ?? 0, singular: p, plural: p + "s"), n(v)))
        }
        r.register("number", "prefixPlural", prefixPlural)
        r.register("number", "prefixPluralLocalized", prefixPlural)
        r.register("number", "suffix") { v, a, _ in .string(joined(n(v), BuiltinExtensions.text(a, 0))) }
        r.register("number", "suffixLocalized") { v, a, e in .string(joined(n(v), e.localize(BuiltinExtensions.text(a, 0)))) }
        let suffixPlural: ExtensionFunction = { v, a, e in
            let s = BuiltinExtensions.text(a, 0)
            return .string(joined(n(v), e.countedWord(v.doubleValue ?? 0, singular: s, plural: s + "s")))
        }
        r.register("number", "suffixPlural", suffixPlural)
        r.register("number", "suffixPluralLocalized", suffixPlural)
        r.register("number", "round2") { v, _, _ in
            guard let d = v.doubleValue else { return .null }
            return .double((d * 100).rounded() / 100)
        }
        r.register("number", "round") { v, a, _ in
            guard let d = v.doubleValue else { return .null }
            let places = a.first?.intValue ?? 0
            if places <= 0 {
                let x = d.rounded()
                return abs(x) < 9.2e18 ? .int(Int(x)) : .double(x)
            }
            let scale = pow10(min(places, 15))
            return .double((d * scale).rounded() / scale)
        }
        r.register("number", "format") { v, a, e in
            let pattern = BuiltinExtensions.text(a, 0)
            guard let d = v.doubleValue else {
                _ = try e.formatters.numberPattern(pattern)   // a refused pattern is an error whatever the value
                return .null
            }
            e.graph.record(.locale)
            return .string(try e.formatters.number(d, pattern: pattern, locale: e.locale))
        }
    }

    static func pow10(_ n: Int) -> Double {
        var x = 1.0
        for _ in 0..<n { x *= 10 }
        return x
    }
}

/// String extensions: initial, case, trim, localized, masks.
enum StringExtensions {
    /// `initial`: the first character (grapheme), as OKit (unchanged: not upper-cased). An ASCII byte followed
    /// by another ASCII byte (or by nothing) is a whole character, except a carriage return (CR LF is one): then
    /// no grapheme breaking (a list grouped by `name/initial` asks once per row).
    static func initial(_ s: String) -> String {
        let fast: String?? = s.utf8.withContiguousStorageIfAvailable { b -> String? in
            guard let first = b.first, first < 0x80, first != 0x0D, b.count == 1 || b[1] < 0x80 else { return nil }
            return String(UnicodeScalar(first))
        }
        if let f = fast ?? nil { return f }
        return s.first.map { String($0) } ?? ""
    }

    /// `initial` in the app's language: in Japanese a kana's 五十音 row (`か` for `き`, `カニ` and `ｶﾒ`), in Korean a
    /// syllable's initial consonant (`ㄱ` for `가방` and `까치`), as iOS's index groups them (screens.md `index`);
    /// else `initial(_:)`. `language` is asked only for such a text.
    static func initial(_ s: String, language: @autoclosure () -> String) -> String {
        let first = initial(s)
        guard let b = first.utf8.first, b >= 0xE3, let u = first.unicodeScalars.first,
              let head = EastAsianText.indexHead(u.value, language: language()) else { return first }
        return head
    }

    /// Whether `initial` of `s` depends on the app's language (it starts with a kana or a Hangul letter).
    static func initialFollowsLanguage(_ s: String) -> Bool {
        guard let b = s.utf8.first, b >= 0xE3, let u = s.unicodeScalars.first else { return false }
        return EastAsianText.row(u.value) != nil || EastAsianText.initialConsonant(u.value) != nil
    }

    static func register(in r: ExtensionRegistry) {
        func s(_ v: Value) -> String { v.displayString ?? "" }
        r.register("string", "initial") { v, _, e in
            let text = s(v)
            if initialFollowsLanguage(text) { e.graph.record(.locale) }
            return .string(initial(text, language: e.locale.language))
        }
        r.register("string", "localized") { v, _, e in .string(e.localize(s(v))) }
        // Cased in the app's language (`pilav` → `PİLAV` in Turkish): LanguageCase.swift.
        r.register("string", "capitalize") { v, _, e in
            e.graph.record(.locale)
            return .string(LanguageCase.capitalize(s(v), language: e.locale.language))
        }
        r.register("string", "upper") { v, _, e in
            e.graph.record(.locale)
            return .string(LanguageCase.upper(s(v), language: e.locale.language))
        }
        r.register("string", "lower") { v, _, e in
            e.graph.record(.locale)
            return .string(LanguageCase.lower(s(v), language: e.locale.language))
        }
        r.register("string", "trim") { v, _, _ in .string(s(v).trimmingCharacters(in: .whitespacesAndNewlines)) }
        r.register("string", "mask") { v, a, _ in .string(MaskFormatter.mask(s(v), format: BuiltinExtensions.text(a, 0))) }
        // Writing through a mask stores what its placeholders take (`(111) 222-3333` → `1112223333`).
        r.registerParser("string", "mask") { text, a, _ in
            .string(try MaskFormatter.value(typed: text, format: BuiltinExtensions.text(a, 0)))
        }
        r.register("string", "unmask") { v, a, _ in .string(MaskFormatter.unmask(s(v), format: BuiltinExtensions.text(a, 0))) }
    }
}

/// Collection extensions: join, sorted (aggregates are part of the binding language).
enum CollectionExtensions {
    static func register(in r: ExtensionRegistry) {
        r.register("collection", "join") { v, a, _ in
            let sep = a.isEmpty ? ", " : (a[0].displayString ?? "")
            return .string((v.elements ?? []).compactMap { $0.displayString }.joined(separator: sep))
        }
        // In a list's order of its sort keys (`SortKey`), text in the app's language; equal keys as they came.
        r.register("collection", "sorted") { v, a, e in
            let items = v.elements ?? []
            let key = a.first?.displayString
            let keys: [Value] = try items.map { item in
                if let key, case .entity(let ent) = item { return try e.read(ent, key) }
                return item
            }
            e.graph.record(.locale)
            return .list(SortKey.order(keys, TextCollation(language: e.locale.language)).map { items[$0] })
        }
    }
}

/// Extensions for any value, nil included.
enum AnyExtensions {
    static func register(in r: ExtensionRegistry) {
        r.register("any", "isEmpty") { v, _, _ in
            switch v {
            case .null: return .bool(true)
            case .string(let s): return .bool(s.isEmpty)
            case .collection(let c): return .bool(c.isEmpty)
            case .list(let l): return .bool(l.isEmpty)
            default: return .bool(false)
            }
        }
        r.register("any", "isNil") { v, _, _ in .bool(v.isNull) }
        r.register("any", "default") { v, a, _ in
            if v.isNull || v.displayString == nil && !(v.elements != nil) { return a.first ?? .null }
            return v
        }
        r.register("any", "eq") { v, a, _ in .bool(ValueOrder.equal(v, a.first ?? .null)) }
        r.register("any", "not") { v, _, _ in .bool(!v.truthy) }
    }
}

