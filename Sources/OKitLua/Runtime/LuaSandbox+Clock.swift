import Foundation

/// `os.time` and `os.date` on the app clock and in the app's time zone (lua-api.md "Sandbox and limits"), never
/// the machine's `TZ`: `os.date("%H:%M")` is the same on every machine. The local-time forms are the UTC forms
/// of the time shifted by the zone's offset then (`%z`, `%Z` and `*t`'s `isdst` are the app zone's); the `!`
/// forms are Lua's own. `os.time{…}` reads its table as a wall clock in the app's time zone (`isdst` is not
/// read: the zone knows it) and, as Lua's does, writes the table's fields back normalized.
extension LuaSandbox {
    /// Registers `__okit_zone(t)`: the app zone's offset from UTC at `t` (seconds since 1970), whether daylight
    /// saving time is in effect then, and its abbreviation as `%Z` writes it.
    func registerZone(on state: LuaState) {
        let zone = self.zone
        state.register("__okit_zone") { call in
            let z = zone()
            let date = Date(timeIntervalSince1970: (try? call.number(1)) ?? 0)
            call.state.push(Int64(z.secondsFromGMT(for: date)))
            call.state.push(z.isDaylightSavingTime(for: date))
            call.state.push(LuaSandbox.abbreviation(z, at: date))
            return 3
        }
    }

    /// A zone's abbreviation as the tz database writes it where Foundation writes an offset: `+03` (`GMT+3`),
    /// `+0530` (`GMT+5:30`), `UTC`; named ones (`EST`, `CET`, `GMT` in London) as Foundation gives them.
    static func abbreviation(_ zone: TimeZone, at date: Date) -> String {
        let a = zone.abbreviation(for: date) ?? "UTC"
        if a == "GMT" || a == "UTC" { return ["UTC", "Etc/UTC", "Universal", "Zulu", "Etc/Universal", "Etc/Zulu"].contains(zone.identifier) || zone.secondsFromGMT(for: date) != 0 ? "UTC" : "GMT" }
        guard a.hasPrefix("GMT+") || a.hasPrefix("GMT-") else { return a.replacingOccurrences(of: "%", with: "%%") }
        let offset = zone.secondsFromGMT(for: date), minutes = abs(offset) / 60
        let hours = (minutes / 60 < 10 ? "0" : "") + String(minutes / 60)
        let rest = minutes % 60 == 0 ? "" : (minutes % 60 < 10 ? "0" : "") + String(minutes % 60)
        return (offset < 0 ? "-" : "+") + hours + rest
    }

    /// The Lua side (part of the common prelude: `now` is the app clock there).
    static let clockPrelude = """

    local zone = __okit_zone
    __okit_zone = nil
    local time, date = os.time, os.date
    local tointeger, tonumber, type, error, pairs, sub, gsub, sfmt =
      math.tointeger, tonumber, type, error, pairs, string.sub, string.gsub, string.format
    local function days(y, m, d)
      if m <= 2 then y = y - 1 end
      local era = y // 400
      local yoe = y - era * 400
      local doy = (153 * ((m + 9) % 12) + 2) // 5 + d - 1
      return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468
    end
    local function field(t, key, default)
      local v = t[key]
      if v == nil then
        if default == nil then error("field '" .. key .. "' missing in date table", 3) end
        return default
      end
      local n = tointeger(v) or (type(v) == "string" and tointeger(tonumber(v)))
      if not n then error("field '" .. key .. "' is not an integer", 3) end
      if n < -(1 << 31) + 1900 or n > (1 << 31) - 1 then error("field '" .. key .. "' is out-of-bound", 3) end
      return n
    end
    os.date = function(fmt, t)
      t = t or floor(now())
      fmt = fmt or "%c"
      if type(fmt) ~= "string" or sub(fmt, 1, 1) == "!" or not tointeger(t) then return date(fmt, t) end
      t = tointeger(t)
      local off, dst, abbr = zone(t)
      if sub(fmt, 1, 2) == "*t" then
        local r = date("!*t", t + off)
        r.isdst = dst
        return r
      end
      local a = off < 0 and -off or off
      local z = sfmt("%s%02d%02d", off < 0 and "-" or "+", a // 3600, a % 3600 // 60)
      local shifted = gsub(fmt, "%%(.)", function(c)
        if c == "z" then return z elseif c == "Z" then return abbr end
      end)
      return date("!" .. shifted, t + off)
    end
    os.time = function(t)
      if t == nil then return floor(now()) end
      if type(t) ~= "table" then return time(t) end
      local year, month, day = field(t, "year"), field(t, "month"), field(t, "day")
      local hour, min, sec = field(t, "hour", 12), field(t, "min", 0), field(t, "sec", 0)
      year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
      local wall = (days(year, month, 1) + day - 1) * 86400 + hour * 3600 + min * 60 + sec
      local result = wall - zone(wall - zone(wall))
      for k, v in pairs(os.date("*t", result)) do t[k] = v end
      return result
    end
    """
}
