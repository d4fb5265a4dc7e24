import CLua
import OKitEngine

/// Where a cell made by `okit.cell.*` was made: the Lua frames of that call, innermost first (`helpers.lua:6`,
/// then `screens.lua:23` where a helper was called), and its bindings' texts. A cell built by a helper function
/// (`h.field("%Price", "prise")`) is not written in its screen's table; a problem in it is placed at its binding
/// string or name where a frame's line shows it, else at the line in the screen's file that made the cell.
struct CellTrace {
    var frames: [(chunk: String, line: Int)]
    var texts: [String: String] = [:]
}

extension LuaApp {
    /// The most frames of a cell's making kept.
    static let cellTraceDepth = 8

    /// `chunk:line` of each Lua frame from the caller of the current Swift function outward, as a mark on a cell
    /// table (`a.lua:6;b.lua:23`).
    static func callerTrace(_ L: OpaquePointer) -> String {
        // Lua frames only (a C function's, `require`, has no line), up to twice the depth of frames looked at.
        (1...Int32(2 * cellTraceDepth)).lazy.compactMap { callerPosition(L, level: $0) }.prefix(cellTraceDepth).joined(separator: ";")
    }

    /// Keeps where the cell table at `v` was made (its `__okit_trace`), for the screen `screen` at `site`.
    func keepCellTrace(_ v: Int32, screen: String, site: [DeclarationKey]) {
        guard lua_type(lua.L, v) == LUA_TTABLE else { return }
        defer { lua.pop() }
        guard lua.rawGet(v, "__okit_trace") == LUA_TSTRING, let trace = lua.string(at: -1) else { return }
        let frames: [(chunk: String, line: Int)] = trace.split(separator: ";").compactMap { f in
            guard let colon = f.lastIndex(of: ":"), let line = Int(f[f.index(after: colon)...]) else { return nil }
            return (String(f[..<colon]), line)
        }
        cellTraces[LuaApp.cellTraceKey(screen, site)] = CellTrace(frames: frames)
    }

    /// The cell's binding texts, once read (to find a binding's string on a frame's line).
    func keepCellTexts(_ cell: CellDeclaration, screen: String, site: [DeclarationKey]) {
        cellTraces[LuaApp.cellTraceKey(screen, site)]?.texts = cell.properties
    }

    static func cellTraceKey(_ screen: String, _ site: [DeclarationKey]) -> String {
        ([screen] + site.map { "\($0)" }).joined(separator: "\u{0}")
    }

    /// `chunk:line:col` of the value or name at `path` in a cell of `screen` made by a helper: the binding's string
    /// (at binding column `column`) or the name, on the line of one of the frames that made the cell, else the line
    /// of the frame in `declaring` (the screen's file), else where `okit.cell.*` was called. Nil when no cell on
    /// the path was traced.
    func tracedPosition(screen: String, path: [DeclarationKey], column: Int, declaring: String?,
                        sources: inout [String: LuaDeclarationSource?]) -> String? {
        guard path.count > 1 else { return nil }
        for cut in stride(from: path.count - 1, through: 1, by: -1) {
            guard let trace = cellTraces[LuaApp.cellTraceKey(screen, Array(path[..<cut]))], !trace.frames.isEmpty else { continue }
            guard case .name(let key)? = path.dropFirst(cut).first else { return nil }
            let text = trace.texts[key]
            for (chunk, line) in trace.frames {
                if sources[chunk] == nil { sources[chunk] = declarationSource(chunk) }
                guard let tokens = (sources[chunk] ?? nil)?.tokens else { continue }
                let onLine = tokens.enumerated().filter { $0.element.line == line }
                if let text, let s = onLine.first(where: { $0.element.kind == .string && $0.element.text == text })?.element {
                    let p = s.positions.isEmpty ? (s.line, s.column) : s.positions[min(max(column, 1) - 1, s.positions.count - 1)]
                    return "\(chunk):\(p.0):\(p.1)"
                }
                if let name = onLine.first(where: { $0.element.kind == .name && $0.element.text == key
                        && $0.offset + 1 < tokens.count && tokens[$0.offset + 1].text == "=" })?.element {
                    return "\(chunk):\(name.line):\(name.column)"
                }
            }
            let made = trace.frames.first { $0.chunk == declaring } ?? trace.frames[0]
            let first = (sources[made.chunk] ?? nil)?.tokens.first { $0.line == made.line }
            return "\(made.chunk):\(made.line):\(first?.column ?? 1)"
        }
        return nil
    }
}
