import Foundation

/// Texts written as something else than what okit reads them as, which the app runs with all the same (problems of
/// `okit-run check`): a flag given a constant no yes/no word (`add = "#falso"`: OKit's `getBool` reads any
/// text but "", false, no and 0 as true, okit-behaviour §1) — a warning of the check at load too — and plain help
/// text written as a `%key` (`help = "%Help text"`: help is no binding, the page shows the percent sign and the key).
extension ScreenCheckRun {
    /// A flag's constant that is always on though it reads like no yes/no word (`#falso`, `#off`, `#nein`): a
    /// problem of `okit-run check`, a warning of the check at load (the app runs as OKit runs it).
    func checkFlagConstant(_ screen: String, _ property: String, _ text: String, sites: [[DeclarationKey]]) {
        guard let word = FlagProperties.unreadConstant(text) else { return }
        let meant = FlagProperties.meant[word.lowercased()] ?? NameSuggestion.closest(to: word, in: ["true", "false"])
        let advice = meant.map { "did you mean \"#\($0)\"?" } ?? "write \"#false\" or \"#true\""
        let message = "\"#\(word)\" is always on: a flag is off only for #false, #no or #0 (any other text is on); \(advice)"
        // A part of a multipart flag (`sectionsShowDisplay = "#true,#flase"`): at its `#`.
        let column = text.range(of: "#" + word).map { text.distance(from: text.startIndex, to: $0.lowerBound) + 1 } ?? 1
        let issue = ScreenIssue(screen: screen, property: property, column: column, message: message, sites: sites)
        if thorough { issues.append(issue) } else { warnings.append(issue) }
    }

    /// Help text written as a `%key`: help is shown as written.
    func checkHelp(_ screen: String, _ help: String?) {
        guard thorough, let help, help.hasPrefix("%"), help.count > 1, !help.hasPrefix("%%") else { return }
        let message = "help is plain text, not a binding: the page shows \"\(help)\" as written, in every language; "
            + "write the text itself: help = \"…\""
        issues.append(ScreenIssue(screen: screen, property: "help", column: 1, message: message, sites: [["help"]]))
    }
}

extension FlagProperties {
    /// The words of a constant flag that mean what okit reads them as (any case): OKit's and okit's yes/no words,
    /// and a yes in other languages (on, as meant).
    static let constantWords: Set<String> = ["true", "false", "yes", "no", "on", "ja", "si", "sí", "oui", "vrai", "sim",
                                             "vero", "wahr", "verdadero", "verdadeiro"]

    /// Words people write for an off flag that okit reads as on.
    static let meant: [String: String] = ["off": "false", "falso": "false", "nein": "false", "non": "false",
                                          "faux": "false", "falsch": "false", "não": "false", "nao": "false"]

    /// The word of a constant flag (`#falso`) that is neither a yes/no word nor a number — of the first such part of
    /// a multipart flag (`sectionsShowDisplay = "#true,#flase"`, one flag per section); nil for anything else.
    static func unreadConstant(_ text: String) -> String? {
        guard let b = try? BindingParser.parse(text.trimmingCharacters(in: .whitespaces)) else { return nil }
        for part in b.parts {
            guard case .constant(.string(let word)) = part, !word.isEmpty, !constantWords.contains(word.lowercased()),
                  Value.parseNumber(word) == nil else { continue }
            return word
        }
        return nil
    }
}
