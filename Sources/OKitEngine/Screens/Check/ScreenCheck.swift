/// `okit-run check`: every binding of every declared screen checked against the schema on the context it runs on,
/// screen ids that name no screen, flags given a bare word, cells bound to fields of the wrong type.
public struct ScreenIssue: Equatable, Sendable {
    public let screen: String
    public let property: String
    /// 1-based column in the binding (1 for problems of the whole value).
    public let column: Int
    public let message: String
    /// Where the value is written in the declaration, most precise first (the app host turns the first it finds
    /// into file:line:col).
    public var sites: [[DeclarationKey]]

    public init(screen: String, property: String, column: Int, message: String, sites: [[DeclarationKey]] = []) {
        self.screen = screen
        self.property = property
        self.column = column
        self.message = message
        self.sites = sites
    }
}

/// A key on the way from a declaration's table to one of its values: `cell` then `path` for
/// `okit.list("books", { cell = { path = "name" } })`; positions are 1-based as in Lua (`sections`, 2, 1, `textPath`).
public enum DeclarationKey: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case name(String)
    case index(Int)
    /// The n-th part of a multipart binding string (`moreActionsTap = "a,b"`), or the n-th entry of a table.
    case part(Int)

    public init(stringLiteral value: String) { self = .name(value) }
    public init(integerLiteral value: Int) { self = .index(value) }
}

/// The result of a check: the problems, and how much was checked (for the summary line).
public struct ScreenCheckReport: Sendable {
    public let issues: [ScreenIssue]
    /// What the check at load warns about (a flag constant that is always on); empty for `okit-run check`, whose
    /// problems they are.
    public var warnings: [ScreenIssue] = []
    public let screens: Int
    public let bindings: Int
    /// The screens nothing in the declarations opens, checked on the entity type each fits best.
    public var unopened: [UnopenedScreen] = []
    /// The plural keys a count shows (`suffixPlural(#book)`: `books`; `subTitleObject = "%book"`: `books`), for
    /// the note on a plain one in a language with more forms (LuaApp+CheckPlurals.swift).
    public var countedKeys: [String] = []
}

/// The screens the app starts with (`okit.app { home = …, menu = … }`): opened on the default model's root.
public struct AppEntryPoints: Sendable {
    public var home: [String]
    public var menu: String?

    public init(home: [String] = [], menu: String? = nil) {
        self.home = home
        self.menu = menu
    }
}

/// One check of all screens: the issues, and what opens each screen with which context type.
public final class ScreenCheckRun {
    public let engine: Engine
    let checker: BindingChecker
    /// The default model's root type (the context of home screens).
    public let root: EntityType?
    /// The context settings screens run on: the settings model (okit.app's `contextPath`, else a model of a
    /// `Settings` type), else the root.
    public let settingsContext: EntityType?
    public internal(set) var issues: [ScreenIssue] = []
    /// What the check at load warns about and the app runs with (`thorough` makes them issues): a flag constant
    /// that is always on.
    public internal(set) var warnings: [ScreenIssue] = []
    let screenIds: [String]
    /// The ids of the lists among them (a screen id's suggestion prefers a list when as near).
    var listIds: Set<String> = []
    /// The context of a list, selection or menu nothing is known to open: the root when the app declares no home
    /// (any screen may be opened first, on the root), else unknown (it is opened from code, on any entity).
    var unopenedContext: EntityType?
    /// `okit-run check` itself, not the check an app runs when it loads: also the findings that do not stop an app —
    /// texts a language's strings lack (ScreenCheck+Strings.swift), a flag constant OKit reads as on, a `%key` in
    /// plain help text (ScreenCheck+Literals.swift).
    var thorough = false
    /// What opened each screen in the previous pass (the contexts it is checked on in this one).
    var received: [String: Set<Opener>] = [:]
    /// What opens each screen, found in this pass.
    var opening: [String: Set<Opener>] = [:]
    /// The bindings checked in this pass (screen and site), for the summary.
    var checkedSites: Set<String> = []
    /// Set when a screen asks for the context of a screen nothing opens and finds it unknown.
    var usedUnknownContext = false
    /// The bindings checked on a known context so far (how much of a screen a trial context reaches).
    var typedChecks = 0
    /// The type a screen nothing opens is being tried on (`ScreenCheck+Unopened`).
    var trialContext: EntityType?
    /// The screens nothing opens, found in this pass, with the type each fits best.
    public internal(set) var unopened: [UnopenedScreen] = []
    /// The `%key`s that are okit's words found overriding them in this pass, by key and language (reported once).
    var collidedWords: Set<String> = []
    /// The cell whose bindings are being checked, if any.
    var checkedCell: CheckedCell?
    /// The plural keys counts show, found in this pass (`ScreenCheck+Strings`).
    var countedKeys: Set<String> = []

    init(engine: Engine, screenIds: [String], settingsContextPath: String) {
        self.engine = engine
        checker = BindingChecker(engine: engine)
        root = engine.defaultModel?.rootType
        self.screenIds = screenIds
        if !settingsContextPath.isEmpty {
            settingsContext = checker.entityType(after: settingsContextPath, from: engine.defaultModel?.rootType)
        } else {
            settingsContext = engine.models.first { $0.rootType.name == "Settings" }?.rootType ?? engine.defaultModel?.rootType
        }
    }

    func beginPass() {
        issues = []
        warnings = []
        opening = [:]
        checkedSites = []
        unopened = []
        collidedWords = []
        countedKeys = []
    }

    /// Checks one binding on a context type. A flag (`flag`) given a bare word (`true`, `yes`, `1`, …) that
    /// names nothing on the context is reported as such.
    public func run(_ screen: String, _ property: String, _ text: String, _ context: EntityType?,
                    at given: [DeclarationKey]? = nil, or other: [[DeclarationKey]] = [], flag: Bool = false) {
        guard !text.isEmpty else { return }
        let site = given ?? [.name(property)]
        if !ScreenCheckRun.isConstantFlag(text) { record(screen, site) }
        if context != nil { typedChecks += 1 }
        let sites = [site] + other
        checkStrings(screen, property, text, sites: sites)
        if flag { checkFlagConstant(screen, property, text, sites: sites) }
        checkValueConstant(screen, property, text, sites: sites)
        if flag, let word = FlagProperties.bareWord(text, on: context) {
            issues.append(ScreenIssue(screen: screen, property: property, column: 1,
                                      message: "\"\(word)\" is a path here, not a flag; write \"#\(word)\"", sites: sites))
            return
        }
        let remedy = ScreenCheckRun.textRemedy(property, text)
        for i in checker.check(text, context: context) {
            let message = i.message + (i.message.contains(" has no field ") ? remedy : "")
            issues.append(ScreenIssue(screen: screen, property: property, column: i.column, message: message, sites: sites))
        }
    }

    /// Checks a binding that runs on one of several contexts (OKit and okit disagree, or the row and the cell):
    /// a problem only when it fails on every one (the first one's problems are reported).
    func runEither(_ screen: String, _ property: String, _ text: String, _ contexts: [EntityType?],
                   at site: [DeclarationKey], or other: [[DeclarationKey]] = [], flag: Bool = false) {
        guard !text.isEmpty, let first = contexts.first else { return }
        let clean = contexts.contains { c in
            checker.check(text, context: c).isEmpty && (!flag || FlagProperties.bareWord(text, on: c) == nil)
        }
        if clean {
            if !ScreenCheckRun.isConstantFlag(text) { record(screen, site) }
            checkStrings(screen, property, text, sites: [site] + other)
            if flag { checkFlagConstant(screen, property, text, sites: [site] + other) }
            checkValueConstant(screen, property, text, sites: [site] + other)
            return
        }
        run(screen, property, text, first, at: site, or: other, flag: flag)
    }

    /// Checks an action property when it is a binding (a Lua function is not checked).
    public func run(_ screen: String, _ property: String, _ action: Action?, _ context: EntityType?,
                    at site: [DeclarationKey]? = nil, or other: [[DeclarationKey]] = []) {
        if case .binding(let t)? = action { run(screen, property, t, context, at: site, or: other) }
    }

    /// `#true` / `#false`: a declaration's default (or a constant flag), not counted in the summary's bindings.
    static func isConstantFlag(_ text: String) -> Bool { text == "#true" || text == "#false" }

    func record(_ screen: String, _ site: [DeclarationKey]) {
        checkedSites.insert(screen + "\u{0}" + site.map { "\($0)" }.joined(separator: "\u{0}"))
    }

    /// Records a problem that is not inside a binding (an unknown type, a field name, a screen id).
    public func issue(_ screen: String, _ property: String, _ message: String, at site: [DeclarationKey] = [],
                      or other: [[DeclarationKey]] = []) {
        issues.append(ScreenIssue(screen: screen, property: property, column: 1, message: message, sites: [site] + other))
    }

    /// The entity type a binding reaches from a context type, if it reaches one.
    public func entityType(after binding: String, from context: EntityType?) -> EntityType? {
        checker.entityType(after: binding, from: context)
    }

    /// A context after a `contextPath` (none: the context itself).
    func context(_ base: EntityType?, after contextPath: String) -> EntityType? {
        contextPath.isEmpty ? base : entityType(after: contextPath, from: base)
    }

    /// A declared type by name, recording an issue when it does not exist.
    public func type(_ name: String?, screen: String) -> EntityType? {
        guard let name else { return nil }
        guard let t = engine.schema.type(named: name) else {
            let known = engine.schema.types.keys
            issue(screen, "type", "unknown entity type \"\(name)\"" + NameSuggestion.hint(for: name, in: known), at: ["type"])
            return nil
        }
        return t
    }
}

extension AppShell {
    /// The problems of every screen's bindings (see `checkReport`).
    public func check(entryPoints: AppEntryPoints = AppEntryPoints()) -> [ScreenIssue] {
        checkReport(entryPoints: entryPoints).issues
    }

    /// Checks every screen on the contexts it is opened with (`thorough`: also what does not stop an app, as
    /// `okit-run check` reports it: the texts each language's strings lack, …). What opens a screen (a list's rows
    /// and bar buttons, a detail's cells and buttons, a menu, the app's home) is found while checking the opener, so
    /// the passes repeat until the openers stop changing (at most 8); only the last pass's problems count.
    public func checkReport(entryPoints: AppEntryPoints = AppEntryPoints(), thorough: Bool = false) -> ScreenCheckReport {
        let run = ScreenCheckRun(engine: engine, screenIds: declarationOrder, settingsContextPath: settingsContextPath)
        run.thorough = thorough
        let all = declarationOrder.compactMap { declaration($0) }
        run.listIds = Set(all.filter { $0.kind == "list" }.map(\.id))
        run.unopenedContext = entryPoints.home.isEmpty ? run.root : nil
        for _ in 0..<8 {
            run.beginPass()
            for id in entryPoints.home + (entryPoints.menu.map { [$0] } ?? []) {
                run.open(id, with: Opener(context: run.root, selectionContext: run.root, defaultSelectionPath: "."))
            }
            for d in all { run.checkScreen(d) }
            checkApp(run, entryPoints)
            if run.opening == run.received { break }
            run.received = run.opening
        }
        var seen = Set<String>()
        let once = { (i: ScreenIssue) in seen.insert("\(i.screen)\u{0}\(i.property)\u{0}\(i.column)\u{0}\(i.message)\u{0}\(i.sites)").inserted }
        var report = ScreenCheckReport(issues: run.issues.filter(once), screens: all.count, bindings: run.checkedSites.count,
                                       unopened: run.unopened, countedKeys: run.countedKeys.sorted())
        report.warnings = run.warnings.filter(once)
        return report
    }

    /// okit.app: the home and menu ids, and the settings bindings on the default model's root after `contextPath`.
    func checkApp(_ run: ScreenCheckRun, _ entryPoints: AppEntryPoints) {
        let app = AppShell.appCheckName
        for (i, id) in entryPoints.home.enumerated() {
            run.target(app, "home", id, at: entryPoints.home.count == 1 ? ["home"] : ["home", .index(i + 1)], or: [["home"]])
        }
        run.target(app, "menu", entryPoints.menu, at: ["menu"])
        let settings = run.context(run.root, after: settingsContextPath)
        run.run(app, "contextPath", settingsContextPath, run.root, at: ["contextPath"])
        for key in AppShell.settingsKeys {
            if let b = settingsBindings[key] {
                run.run(app, key, b, settings, at: [.name(key)], flag: FlagProperties.app.contains(key))
            }
        }
    }

    /// The name the check gives `okit.app`'s properties ("screen okit.app, property themeName: …").
    public static let appCheckName = "okit.app"

    /// The settings bindings `okit.app` takes.
    public static let settingsKeys = ["themeName", "encryption", "protection", "protectionTimeout", "protectionCover",
                                      "protectionText", "protectionImage"]
}
