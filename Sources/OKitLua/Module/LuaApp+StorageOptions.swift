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
