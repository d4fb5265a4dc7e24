import Foundation
import Testing
@testable import OKitEngine

/// The built-in words (lua-api.md "Built-in words"): English as OKit shows it, OKit's German, an app's own strings
/// over both, and every screen that shows one in the app's language.
@Suite struct BuiltInWordsTests {
    @Test func englishIsTheKeysThemselves() {
        for word in BuiltInWord.allCases { #expect(BuiltInWords.english.template(word) == word.rawValue) }
        #expect(BuiltInWords.english(.isRequired, "Name") == "Name is required")
        #expect(BuiltInWords.english(.enterField, "name", "Pet") == "Enter name for this Pet")
        #expect(BuiltInWords(language: "nl")(.cancel) == "Cancel", "a language without a table is English")
    }

    /// Each table has every word, with as many arguments as the English one (`%@` or `%n$@`).
    @Test func everyTableHasEveryWordWithItsArguments() {
        func arguments(_ s: String) -> Int {
            s.components(separatedBy: "%@").count - 1 + (1...9).filter { s.contains("%\($0)$@") }.count
        }
        for (language, table) in BuiltInWords.tables {
            for word in BuiltInWord.allCases {
                let text = table[word.rawValue]
                #expect(text != nil, "\(language) has no \"\(word.rawValue)\"")
                if let text { #expect(arguments(text) == arguments(word.rawValue), "\(language): \(text)") }
            }
            #expect(table.count == BuiltInWord.allCases.count, "\(language) has words that are not built-in ones")
        }
    }

    /// okit has its own words in German, Spanish, French, Italian and Portuguese; a region falls back to its
    /// language (a new user's Spanish app showed "Edit" and "Confirm Deletion" in English).
    @Test func theRomanceLanguagesHaveOKitsWordsToo() {
        #expect(BuiltInWords.tables.keys.sorted() == ["de", "es", "fr", "it", "pt"])
        let cancel = ["es": "Cancelar", "es_MX": "Cancelar", "fr": "Annuler", "fr_CA": "Annuler", "it": "Annulla", "pt": "Cancelar", "pt_BR": "Cancelar"]
        for (language, word) in cancel { #expect(BuiltInWords(language: language)(.cancel) == word, "\(language)") }
        #expect(BuiltInWords(language: "es")(.confirmDeletion) == "Confirmar eliminación")
        #expect(BuiltInWords(language: "es")(.isRequired, "Título") == "El campo Título es obligatorio")
        #expect(BuiltInWords(language: "it")(.enterField, "Nome", "Libro") == "Inserisci Nome (Libro)")
        #expect(BuiltInWords(language: "pt")(.rowsShown, "3", "10") == "3 de 10")
        // French typesetting: a no-break space before ? : ; and inside « », so no line starts with one.
        #expect(BuiltInWords(language: "fr")(.reallyDelete) == "Voulez-vous vraiment supprimer cette entrée\u{A0}?")
        #expect(BuiltInWords(language: "fr")(.neitherYesNorNo, "Bio", "peut-être", "oui", "non")
                == "Bio\u{A0}: «\u{A0}peut-être\u{A0}» n’est ni oui ni non")
        for (language, table) in BuiltInWords.tables where language != "de" {
            // Each word is its own in the language: no table copies the English of more than the words that are the same.
            let english = BuiltInWord.allCases.filter { table[$0.rawValue] == $0.rawValue }.map(\.rawValue)
            #expect(english.count <= 11, "\(language) keeps English: \(english)")   // Index, options, image, 1 minute… in French
        }
    }

    /// Every French word puts a no-break space before `:` `;` `?` `!` (a time's colon aside), as French typesetting
    /// does, and so does the label okit puts before a text (the web row menu's `Actions : Loyer`).
    @Test func frenchPutsANoBreakSpaceBeforeEachHighPunctuationMark() throws {
        let table = try #require(BuiltInWords.tables["fr"])
        for (key, text) in table {
            let chars = Array(text)
            for (i, c) in chars.enumerated() where ":;?!".contains(c) {
                let time = c == ":" && i > 0 && chars[i - 1].isNumber
                #expect(time || (i > 0 && chars[i - 1] == "\u{A0}"), "\(key): \(text)")
            }
        }
        #expect(BuiltInWords(language: "fr")(.labelled, "Actions", "Loyer") == "Actions\u{A0}: Loyer")
        #expect(BuiltInWords(language: "en")(.labelled, "Actions", "Rent") == "Actions: Rent")
    }

    /// docs/built-in-words.md lists every key, in the order of `BuiltInWord`, and names each language okit has
    /// words for: a word added to the code without the doc fails here.
    @Test func theDocListsEveryKeyAndEveryLanguage() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/built-in-words.md")
        let doc = try String(contentsOf: url, encoding: .utf8)
        let section = try #require(doc.components(separatedBy: "## Every key").last)
        let keys = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `"), let end = line.range(of: "` |") else { return nil }
            // A `|` in a key is written `\|`, as a table cell needs it.
            return String(line[line.index(line.startIndex, offsetBy: 3)..<end.lowerBound]).replacingOccurrences(of: "\\|", with: "|")
        }
        #expect(keys == BuiltInWord.allCases.map(\.rawValue))
        #expect(doc.contains("\(BuiltInWord.allCases.count) words, in the order of `BuiltInWord.swift`"))
        for language in BuiltInWords.tables.keys {
            let name = Locale(identifier: "en").localizedString(forLanguageCode: language) ?? language
            #expect(doc.contains("| \(name) (`\(language)`) |"), "\(language) is not named")
        }
    }

    @Test func germanIsOKitsAndAnAppsStringsWin() {
        let strings = StringsTable()
        strings.add(language: "de", strings: ["Cancel": "Lieber nicht", "Pet": "Tier"])
        let words = BuiltInWords(language: "de_AT", strings: strings)
        #expect(words(.cancel) == "Lieber nicht", "the app's own string, found through the base language")
        #expect(words(.done) == "Fertig" && words(.back) == "Zurück" && words(.edit) == "Bearbeiten")
        #expect(words(.enterField, "Name", "Tier") == "Name für Tier eingeben", "arguments by position")
        #expect(words.overrides == ["Cancel": "Lieber nicht"], "only built-in words are taken from the app")
        #expect(BuiltInWords.fill("%2$@ %1$@ 100%%", ["a", "b"]) == "b a 100%")
    }

    /// An app with no strings in the person's language shows its English ones (as iOS shows an app in its
    /// development language); one that has the language but not the key shows the key; built-in words stay the
    /// person's language (found with the bookshop under --lang de: "0 entrys").
    @Test func anAppWithoutStringsInTheLanguageShowsItsEnglishOnes() {
        let strings = StringsTable()
        strings.add(language: "en", strings: ["entrys": "Entries", "Cancel": "Nope"])
        #expect(strings.localize("entrys", language: "de") == "Entries")
        #expect(strings.localize("entrys", language: "de_AT") == "Entries")
        #expect(strings.localize("other", language: "de") == "other")
        #expect(BuiltInWords(language: "de", strings: strings)(.cancel) == "Abbrechen", "built-in words stay German")
        strings.add(language: "de", strings: ["entry": "Eintrag"])
        #expect(strings.localize("entrys", language: "de") == "entrys", "the app has German: a missing key is the key")
        #expect(strings.localize("entry", language: "de_CH") == "Eintrag")
    }

    /// A clinic app: pets with a required name and a fee of at least 0, a list with search scopes, add by name,
    /// delete with OKit's confirmation, more actions; a pet's detail.
    static func clinic(language: String, strings: [String: String] = [:], insuredSwitch: Bool = false) throws -> AppSession {
        let session = AppSession()
        let engine = session.engine
        try engine.schema.entity("Pet", fields: [FieldSpec("name", .string, rules: FieldRules(required: true)),
                                                 FieldSpec("fee", .double, rules: FieldRules(min: 0)),
                                                 FieldSpec("kind", .string)] + (insuredSwitch ? [FieldSpec("insured", .bool)] : []))
        try engine.schema.entity("Clinic", fields: [try FieldSpec("pets", "[Pet]")])
        try engine.schema.validate()
        let clinic = try engine.register(model: "default", type: "Clinic", storage: TransientStorage())
        let bello = try engine.make("Pet", ["name": .string("Bello"), "kind": .string("Dog")])
        try engine.insert(.entity(bello), into: engine.collection(clinic.root, "pets"))
        engine.strings.add(language: language, strings: strings)
        engine.locale.language = language
        var pets = ListDeclaration(id: "pets")
        pets.type = "Pet"
        pets.typeName = "Pet"
        pets.dataPath = "pets"; pets.cellPath = "name"; pets.titlePath = "%Pets"; pets.segue = "pet"; pets.addName = "name"
        pets.search = "#true"; pets.searchFilters = "#Dog,#Cat"; pets.searchFilterPath = "kind"
        pets.actions.more = "#true"; pets.actions.moreActions = "%Vaccinate"
        var pet = DetailDeclaration(id: "pet")
        pet.titlePath = "name"
        pet.sections = [SectionDeclaration(cells: [CellDeclaration(kind: "text", properties: ["path": "%Fee", "textPath": "fee"])]
                                           + (insuredSwitch ? [CellDeclaration(kind: "switch", properties: ["path": "%Insured", "onPath": "insured"])] : []))]
        try session.shell.declare(pets)
        try session.shell.declare(pet)
        try session.start(home: ["pets"], menu: nil)
        return session
    }

    /// A field's label the app translates to the same word (German `Name = "Name"`) is still its translation: the
    /// prompt says "Name für Tier eingeben", not the field's key "name" (found by a new user's recipe app).
    @Test func aLabelTranslatedToTheSameWordNamesTheAddPromptsField() throws {
        let session = try BuiltInWordsTests.clinic(language: "de", strings: ["Pet": "Tier", "Name": "Name"])
        try session.shell.add()
        let alert = try #require(try session.shell.snapshot().alert)
        #expect(alert.message == "Name für Tier eingeben" && alert.fields.first?.placeholder == "Name", "\(alert.message ?? "")")
        let english = try BuiltInWordsTests.clinic(language: "en", strings: [:])
        try english.shell.add()
        #expect(try english.shell.snapshot().alert?.message == "Enter name for this Pet", "OKit's English is unchanged")
    }

    @Test func everyScreenShowsItsWordsInGerman() throws {
        let session = try BuiltInWordsTests.clinic(language: "de", strings: ["Pet": "Tier", "name": "Name", "Fee": "Gebühr", "Cancel": "Lieber nicht"])
        let shell = session.shell
        var snap = try shell.snapshot()
        #expect(snap.screen.buttons.map(\.title) == ["Bearbeiten", "+"])
        #expect(snap.screen.search?.scopes == ["Alle", "Dog", "Cat"] && snap.screen.search?.scope == "Alle")
        try shell.search("", scope: "All")   // scripts written in English still say "All"
        try shell.add()
        var alert = try #require(try shell.snapshot().alert)
        #expect(alert.title == "Neu: Tier" && alert.message == "Name für Tier eingeben")
        #expect(alert.actions == ["OK", "Lieber nicht"] && alert.fields.first?.placeholder == "Name")
        try shell.respond("Cancel")   // the English name of a built-in action answers it in any language
        try shell.more(row: 1)
        alert = try #require(try shell.snapshot().alert)
        #expect(alert.message == "Aktion auswählen" && alert.actions.last == "Lieber nicht")
        try shell.respond("Lieber nicht")
        try shell.edit(true)
        snap = try shell.snapshot()
        #expect(snap.screen.buttons.first?.title == "Fertig")
        try shell.delete(row: 1)
        alert = try #require(try shell.snapshot().alert)
        #expect(alert.title == "Löschen bestätigen" && alert.message == "Möchten Sie den Eintrag wirklich löschen?")
        #expect(alert.actions == ["Ja", "Nein"])
        try shell.respond("No")
        try shell.edit(false)
        try shell.tap(row: 1)
        try shell.edit(true)
        #expect(throws: InvalidValue(type: "Pet", field: "fee", message: "Gebühr muss mindestens 0 sein")) {
            try shell.set(cell: "Fee", value: .double(-5))
        }
        try shell.back()
        #expect(throws: InvalidValue(type: "Pet", field: "name", message: "Name ist erforderlich")) {
            try shell.add(text: " ")
        }
    }

    /// A bound with a fraction is written with the language's decimal separator: `0,5` in German, `0.5` in English.
    @Test func aFractionalBoundIsWrittenAsTheLanguageWritesIt() {
        let rules = FieldRules(min: 0.5, max: 1000)
        let de = rules.worded(BuiltInWords(language: "de"), label: "Gebühr")
        #expect(de.messages[.min] == "Gebühr muss mindestens 0,5 sein")
        #expect(de.messages[.max] == "Gebühr darf höchstens 1000 sein")
        let en = rules.worded(BuiltInWords(language: "en"), label: "Fee")
        #expect(en.messages[.min] == "Fee must be at least 0.5")
        // Five digits and more are grouped as the language groups them; four (a year) are written as they are.
        let large = FieldRules(min: -12345.25, max: 100000)
        #expect(large.worded(BuiltInWords(language: "de"), label: "Preis").messages[.max] == "Preis darf höchstens 100.000 sein")
        #expect(large.worded(BuiltInWords(language: "de"), label: "Preis").messages[.min] == "Preis muss mindestens -12.345,25 sein")
        #expect(large.worded(BuiltInWords(language: "en"), label: "Price").messages[.max] == "Price must be at most 100,000")
    }

    /// "N Items": the plural of a localized `subTitleObject` is its key + "s" in the app's strings.
    @Test func theCountSubtitleTakesThePluralsKey() throws {
        let session = try BuiltInWordsTests.clinic(language: "de", strings: ["Item": "Eintrag", "Items": "Einträge"])
        var pets = try #require(session.shell.declaration("pets") as? ListDeclaration)
        pets.id = "count"
        pets.titleCount = "pets.@count"; pets.subTitleObject = "%Item"
        try session.shell.declare(pets)
        try session.shell.open("count")
        #expect(try session.shell.snapshot().screen.subtitle == "1 Eintrag")
        try session.shell.add(text: "Rex")
        #expect(try session.shell.snapshot().screen.subtitle == "2 Einträge", "not \"Eintrags\"")
    }

    @Test func englishStaysAsItWas() throws {
        let shell = try BuiltInWordsTests.clinic(language: "en").shell
        #expect(try shell.snapshot().screen.buttons.map(\.title) == ["Edit", "+"])
        try shell.add()
        let alert = try #require(try shell.snapshot().alert)
        #expect(alert.title == "New Pet" && alert.message == "Enter name for this Pet" && alert.actions == ["OK", "Cancel"])
        try shell.respond("Cancel")
        #expect(throws: InvalidValue(type: "Pet", field: "name", message: "Name is required")) { try shell.add(text: " ") }
    }
}
