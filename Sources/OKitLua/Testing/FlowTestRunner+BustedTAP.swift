import Foundation

extension FlowTestResult {
    /// A test file that did not load: one failing result. A busted spec's is an error named as busted names it,
    /// `suite spec/x_spec.lua`, declared at the line the message names (`spec/x_spec.lua:3: …`).
    static func loadFailure(_ file: String, message: String, isSpec: Bool) -> FlowTestResult {
        var r = FlowTestResult(file: file, name: isSpec ? "suite " + file : file, status: .fail, message: message,
                               location: nil, seconds: 0)
        guard isSpec else { return r }
        r.isSpec = true
        r.isError = true
        r.isBlockFailure = true
        // busted's place of a file that does not load: where the error was raised, the spec's line or a module's
        // (`./badmod.lua @ 1`, a module the spec requires raised)
        let head = message.prefix { $0 != "\n" }
        if let colon = head.firstIndex(of: ":"), colon > head.startIndex {
            let digits = head[head.index(after: colon)...].prefix { $0.isNumber }
            if let line = Int(digits), head[digits.endIndex...].hasPrefix(":") {
                r.declaredAt = "\(head[..<colon]):\(line)"
            }
        }
        return r
    }

    /// busted's `file @ line` of where the test (or block) is declared; `file @ 0` when that is not known.
    var declaredPlace: String { place(declaredAt ?? location) }

    /// busted's `file @ line` of its trace: where a failing assertion is, where `pending()` was called, where an
    /// error was raised (a module's line, `./mod.lua @ 2`), else where the test is declared.
    var tracePlace: String {
        switch status {
        case .fail where !isError, .pending: return place(location ?? declaredAt)
        case .fail: return raisedAt.map { place($0) } ?? declaredPlace
        default: return declaredPlace
        }
    }

    private func place(_ position: String?) -> String {
        guard let position, let colon = position.lastIndex(of: ":"),
              Int(position[position.index(after: colon)...]) != nil else { return "\(file) @ 0" }
        return "\(position[..<colon]) @ \(position[position.index(after: colon)...])"
    }

    /// The message as busted shows a failure's or a pending test's: with the `file:line: ` of where it was raised
    /// in front (busted's errors carry it), `Nil error` when there is none.
    var bustedMessage: String {
        guard let message else { return "Nil error" }
        guard let at = raisedAt ?? location, !Self.hasPosition(message) else { return message }
        return at + ": " + message
    }

    /// A failure's or error's message as busted's terminal and gtest outputs show it: `Random seed: N` first when
    /// its block was shuffled.
    var bustedFailure: String {
        (randomSeed.map { "Random seed: \($0)\n" } ?? "") + bustedMessage
    }

    /// Whether a message starts with a `file:line: ` position.
    static func hasPosition(_ message: String) -> Bool {
        let first = message.prefix { $0 != "\n" }
        guard let range = first.range(of: #"^[^ ]*:\d+: "#, options: .regularExpression) else { return false }
        return !range.isEmpty
    }
}

extension FlowTestRunner {
    /// A busted spec's result as busted 2.1.1's TAP handler prints it: `ok 3 - name`, `ok 4 - # SKIP reason`,
    /// `not ok 5 - name` then `# file @ line` (where it is declared) and `# Failure message: …` (each further line of
    /// the message behind `# `); `verbose` puts `# file @ line: name` before a test's line.
    static func bustedTAPLines(_ r: FlowTestResult, number n: Int, verbose: Bool) -> [String] {
        var lines: [String] = []
        if verbose, !r.isBlockFailure { lines.append("# \(r.declaredPlace): \(r.name)") }
        switch r.status {
        case .ok: lines.append("ok \(n) - \(r.name)")
        case .pending: lines.append("ok \(n) - # SKIP " + (r.message == nil ? r.name : r.bustedMessage))
        case .fail:
            lines.append("not ok \(n) - \(r.name)")
            // an error busted reports while loading has no place (busted's TAP output stops there, on a nil trace)
            if !r.untraced { lines.append("# \(r.declaredPlace)") }
            if let seed = r.randomSeed { lines.append("# Random seed: \(seed)") }
            lines.append("# Failure message: " + r.bustedMessage.replacingOccurrences(of: "\n", with: "\n# "))
        }
        return lines
    }
}

extension FlowTestResult {
    /// A spec's error outside its tests (a describe body, a file that does not load): busted's junit counts it
    /// in `errors` but not in `tests`.
    var isOutsideTests: Bool { isSpec && isBlockFailure && isError }
}
