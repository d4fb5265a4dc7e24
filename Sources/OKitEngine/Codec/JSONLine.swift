/// One JSON object on one line, written member by member: the records okit appends to its `.jsonl` files
/// (`conflicts.jsonl`, `refused.jsonl`). Texts are quoted and escaped; a member may also be JSON already written
/// (a value as in the model files), which goes in as it is.
package struct JSONLine {
    private var writer = JSONWriter(capacity: 256)
    private var members = 0

    package init() { writer.out.append(0x7B) }

    /// A member whose value is a text (quoted), or `null` when it is nil.
    package mutating func member(_ key: String, text: String?) {
        begin(key)
        if let text { writer.string(text) } else { writer.out.append(contentsOf: "null".utf8) }
    }

    /// A member whose value is already JSON (`json` is written as it is).
    package mutating func member(_ key: String, json: String) {
        begin(key)
        writer.out.append(contentsOf: json.utf8)
    }

    /// The line: the members in the order they were added, in braces, without a line break.
    package var text: String {
        String(decoding: writer.out.buffer, as: UTF8.self) + "}"
    }

    private mutating func begin(_ key: String) {
        if members > 0 { writer.out.append(0x2C) }
        members += 1
        writer.string(key)
        writer.out.append(0x3A)
    }
}
