/// Snapshots as JSON, with the key order of screens.md (stable, so snapshots compare byte for byte).
extension Snapshot {
    public var json: String {
        var w = SnapshotJSONWriter()
        w.object { w in
            w.key("app"); w.app(app)
            w.key("screen"); w.screen(screen)
            w.key("alert"); if let alert { w.alert(alert) } else { w.null() }
        }
        return String(decoding: w.out, as: UTF8.self)
    }
}

extension ScreenSnapshot {
    public var json: String {
        var w = SnapshotJSONWriter()
        w.screen(self)
        return String(decoding: w.out, as: UTF8.self)
    }
}

struct SnapshotJSONWriter {
    var out: [UInt8] = []
    private var needsComma = [false]

    mutating func comma() {
        if needsComma[needsComma.count - 1] { out.append(0x2C) }
        needsComma[needsComma.count - 1] = true
    }

    mutating func object(_ body: (inout SnapshotJSONWriter) -> Void) {
        comma(); out.append(0x7B); needsComma.append(false)
        body(&self)
        needsComma.removeLast(); out.append(0x7D)
    }

    mutating func array(_ body: (inout SnapshotJSONWriter) -> Void) {
        comma(); out.append(0x5B); needsComma.append(false)
        body(&self)
        needsComma.removeLast(); out.append(0x5D)
    }

    mutating func key(_ k: String) {
        comma(); string(k, comma: false); out.append(0x3A)
        needsComma[needsComma.count - 1] = false
    }

    mutating func null() { comma(); out.append(contentsOf: "null".utf8) }
    mutating func bool(_ b: Bool) { comma(); out.append(contentsOf: (b ? "true" : "false").utf8) }
    mutating func int(_ i: Int) { comma(); out.append(contentsOf: String(i).utf8) }

    mutating func string(_ s: String?, comma c: Bool = true) {
        guard let s else { null(); return }
        if c { comma() }
        JSONText.appendQuoted(s, to: &out)
    }

    mutating func strings(_ list: [String]) { array { w in for s in list { w.string(s) } } }

    mutating func field(_ k: String, _ s: String?) { key(k); string(s) }
    mutating func field(_ k: String, _ b: Bool) { key(k); bool(b) }

    mutating func app(_ a: AppSnapshot) {
        object { w in
            w.field("tab", a.tab)
            w.key("tabs"); w.strings(a.tabs)
            w.key("tabTitles"); w.strings(a.tabTitles)
            w.field("menuOpen", a.menuOpen)
            w.field("covered", a.covered)
            w.field("cover", a.cover)
            w.field("theme", a.theme)
            w.key("themeValues"); w.object { w in for (k, v) in a.themeValues { w.field(k, v) } }
            w.key("depth"); w.int(a.depth)
            w.field("presented", a.presented)
            if let offline = a.offline { w.field("offline", offline) }
        }
    }

    mutating func screen(_ s: ScreenSnapshot) {
        object { w in
            w.field("id", s.id)
            w.field("kind", s.kind)
            w.field("context", s.context)
            w.field("title", s.title)
            w.field("subtitle", s.subtitle)
            w.field("prompt", s.prompt)
            w.field("editing", s.editing)
            w.key("buttons"); w.array { w in
                for b in s.buttons { w.object { w in w.field("id", b.id); w.field("title", b.title); w.field("enabled", b.enabled) } }
            }
            w.key("search")
            if let search = s.search {
                w.object { w in
                    w.field("visible", search.visible)
                    w.field("text", search.text)
                    w.key("scopes"); w.strings(search.scopes)
                    w.field("scope", search.scope)
                }
            } else { w.null() }
            w.key("index"); w.strings(s.index)
            w.key("sections"); w.array { w in for section in s.sections { w.section(section) } }
            if let footer = s.footer { w.field("footer", footer) }
            w.field("help", s.help)
            w.key("rowCount"); w.int(s.rowCount)
        }
    }

    mutating func section(_ s: SectionSnapshot) {
        object { w in
            w.field("header", s.header)
            if let subheader = s.subheader { w.field("subheader", subheader) }
            w.field("footer", s.footer)
            w.key("rows"); w.array { w in for r in s.rows { w.row(r) } }
        }
    }

    mutating func row(_ r: RowSnapshot) {
        object { w in
            w.field("id", r.id)
            if let kind = r.kind { w.field("kind", kind) }
            w.field("text", r.text)
            w.field("detail", r.detail)
            w.field("image", r.image)
            w.field("ribbon", r.ribbon)
            w.key("accessory")
            if let a = r.accessory {
                w.object { w in w.field("kind", a.kind); w.field("text", a.text); w.field("enabled", a.enabled) }
            } else { w.null() }
            w.key("quick")
            if let q = r.quick { w.object { w in w.field("title", q.title); w.field("enabled", q.enabled) } } else { w.null() }
            w.field("more", r.more)
            w.field("delete", r.delete)
            w.key("checked"); if let c = r.checked { w.bool(c) } else { w.null() }
            w.field("selected", r.selected)
            w.key("control")
            if let c = r.control { w.control(c) } else { w.null() }
            if r.kind != nil { w.field("invalid", r.invalid) }
        }
    }

    mutating func value(_ v: SnapshotValue) {
        switch v {
        case .null: null()
        case .bool(let b): bool(b)
        case .int(let i): int(i)
        case .double(let d): comma(); out.append(contentsOf: (d.isFinite ? Value.displayDouble(d) : "null").utf8)
        case .string(let s): string(s)
        }
    }

    /// A detail cell's control: value and enabled, then the kind's extras (only those the kind has).
    mutating func control(_ c: ControlSnapshot) {
        object { w in
            w.key("value"); w.value(c.value)
            w.field("enabled", c.enabled)
            if let p = c.placeholder { w.field("placeholder", p) }
            if c.secure { w.field("secure", true) }
            if let v = c.min { w.key("min"); w.value(v) }
            if let v = c.max { w.key("max"); w.value(v) }
            if let v = c.step { w.key("step"); w.value(v) }
            if let segments = c.segments {
                w.key("segments"); w.strings(segments)
                w.key("index"); if let i = c.index { w.int(i) } else { w.null() }
            }
            if let options = c.options {
                w.key("options"); w.strings(options)
                w.key("selected"); if let i = c.selected { w.int(i) } else { w.null() }
            }
        }
    }

    mutating func alert(_ a: AlertSnapshot) {
        object { w in
            w.field("kind", a.kind)
            w.field("title", a.title)
            w.field("message", a.message)
            w.key("actions"); w.strings(a.actions)
            w.key("fields"); w.array { w in
                for f in a.fields {
                    w.object { w in
                        w.field("placeholder", f.placeholder)
                        w.field("value", f.secure ? nil : f.value)
                        if f.secure { w.field("secure", true) }
                    }
                }
            }
        }
    }
}
