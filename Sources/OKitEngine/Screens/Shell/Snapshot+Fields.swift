/// The one description of a snapshot's fields (screens.md "Snapshot"): each part names its keys here, in the
/// order of the JSON, and JSON, Lua and the neutral tree are written from it (SnapshotEncoding.swift). A field
/// left out here (`if let footer`) is absent everywhere; a nil one is `null` in JSON and absent in Lua. The
/// descriptions are inlinable, so an encoder in another module (OKitLua's) is specialized as the JSON one is.
extension Snapshot: SnapshotEncodable {
    @inlinable public static var keyCount: Int { 3 }
    @inlinable public func encode<E: SnapshotEncoder>(to e: inout E) {
        e.object("app", app)
        e.object("screen", screen)
        e.object("alert", alert)
    }
}

extension AppSnapshot: SnapshotEncodable {
    @inlinable public static var keyCount: Int { 10 }
    @inlinable public func encode<E: SnapshotEncoder>(to e: inout E) {
        e.field("tab", tab)
        e.field("tabs", tabs)
        e.field("tabTitles", tabTitles)
        e.field("menuOpen", menuOpen)
        e.field("covered", covered)
        e.field("cover", cover)
        e.field("theme", theme)
        e.field("themeValues", pairs: themeValues)
        e.field("depth", depth)
        e.field("presented", presented)
        if let offline { e.field("offline", offline) }
    }
}

extension ScreenSnapshot: SnapshotEncodable {
    @inlinable public static var keyCount: Int { 15 }
    @inlinable public func encode<E: SnapshotEncoder>(to e: inout E) {
        e.field("id", id)
        e.field("kind", kind)
        e.field("context", context)
        e.field("title", title)
        e.field("subtitle", subtitle)
        e.field("prompt", prompt)
        e.field("editing", editing)
        if let reorder { e.field("reorder", reorder) }
        e.objects("buttons", buttons)
        e.object("search", search)
        e.field("index", index)
        e.objects("sections", sections)
        if let footer { e.field("footer", footer) }
        if let section { e.object(kind, section) }
        e.field("help", help)
        e.field("rowCount", rowCount)
    }
}

extension ButtonSnapshot: SnapshotEncodable {
    @inlinable public static var keyCount: Int { 3 }
    @inlinable public func encode<E: SnapshotEncoder>(to e: inout E) {
        e.field("id", id)
        e.field("title", title)
        e.field("enabled", enabled)
    }
}

extension SearchSnapshot: SnapshotEncodable {
    @inlinable public func encode<E: SnapshotEncoder>(to e: inout E) {
        e.field("visible", visible)
        e.field("text", text)
        e.field("scopes", scopes)
        e.field("scope", scope)
    }
}

extension SectionSnapshot: SnapshotEncodable {
    @inlinable public func encode<E: SnapshotEncoder>(to e: inout E) {
        e.field("header", header)
        if let subheader { e.field("subheader", subheader) }
        e.field("footer", footer)
        e.objects("rows", rows)
    }
}

extension RowSnapshot: SnapshotEncodable {
    @inlinable public static var keyCount: Int { 15 }
    @inlinable public func encode<E: SnapshotEncoder>(to e: inout E) {
        e.field("id", id)
        if let kind { e.field("kind", kind) }
        e.field("text", text)
        e.field("detail", detail)
        e.field("image", image)
        e.field("ribbon", ribbon)
        e.object("accessory", accessory)
        e.object("quick", quick)
        e.field("more", more)
        e.field("delete", delete)
        if let move { e.field("move", move) }
        e.field("checked", checked)
        e.field("selected", selected)
        e.object("control", control)
        if kind != nil { e.field("invalid", invalid) }
    }
}

extension AccessorySnapshot: SnapshotEncodable {
    @inlinable public static var keyCount: Int { 3 }
    @inlinable public func encode<E: SnapshotEncoder>(to e: inout E) {
        e.field("kind", kind)
        e.field("text", text)
        e.field("enabled", enabled)
    }
}

extension QuickSnapshot: SnapshotEncodable {
    @inlinable public static var keyCount: Int { 3 }
    @inlinable public func encode<E: SnapshotEncoder>(to e: inout E) {
        e.field("title", title)
        e.field("enabled", enabled)
        if let image { e.field("image", image) }
    }
}

/// A detail cell's control: value and enabled, then the kind's extras (only those the kind has).
extension ControlSnapshot: SnapshotEncodable {
    @inlinable public static var keyCount: Int { 8 }
    @inlinable public func encode<E: SnapshotEncoder>(to e: inout E) {
        e.field("value", value)
        e.field("enabled", enabled)
        if let placeholder { e.field("placeholder", placeholder) }
        if secure { e.field("secure", true) }
        if let min { e.field("min", min) }
        if let max { e.field("max", max) }
        if let step { e.field("step", step) }
        if let segments {
            e.field("segments", segments)
            e.field("index", index)
        }
        if let options {
            e.field("options", options)
            e.field("selected", selected)
        }
    }
}

extension AlertSnapshot: SnapshotEncodable {
    @inlinable public static var keyCount: Int { 5 }
    @inlinable public func encode<E: SnapshotEncoder>(to e: inout E) {
        e.field("kind", kind)
        e.field("title", title)
        e.field("message", message)
        e.field("actions", actions)
        e.objects("fields", fields)
    }
}

/// A prompt's field: a secure one never echoes its value.
extension AlertFieldSnapshot: SnapshotEncodable {
    @inlinable public static var keyCount: Int { 3 }
    @inlinable public func encode<E: SnapshotEncoder>(to e: inout E) {
        e.field("placeholder", placeholder)
        e.field("value", secure ? nil : value)
        if secure { e.field("secure", true) }
    }
}
