/// An app's `%key` that is also one of okit's own words, with a string of the app's that replaces okit's word
/// (`["Done"] = "Faite"` for a switch's `%Done`): the app's string overrides okit's word everywhere
/// (built-in-words.md), so okit's edit-mode button says "Faite" on every screen. `okit-run check` says so once per
/// key and language, at the first binding that uses the key (cli.md "Checking an app"), for okit's bar buttons and
/// alert words in English and the languages okit has words for.
extension ScreenCheckRun {
    /// The cell whose bindings are being checked (its kind and the type it runs on), for the wording of a finding.
    struct CheckedCell {
        let kind: String
        let type: String?
    }

    /// A problem for each language whose strings give `key`, one of okit's words, a text other than okit's own.
    func checkWordCollision(_ key: String, _ screen: String, _ property: String, column: Int, sites: [[DeclarationKey]]) {
        guard let word = BuiltInWord(rawValue: key), let (use, shownOn) = ScreenCheckRun.use(of: word) else { return }
        // In a language okit has no words for, the app's strings are where okit's words come from (built-in-words.md).
        for language in engine.strings.languages where BuiltInWords.hasTable(for: language) || BuiltInWords.isEnglish(language) {
            guard let own = engine.strings.string(key, language: language),
                  own != BuiltInWords.okitTemplate(word, language: language),
                  collidedWords.insert(key + "\u{0}" + language).inserted else { continue }
            let thing = checkedCell.map { "\($0.kind) cell" } ?? property
            let owner = checkedCell?.type ?? (screen.prefix(1).uppercased() + screen.dropFirst())
            let message = "\"\(key)\" is also \(use), which \(shownOn) now shows as \"\(own)\" in "
                + "\(ScreenCheckRun.languageName(language)); give your \(thing) another key, e.g. \"%\(owner) \(key.lowercased())\", "
                + "or keep it if you meant both"
            issues.append(ScreenIssue(screen: screen, property: property, column: column, message: message, sites: sites))
        }
    }

    /// What okit shows a word as, and where: the bar buttons and the words of okit's alerts, which a person meets on
    /// every screen (nil for the others — All, the first search scope only with search scopes, Name, Password, … in the
    /// backups screen, the page's labels — where the app's translation of the word is what they want).
    static func use(of word: BuiltInWord) -> (String, String)? {
        switch word {
        case .back: return ("okit's Back button", "every screen opened from another")
        case .edit: return ("okit's Edit button", "every list and detail")
        case .done: return ("okit's edit-mode button", "every screen")
        case .save: return ("okit's Save button", "every web form")
        case .close: return ("okit's Close button", "every presented screen")
        case .add: return ("okit's Add button", "every list that adds")
        case .menu, .help: return ("okit's \(word.rawValue) button", "the web page")
        case .more: return ("okit's More row action", "every list with more actions")
        case .delete: return ("okit's Delete button", "every list that deletes")
        case .search: return ("okit's search field", "every list with search")
        case .ok, .cancel: return ("okit's \(word.rawValue) in its alerts and the add prompt", "every alert")
        case .yes, .no, .confirmDeletion: return ("okit's \(word.rawValue) in its delete confirmation", "every list that deletes")
        default: return nil
        }
    }
}
