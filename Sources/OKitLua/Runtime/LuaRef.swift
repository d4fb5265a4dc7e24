import CLua

/// Whether a state is still open, shared with the references into it (so they need no weak reference), and the
/// registry slots released by references since the state last looked.
///
/// Its fields are read on every call into Lua, so they are not checked for exclusive access at run time
/// (`@exclusivity(unchecked)`): the handle belongs to its state's one isolation domain, and no access to them
/// is held open across a call (each is a plain read or write).
final class LuaStateHandle {
    let L: OpaquePointer
    @exclusivity(unchecked) var closed = false
    /// Registry slots of dropped references, released at the next safe point (`LuaState.drainUnrefs`): a
    /// reference may die during a garbage collection (a finalizer releasing a Swift closure), where touching the
    /// registry would be unwise.
    @exclusivity(unchecked) var pendingUnrefs: [Int32] = []
    /// The state, set by its initializer once it is whole; the state owns the handle and outlives every use of
    /// it while open (references check `closed` first).
    unowned(unsafe) var state: LuaState?

    init(L: OpaquePointer) {
        self.L = L
    }
}

/// A value kept in the registry of a state (`luaL_ref`). The state owns the slot: dropping the reference frees
/// it, and a reference whose state is closed does nothing.
public final class LuaRef {
    let handle: LuaStateHandle
    /// The registry slot (`LUA_REFNIL` for nil).
    public let id: Int32

    init(handle: LuaStateHandle, id: Int32) {
        self.handle = handle
        self.id = id
    }

    /// Whether the state is still open.
    public var isValid: Bool { !handle.closed }

    /// Pushes the value onto the running thread's stack (nothing when the state is closed).
    public func push() {
        guard !handle.closed, let state = handle.state else { return }
        let L = state.L
        okit_ensure_stack(L, 1)
        lua_rawgeti(L, okit_LUA_REGISTRYINDEX, lua_Integer(id))
    }

    deinit {
        if !handle.closed, id >= 0 { handle.pendingUnrefs.append(id) }
    }
}

extension LuaState {
    /// Keeps the value on top of the stack in the registry (pops it).
    public func ref() -> LuaRef {
        drainUnrefs()
        let id = hostPush { luaL_ref(L, okit_LUA_REGISTRYINDEX) }
        return LuaRef(handle: handle, id: id)
    }

    /// Keeps the value at `index` in the registry (the stack is unchanged).
    public func ref(at index: Int32) -> LuaRef {
        hostPush {
            okit_ensure_stack(L, 1)
            lua_pushvalue(L, index)
        }
        return ref()
    }

    /// Frees the registry slots of dropped references (on every outermost call: the check is inlined).
    @inline(__always)
    func drainUnrefs() {
        if !handle.pendingUnrefs.isEmpty { releasePendingUnrefs() }
    }

    func releasePendingUnrefs() {
        guard !handle.closed else { return }
        let ids = handle.pendingUnrefs
        handle.pendingUnrefs = []
        hostPush {
            okit_ensure_stack(L, 2)
            for id in ids { luaL_unref(L, okit_LUA_REGISTRYINDEX, id) }
        }
    }
}
