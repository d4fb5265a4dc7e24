/// The engine as its storages see it (`ModelHost`): its schema, ids, defaults, the bytes of data and image fields,
/// and its writes (declared in the files of their subjects).
extension Engine: ModelHost {
    public func defaultValue(for field: FieldSpec, slot: Int, owner: Entity) throws -> Value {
        var creating: Set<ObjectIdentifier> = []
        return try defaultValue(for: field, slot: slot, owner: owner, creating: &creating)
    }

    public func hostUnregistered(_ model: Model) { model.engine = self }

    public func indexIds() { idIndex.flush() }

    public func storeWrittenBytes(of model: Model, _ write: (_ meta: Entity, _ bytes: [UInt8]) throws -> Bool) throws {
        for p in pendingPayloads(of: model) {
            if try write(p.entity, p.bytes) { p.dirty = false }
        }
    }

    public func forgetLoadedBytes(of meta: Entity) { binaryPayloads[ObjectIdentifier(meta)] = nil }

    public func forgetLoadedBytes(of model: Model) {
        binaryPayloads = binaryPayloads.filter { $0.value.entity.model !== model }
    }
}
