import Foundation

/// The properties that are flags: their OKit defaults are `#true` or `#false` (okit-behaviour §5), so a bare word
/// (`rowSortAsc = "true"`) is a path that names nothing — OKit reads it as nil, i.e. false. Every property a screen
/// reads as a flag is named here, by kind; FlagPropertiesTests checks that each declaration's `#true`/`#false`
/// default is, and that `okit-run check` names a constant like `#flase` on every one of them.
enum FlagProperties {
    /// A list's flags (the screen's and the row's), a selection's and a menu's.
    static let list: Set<String> = [
        "rowSortAsc", "groupSort", "groupSortAsc", "search", "index", "add", "addAppend", "delete", "deletePrompt",
        "deleteEnabled", "addNav", "reorder", "reorderEnabled", "editEnabled", "navEnabled", "edit", "editAlways",
        "editInherit", "subTitleSwap", "refresh", "quickEnabled", "more", "moreEnabled", "accyShow", "accyEnabled",
        "accyEditShow", "accyEditEnabled", "unique", "unselect", "selectAppend", "clear", "close", "autoClose", "hideMenu",
    ]

    /// A detail's flags and its sections' (`sectionsShowDisplay`/`sectionsShowEdit`: one flag per section, as parts).
    static let detail: Set<String> = ["edit", "editAlways", "editInherit", "subTitleSwap", "showDisplay", "showEdit",
                                      "sectionsShowDisplay", "sectionsShowEdit"]

    /// A cell's flags.
    static let cell: Set<String> = [
        "readOnly", "controlInDisplay", "secure", "showDisplay", "showEdit", "selectNextAccent", "accyShow", "accyEnabled",
        "accyEditShow", "accyEditEnabled", "byTitle",
    ]

    /// A bar button's flags (`enabledPath` is also written `enabled`, `showPath` `show`).
    static let button: Set<String> = ["enabled", "showPath"]

    /// A backups screen's flag.
    static let backups: Set<String> = ["secure"]

    /// okit.app's flags.
    static let app: Set<String> = ["encryption", "protection", "protectionCover"]

    /// Words people write for a boolean.
    static let words: Set<String> = ["true", "false", "yes", "no", "on", "off", "1", "0"]

    /// The bare word of a flag's text when it is one and names nothing on the context.
    static func bareWord(_ text: String, on context: EntityType?) -> String? {
        let word = text.trimmingCharacters(in: .whitespaces)
        guard words.contains(word.lowercased()) else { return nil }
        if let context, context.slot(of: word) != nil || context.computed[word] != nil || context.methods[word] != nil {
            return nil
        }
        return word
    }
}
