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

    /// `okit.date.components(d)`: year, month, day, hour, minute, second, weekday (1 = Sunday) in the app's time zone,
    /// in the proleptic Gregorian calendar as the app's dates are shown and stored (`ISODate.wallClock`; Foundation's
    /// calendar counts Julian days before 15 October 1582).
    func components(_ d: LuaDate) -> [String: Int] {
        let zone = TimeZone(identifier: engine.locale.timeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current
        let c = ISODate.wallClock(d.date, in: zone)
        return ["year": c.year, "month": c.month, "day": c.day, "hour": c.hour, "minute": c.minute,
                "second": c.second, "weekday": Self.weekday(year: c.year, month: c.month, day: c.day)]
    }

    /// The day of the week (1 = Sunday … 7 = Saturday) of a proleptic Gregorian date (Sakamoto's method).
    static func weekday(year: Int, month: Int, day: Int) -> Int {
        let t = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        let y = month < 3 ? year - 1 : year
        let floorDiv = { (a: Int, b: Int) -> Int in a >= 0 ? a / b : -((-a + b - 1) / b) }
        let w = (y + floorDiv(y, 4) - floorDiv(y, 100) + floorDiv(y, 400) + t[month - 1] + day) % 7
        return (w + 7) % 7 + 1
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
