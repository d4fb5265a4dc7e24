import CLua
import Foundation
import OKitEngine

extension LuaApp {
    func date(_ call: LuaCall, _ i: Int32) -> LuaDate? { lua.object(at: i, metatable: OKitTypes.date, as: LuaDate.self) }

    func requireDate(_ call: LuaCall, _ i: Int32) throws -> LuaDate {
        guard let d = date(call, i) else { throw LuaRaise("bad argument #\(i) to '\(call.name)' (okit.date expected, got \(call.typeName(i)))") }
        return d
    }

    func pushDate(_ seconds: Double) { lua.push(object: LuaDate(seconds), metatable: OKitTypes.date) }

    /// `okit.date.components(d)`: year, month, day, hour, minute, second, weekday (1 = Sunday) in the app's time zone.
    func components(_ d: LuaDate) -> [String: Int] {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: engine.locale.timeZone) ?? TimeZone(secondsFromGMT: 0) ?? cal.timeZone
        let c = cal.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: d.date)
        return ["year": c.year ?? 0, "month": c.month ?? 0, "day": c.day ?? 0, "hour": c.hour ?? 0,
                "minute": c.minute ?? 0, "second": c.second ?? 0, "weekday": c.weekday ?? 0]
    }

    func pushComponents(_ d: LuaDate) {
        lua.newTable(hash: 7)
        for (k, v) in components(d).sorted(by: { $0.key < $1.key }) { lua.push(v); lua.rawSet(-2, k) }
    }

    /// Formats with an ICU pattern through the `format` date extension (so Lua and bindings agree).
    func format(_ d: LuaDate, _ pattern: String) throws -> String {
        let v = Value.date(d.date)
        guard let fn = engine.extensions.resolve(for: v, name: "format") else { return ISODate.format(d.date) }
        return try fn(v, [.string(pattern)], engine).displayString ?? ""
    }

    func defineDateType() {
        lua.defineMetatable(OKitTypes.date, [
            "__index": { [unowned self] call in
                let key = try call.string(2)
                switch key {
                case "time", "seconds":
                    lua.push(try requireDate(call, 1).seconds)
                case "format":
                    lua.push(function: "format") { [unowned self] call in
                        lua.push(try format(requireDate(call, 1), call.string(2)))
                        return 1
                    }
                case "iso":
                    lua.push(function: "iso") { [unowned self] call in
                        lua.push(ISODate.format(try requireDate(call, 1).date))
                        return 1
                    }
                case "components":
                    lua.push(function: "components") { [unowned self] call in
                        pushComponents(try requireDate(call, 1))
                        return 1
                    }
                default:
                    let d = try requireDate(call, 1)
                    guard let v = components(d)[key] else { throw LuaRaise("okit.date has no field \"\(key)\"") }
                    lua.push(v)
                }
                return 1
            },
            "__tostring": { [unowned self] call in
                lua.push(ISODate.format(try requireDate(call, 1).date))
                return 1
            },
            "__eq": { [unowned self] call in
                lua.push(date(call, 1)?.seconds == date(call, 2)?.seconds)
                return 1
            },
            "__lt": { [unowned self] call in
                lua.push(try requireDate(call, 1).seconds < requireDate(call, 2).seconds)
                return 1
            },
            "__le": { [unowned self] call in
                lua.push(try requireDate(call, 1).seconds <= requireDate(call, 2).seconds)
                return 1
            },
            "__add": { [unowned self] call in
                if let d = date(call, 1) { pushDate(d.seconds + (try call.number(2))) } else { pushDate(try call.number(1) + requireDate(call, 2).seconds) }
                return 1
            },
            "__sub": { [unowned self] call in
                let d = try requireDate(call, 1)
                if let other = date(call, 2) { lua.push(d.seconds - other.seconds) } else { pushDate(d.seconds - (try call.number(2))) }
                return 1
            },
        ])
    }

    /// The `okit.date` table: `now()`, `parse(iso)`, `fromTime(seconds)`, `components(d)`.
    func pushDateModule() {
        lua.newTable(hash: 4)
        lua.push(function: "now") { [unowned self] _ in
            engine.graph.record(.clock)
            pushDate(engine.clock.now.timeIntervalSince1970)
            return 1
        }
        lua.rawSet(-2, "now")
        lua.push(function: "parse") { [unowned self] call in
            let s = try call.string(1)
            guard let d = ISODate.parse(s) else { throw LuaRaise("okit.date.parse: \"\(s)\" is not an ISO 8601 date (e.g. 2019-05-01T10:00:00Z)") }
            pushDate(d.timeIntervalSince1970)
            return 1
        }
        lua.rawSet(-2, "parse")
        lua.push(function: "fromTime") { [unowned self] call in
            pushDate(try call.number(1))
            return 1
        }
        lua.rawSet(-2, "fromTime")
        lua.push(function: "components") { [unowned self] call in
            pushComponents(try requireDate(call, 1))
            return 1
        }
        lua.rawSet(-2, "components")
    }
}
