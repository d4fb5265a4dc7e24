import CLua

/// The bounds of one conversion of a Lua value into Swift (`LuaState.value(at:)`, `LuaApp.value(at:)`): the tables
/// open on the path (a cycle), the nesting, and the number of values copied. A table reached twice is copied twice
/// (`local t = {"x"}; for i = 1, 40 do t = {t, t} end` would be 2^41 values), so what is bounded is the size of the
/// copy, not of the table. The copied values are charged to the instruction budget of the running call, so many
/// conversions in one call (a table of fields each holding a large table) stop at the budget too.
struct LuaValueWalk {
    /// Most values this walk copies (`LuaState.valueCountLimit`).
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Why a conversion stopped.
    enum Refusal: Equatable {
        case cycle, depth, count, budget(Int64)
    }

    /// Tables being copied on the current path.
    var open: Set<UnsafeRawPointer> = []
    /// Values copied so far (every table and every value in one; keys not counted).
    private(set) var count = 0
    /// The first refusal. A cycle or too deep a table is not copied but the walk goes on (`LuaState.value(at:)`
    /// copies the rest); past the count or the budget it copies nothing more (`stopped`).
    private(set) var refusal: Refusal?
    /// The walk passed `maxValueCount` or the budget: nothing more is copied.
    private(set) var stopped = false
    /// Values already charged to the budget.
    private var charged = 0
    /// Whether a table was entered (a copy of one plain value is not charged: extension functions return one per
    /// call, on the hot path of bindings).
    private var sawTable = false

    /// Counts `n` more values; false (and the walk stopped) when that passes `maxValueCount` or the running call's
    /// budget is spent.
    mutating func add(_ n: Int, in state: LuaState) -> Bool {
        guard !stopped else { return false }
        count += n
        if count > limit { stop(.count); return false }
        if count - charged >= 4096 { return charge(state) }
        return true
    }

    /// Whether `n` more values fit under `maxValueCount` (a list's length read before its items: a border far past
    /// the real items is refused without walking it); the walk stops when they do not.
    mutating func fits(_ n: Int) -> Bool {
        guard !stopped else { return false }
        if n > limit - count { stop(.count); return false }
        return true
    }

    /// Enters a table: false (and `refusal` set) when it is nested too deep or already open on the path (a cycle),
    /// or (the first table of the walk) when the running call's budget is spent: many small copies in one call add
    /// up. A table entered must be left with `open.remove`.
    mutating func enter(_ table: UnsafeRawPointer?, depth: Int, in state: LuaState) -> Bool {
        guard !stopped else { return false }
        if !sawTable {
            sawTable = true
            guard charge(state) else { return false }
        }
        guard depth < LuaState.maxValueDepth else { refuse(.depth); return false }
        guard let table, open.insert(table).inserted else { refuse(.cycle); return false }
        return true
    }

    /// Notes a refusal (the first one is kept).
    mutating func refuse(_ r: Refusal) { if refusal == nil { refusal = r } }

    /// Stops the walk: nothing more is copied.
    mutating func stop(_ r: Refusal) {
        if !stopped { refusal = r }
        stopped = true
    }

    /// Charges what is left at the end of a walk that copied a table.
    mutating func finish(_ state: LuaState) {
        if sawTable { charge(state) }
    }

    /// Charges the values not charged yet to the budget; false (and the walk stopped) when, inside a call from
    /// Swift, the budget is spent.
    @discardableResult
    mutating func charge(_ state: LuaState) -> Bool {
        let n = count - charged
        charged = count
        okit_charge(state.L, Int64(n) * LuaState.valueCost)
        let control = okit_control_of(state.L).pointee
        guard state.depth > 0, control.remaining <= 0 else { return true }
        stop(.budget(control.budget))
        return false
    }

    /// The refusal in words: `verb` is what could not be done with the table ("copied", "used as a value"),
    /// `place` where (` (field 'tags')`).
    func message(verb: String, place: String = "") -> String? {
        switch refusal {
        case nil: return nil
        case .cycle: return "a table that contains itself (a cycle) cannot be \(verb)\(place)"
        case .depth: return "a table nested deeper than \(LuaState.maxValueDepth) levels cannot be \(verb)\(place)"
        case .count:
            return "a table with more than \(limit) values cannot be \(verb)\(place); a table reached twice counts twice"
        case .budget(let budget):
            return "instruction budget exceeded (\(budget) instructions) by the tables copied in this call\(place)"
        }
    }

    /// Thrown inside a walk that stopped; the caller turns `refusal` into its error.
    struct Refused: Error {}
}

extension LuaState {
    /// Deepest table nesting a conversion of a Lua value copies.
    public static let maxValueDepth = 100
    /// Most values one conversion of a Lua value copies (a table reached twice counts twice): a copy of a few
    /// dozen MiB at most.
    public static let maxValueCount = 1 << 20
    /// Instructions of the budget one copied value costs (host work the count hook cannot see).
    static let valueCost: Int64 = 16
}
