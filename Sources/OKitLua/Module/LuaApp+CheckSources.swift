import Foundation
import OKitEngine

/// Where the values of a declaration call (`okit.list("books", { cell = { path = "name" } })`) are written: the
/// call's table constructor read from the source, entry by entry, nested tables and `okit.cell.text { … }` calls
/// included. Values that are not string literals or tables (a variable, a function, a concatenation) are known
/// by where they start only.
final class LuaDeclarationTable {
    enum Value {
        case string(LuaSourceTokens.Token)
        case table(LuaDeclarationTable)
        case other(line: Int, column: Int)
    }

    var named: [String: Value] = [:]
    /// Where each named entry's key is written (`groupFootr` of `groupFootr = "…"`, the string of `["x"] = …`).
    var keyPositions: [String: (line: Int, column: Int)] = [:]
    var positional: [Value] = []
    let line: Int, column: Int

    init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// A source file's declaration calls, read on demand.
final class LuaDeclarationSource {
    let tokens: [LuaSourceTokens.Token]

    init(_ source: String) { tokens = LuaSourceTokens(source).tokens }

    private func token(_ k: Int) -> LuaSourceTokens.Token? { k >= 0 && k < tokens.count ? tokens[k] : nil }
    private func isSymbol(_ k: Int, _ s: String) -> Bool { token(k).map { $0.kind == .symbol && $0.text == s } ?? false }

    /// The call of `okit.<function>` on `line` (the first argument `id` when given; the closest call before the
    /// line when none is on it): its id argument and its table.
    func call(_ function: String, id: String?, line: Int) -> (id: LuaSourceTokens.Token?, table: LuaDeclarationTable?)? {
        var best: Int?
        for (k, t) in tokens.enumerated() where t.kind == .name && t.text == function && isSymbol(k - 1, ".") && t.line <= line {
            let open = k + 1
            let at = isSymbol(open, "(") ? open + 1 : open
            let first = token(at)
            if let id, first?.kind != .string || first?.text != id, namedConstant(at) != id { continue }
            best = k
            if t.line == line { break }
        }
        guard let k = best else { return nil }
        var p = k + 1
        let parenthesized = isSymbol(p, "(")
        if parenthesized { p += 1 }
        var idToken: LuaSourceTokens.Token?
        if id != nil, token(p)?.kind == .string {
            idToken = token(p)
            p += 1
            if isSymbol(p, ",") { p += 1 }
        } else if let id, namedConstant(p) == id {
            idToken = token(p + 2)
            p += 3
            if isSymbol(p, ",") { p += 1 }
        }
        // okit.partial(id, payloadType, { … }): the table after the second name.
        if idToken != nil, token(p)?.kind == .string, isSymbol(p + 1, ","), isSymbol(p + 2, "{") { p += 2 }
        guard isSymbol(p, "{") else { return (idToken, nil) }
        var q = p
        return (idToken, table(at: &q))
    }

    /// Every call `okit.<function> { … }` or `okit.<function>({ … })` of one of `functions` in the file, in order,
    /// with its table (the calls inside functions too: `okit.alert` runs when the app does).
    func calls(of functions: Set<String>) -> [(function: String, table: LuaDeclarationTable)] {
        var out: [(function: String, table: LuaDeclarationTable)] = []
        for (k, t) in tokens.enumerated() where t.kind == .name && functions.contains(t.text) && isSymbol(k - 1, ".") {
            guard let owner = token(k - 2), owner.kind == .name, owner.text == "okit", !isSymbol(k - 3, ".") else { continue }
            var p = isSymbol(k + 1, "(") ? k + 2 : k + 1
            guard isSymbol(p, "{") else { continue }
            out.append((t.text, table(at: &p)))
        }
        return out
    }

    /// The name of `okit.<Name>` at `k` (`okit.model(okit.Settings, { … })` names its model so), else nil.
    private func namedConstant(_ k: Int) -> String? {
        guard let a = token(k), a.kind == .name, a.text == "okit", isSymbol(k + 1, "."), let b = token(k + 2), b.kind == .name
        else { return nil }
        return b.text
    }

    /// The table constructor at `k` (a `{`); `k` ends after its `}`.
    func table(at k: inout Int) -> LuaDeclarationTable {
        let start = token(k)
        let t = LuaDeclarationTable(line: start?.line ?? 1, column: start?.column ?? 1)
        k += 1
        while let tok = token(k), !isSymbol(k, "}") {
            if tok.kind == .name, isSymbol(k + 1, "=") {
                k += 2
                t.keyPositions[tok.text] = (tok.line, tok.column)
                t.named[tok.text] = value(at: &k)
            } else if isSymbol(k, "[") {
                let key = token(k + 1)
                if let key, key.kind == .string, isSymbol(k + 2, "]"), isSymbol(k + 3, "=") {
                    k += 4
                    t.keyPositions[key.text] = (key.line, key.column)
                    t.named[key.text] = value(at: &k)
                } else {
                    k += 1
                    skipExpression(&k, until: ["]"])
                    if isSymbol(k, "]") { k += 1 }
                    if isSymbol(k, "=") { k += 1 }
                    _ = value(at: &k)
                }
            } else {
                t.positional.append(value(at: &k))
            }
            if isSymbol(k, ",") || isSymbol(k, ";") { k += 1 } else if !isSymbol(k, "}") { skipExpression(&k, until: [",", ";"]) }
        }
        k += 1
        return t
    }

    /// A value: a string alone, a table, `a.b.c { … }` or `a.b.c({ … })`, else anything up to the next entry.
    func value(at k: inout Int) -> LuaDeclarationTable.Value {
        guard let tok = token(k) else { return .other(line: 1, column: 1) }
        let ends: (Int) -> Bool = { self.isSymbol($0, ",") || self.isSymbol($0, ";") || self.isSymbol($0, "}") }
        if tok.kind == .string, ends(k + 1) { k += 1; return .string(tok) }
        if isSymbol(k, "{") {
            let t = table(at: &k)
            if ends(k) { return .table(t) }
            skipExpression(&k, until: [",", ";"])
            return .other(line: tok.line, column: tok.column)
        }
        if tok.kind == .name {
            var p = k + 1
            while (isSymbol(p, ".") || isSymbol(p, ":")), token(p + 1)?.kind == .name { p += 2 }
            if isSymbol(p, "{") || (isSymbol(p, "(") && isSymbol(p + 1, "{")) {
                let paren = isSymbol(p, "(")
                var q = paren ? p + 1 : p
                let t = table(at: &q)
                if paren, isSymbol(q, ")") { q += 1 }
                if ends(q) { k = q; return .table(t) }
            }
        }
        skipExpression(&k, until: [",", ";"])
        return .other(line: tok.line, column: tok.column)
    }

    /// Skips an expression: up to one of `stops` (or `}`) outside brackets and blocks.
    func skipExpression(_ k: inout Int, until stops: Set<String>) {
        var depth = 0
        while let tok = token(k) {
            if depth == 0, tok.kind == .symbol, stops.contains(tok.text) || tok.text == "}" { return }
            if tok.kind == .symbol, ["(", "{", "["].contains(tok.text) { depth += 1 }
            if tok.kind == .symbol, [")", "}", "]"].contains(tok.text) { depth -= 1 }
            if tok.kind == .name, ["function", "if", "do", "repeat"].contains(tok.text) { depth += 1 }
            if tok.kind == .name, ["end", "until"].contains(tok.text) { depth -= 1 }
            if depth < 0 { return }
            k += 1
        }
    }
}

extension LuaDeclarationTable {
    /// The table at `keys` (names and 1-based list positions), when the keys lead to one written in the file.
    func table(at keys: [DeclarationKey]) -> LuaDeclarationTable? {
        var node = self
        for key in keys {
            let next: Value?
            switch key {
            case .name(let n): next = node.named[n]
            case .index(let i), .part(let i): next = i >= 1 && i <= node.positional.count ? node.positional[i - 1] : nil
            }
            guard case .table(let t)? = next else { return nil }
            node = t
        }
        return node
    }

    /// The line and column of a value's binding column `column` (1-based) at `keys`, when the keys lead to one.
    func position(of keys: [DeclarationKey], column: Int) -> (line: Int, column: Int)? {
        var node: Value = .table(self)
        var partOffset = 0
        for key in keys {
            switch (key, node) {
            case (.name(let n), .table(let t)):
                guard let v = t.named[n] else { return nil }
                node = v
            case (.index(let i), .table(let t)), (.part(let i), .table(let t)):
                guard i >= 1, i <= t.positional.count else { return nil }
                node = t.positional[i - 1]
            case (.part(let i), .string(let s)):
                guard let offset = LuaDeclarationTable.offset(ofPart: i, in: s.text) else { return nil }
                partOffset = offset
            default:
                return nil
            }
        }
        switch node {
        case .string(let s):
            let index = partOffset + max(column, 1) - 1
            guard !s.positions.isEmpty else { return (s.line, s.column) }
            return s.positions[min(index, s.positions.count - 1)]
        case .table(let t): return (t.line, t.column)
        case .other(let line, let column): return (line, column)
        }
    }

    /// Where the n-th part of a multipart binding starts in its text.
    static func offset(ofPart n: Int, in text: String) -> Int? {
        guard let parts = try? BindingParser.partTexts(text), n >= 1, n <= parts.count else { return nil }
        let scalars = Array(text.unicodeScalars)
        var from = 0
        for (k, part) in parts.enumerated() {
            let p = Array(part.unicodeScalars)
            var found = from
            while found + p.count <= scalars.count, Array(scalars[found..<(found + p.count)]) != p { found += 1 }
            if found + p.count > scalars.count { return nil }
            if k == n - 1 { return found }
            from = found + p.count
        }
        return nil
    }
}
