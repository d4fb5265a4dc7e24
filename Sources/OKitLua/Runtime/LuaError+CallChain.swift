import OKitEngine

extension LuaError: TracedError {
    /// The Lua frames of the traceback that name a line of a chunk (`app.lua:6 in nomeDi ← app.lua:7`), innermost
    /// first, at most four; nil when there is at most the one the message already names.
    public var callChain: String? {
        guard let traceback else { return nil }
        var frames: [String] = []
        for raw in traceback.split(separator: "\n").dropFirst() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.hasPrefix("["), let colon = line.firstIndex(of: ":") else { continue }
            let rest = line[line.index(after: colon)...]
            guard let second = rest.firstIndex(of: ":"), let n = Int(rest[..<second]) else { continue }
            var frame = "\(line[..<colon]):\(n)"
            let what = rest[rest.index(after: second)...].trimmingCharacters(in: .whitespaces)
            if let open = what.firstIndex(of: "'"), let close = what[what.index(after: open)...].firstIndex(of: "'") {
                frame += " in " + what[what.index(after: open)..<close]
            }
            if frames.last != frame { frames.append(frame) }
            if frames.count == 4 { break }
        }
        guard frames.count > 1 else { return nil }
        return "via " + frames.joined(separator: " ← ")
    }
}
