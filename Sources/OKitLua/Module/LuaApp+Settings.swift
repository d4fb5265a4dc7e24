import Foundation
import OKitEngine

/// `okit.Settings` (storage.md "Settings"): the built-in settings entity, declared when an app makes a model of it
/// without declaring its own `Settings`. First launch applies its defaults: encryption and protection on, a
/// protection timeout of 5 minutes, the default theme.
extension LuaApp {
    /// The type name `okit.Settings` stands for.
    static let settingsType = "Settings"
    static let timeoutType = "SettingsTimeout"

    /// The timeouts a person chooses from: id (minutes) and name (okit's own words: Spanish `Inmediatamente`, …).
    static let settingsTimeouts: [(id: String, name: BuiltInWord)] = [
        ("0", .immediately), ("1", .oneMinute), ("5", .fiveMinutes), ("10", .tenMinutes),
    ]

    /// Declares `Settings` (`themeName`, `darkMode`, `encryption`, `protection`, `protectionTimeout`, `timeouts`)
    /// and its timeout type (`name`, `minutes`).
    func declareBuiltInSettings() throws {
        do {
            try engine.schema.entity(LuaApp.timeoutType, fields: [FieldSpec("name", .string), FieldSpec("minutes", .int)])
            try engine.schema.entity(LuaApp.settingsType, fields: [
                FieldSpec("themeName", .string),
                FieldSpec("encryption", .bool, default: .bool(true)),
                FieldSpec("protection", .bool, default: .bool(true)),
                try FieldSpec("protectionTimeout", "ref \(LuaApp.timeoutType)"),
                try FieldSpec("timeouts", "[\(LuaApp.timeoutType)]"),
            ], computed: [
                ComputedField("darkMode", get: { [unowned self] e in
                    .bool(try engine.read(e, "themeName").displayString == "dark")
                }, set: { [unowned self] e, v in
                    try engine.set(e, "themeName", .string(v.truthy ? "dark" : ""))
                }),
            ])
        } catch {
            throw LuaRaise("okit.model(okit.Settings): \(wordedMessage(error))")
        }
    }

    /// The first launch's settings: the timeouts (names localized) and 5 minutes chosen.
    func seedBuiltInSettings(_ root: Entity) throws {
        let timeouts = try engine.collection(root, "timeouts")
        for t in LuaApp.settingsTimeouts {
            let e = try engine.make(LuaApp.timeoutType, ["id": .string(t.id), "name": .string(engine.word(t.name)),
                                                          "minutes": .int(Int(t.id) ?? 0)])
            try engine.insert(.entity(e), into: timeouts, append: true)
        }
        try engine.set(root, "protectionTimeout", .string("5"))
    }
}
