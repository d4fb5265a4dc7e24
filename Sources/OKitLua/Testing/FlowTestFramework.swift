/// The Lua side of flow tests: busted's vocabulary (`describe`, `it`, hooks, `pending`, `finally`, `spy`, `stub`,
/// `mock`, `match`) and assertions with deep diffs and the test file's line (docs/testing.md).
///
/// Run as a chunk (best under its own chunk name, like `=okit.test.framework`: positions skip the framework's
/// frames and those of `=okit.test`) with a wall clock as its argument (seconds; a test's `seconds` are read
/// from it), it returns the framework table `T`:
/// - `T.install()` sets the globals `describe`, `it`, `pending`, `finally`, `before_each`, `after_each`, `setup`,
///   `teardown`, `spy`, `stub`, `mock`, `match` and `assert` (Lua's own when called; `assert.equal`, `.same`,
///   `.near`, `.is_true`, `.spy(s).was.called_with`, … and busted's chained forms `assert.are.same`,
///   `assert.is_not.nil`, `assert.has_no.errors`).
/// - `T.run { filter =, filterOut =, tags =, excludeTags =, sort =, stopOnFailure =, seed =, begin =, report = }` runs
///   the tests registered since `T.reset()` in declaration order (with `seed`, shuffled within each block; `filter`
///   a pattern or a list of them, any of which selects), calls `begin { name, declared }` before each
///   test's `before_each` hooks and
///   `report { name, status = "ok"|"fail"|"pending", message, where = "file:line", seconds }` after its `after_each` hooks, and
///   returns passed, failed, skipped. A failing teardown is reported as one more failure, `<block> (teardown)` (a
///   spec's as busted's error entry, `<block> teardown`); a before_each or after_each error fails its test, saying so.
/// - `T.list { filter =, tags =, excludeTags =, sort =, seed = }`: the tests `T.run` would run, `{ name, where,
///   pending }` (`{ name, where, broken }` for a spec's describe block whose body raised).
/// - `T.reset()`, `T.describe_value(v)` (the pretty printer), `T.same(a, b)` and `T.contains(partial, actual)`
///   (`true`, or `false` and the first difference: `at .rows[2].text: expected "Dune", got "Emma"`).
public enum FlowTestFramework {
    /// A Lua chunk; running it returns the framework table `T`. Its parts share the chunk's locals, in this order.
    public static let source: String = [prelude, values, assertions, moreAssertions, matchers, spies, spyAssertions, registration, bustedOrder, environment,
                                                  running,
                                                  busted, luassert, "    return T\n"]
        .joined(separator: "\n")

    /// The framework's table and the standard functions it uses, as locals.
    static let prelude: String = #"""
    local T = {}
    local FRAMEWORK = debug.getinfo(1, "S").source
    local next, type, tostring, select, error, pcall, xpcall = next, type, tostring, select, error, pcall, xpcall
    local getmetatable, setmetatable, rawget, rawlen = getmetatable, setmetatable, rawget, rawlen
    local concat, insert, sort = table.concat, table.insert, table.sort
    local getinfo = debug.getinfo
    -- a test's seconds are wall time, as busted's: the host's monotonic clock (the chunk's argument), else CPU time
    local clock = ... or (os and os.clock) or function() return 0 end

    """#
}
