import Foundation

/// Constants a property cannot take (`maxValuePath = "#lots"`, `stepValuePath = "#-5"`, `modePath = "#7"`,
/// `accyPath = "#checkmrk"`): OKit reads each with a typed getter (`getDouble`, `getInt`, an accessory type) that
/// gives nil for them, and the control keeps its default (okit-behaviour §1, §5.9) — a UIStepper refuses a step
/// that is not above 0. okit runs the same (the default; a step of #1), so they are problems of `okit-run check`
/// and warnings of the check at load, as a flag constant that is always on is (ScreenCheck+Literals.swift).
extension ScreenCheckRun {
    /// A property's constant it cannot take: a problem of `okit-run check`, a warning at load.
    func checkValueConstant(_ screen: String, _ property: String, _ text: String, sites: [[DeclarationKey]]) {
        let name = property.split(separator: ".").last.map(String.init) ?? property
        guard ConstantProperties.all.contains(name), let word = ConstantProperties.constant(text),
              let message = ConstantProperties.refusal(of: word, for: name) else { return }
        let issue = ScreenIssue(screen: screen, property: property, column: 1, message: message, sites: sites)
        if thorough { issues.append(issue) } else { warnings.append(issue) }
    }
}

/// The properties whose constants are numbers, modes or accessory types, and what each takes.
enum ConstantProperties {
    /// Numbers (a slider's and a stepper's range and step, widths, heights).
    static let numbers: Set<String> = ["minValuePath", "maxValuePath", "stepValuePath", "width", "heightDisplay",
                                       "heightEdit", "heightSelect"]
    /// OKit's defaults of the numbers, for the message.
    static let defaults: [String: String] = ["minValuePath": "#0", "stepValuePath": "#1", "width": "#150"]
    /// A date cell's mode, as UIDatePicker.Mode numbers it (okit also reads the names).
    static let modes = ["time", "date", "dateAndTime"]
    /// A cell's accessory type, by name or UIKit's number (DetailScreen.accessory).
    static let accessories = ["none", "disclosure", "detailDisclosure", "checkmark", "detail"]
    static let all: Set<String> = numbers.union(["modePath", "accyPath", "accyEditPath"])

    /// The text of a binding that is one constant (`#lots`), else nil.
    static func constant(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("#"), let b = try? BindingParser.parse(trimmed), b.parts.count == 1,
              case .constant = b.parts[0] else { return nil }
        return String(trimmed.dropFirst())
    }

    /// What is wrong with `word` as `property`'s constant, or nil when it takes it.
    static func refusal(of word: String, for property: String) -> String? {
        let number = Value.parseNumber(word.trimmingCharacters(in: .whitespaces))?.doubleValue
        if numbers.contains(property) {
            let fallback = defaults[property].map { "its default, \($0)" } ?? "its default"
            guard let number else {
                return "\"#\(word)\" is not a number, so the control keeps \(fallback); write a number, like \"#10\""
            }
            if property == "stepValuePath", number <= 0 {
                return "a step of \(word) is not above 0: OKit's UIStepper refuses it, okit steps by #1; write a positive "
                    + "number, like \"#5\""
            }
            return nil
        }
        if property == "modePath" {
            if let number { return number == number.rounded() && (0...2).contains(number) ? nil : modeRefusal(word) }
            return modes.contains(word) ? nil : modeRefusal(word)
        }
        if let number { return number == number.rounded() && (0...4).contains(number) ? nil : accessoryRefusal(word) }
        return accessories.contains(word) ? nil : accessoryRefusal(word)
    }

    static func modeRefusal(_ word: String) -> String {
        "\"#\(word)\" is no date picker mode\(NameSuggestion.hint(for: word, in: modes)), so the cell shows date and "
            + "time; write \"#0\" (time), \"#1\" (date) or \"#2\" (date and time), or \"#time\", \"#date\", \"#dateAndTime\""
    }

    static func accessoryRefusal(_ word: String) -> String {
        "\"#\(word)\" is no accessory\(NameSuggestion.hint(for: word, in: accessories)), so the cell shows none; write "
            + accessories.map { "\"#\($0)\"" }.joined(separator: ", ") + " or UIKit's number, \"#0\" to \"#4\""
    }
}

extension ScreenCheckRun {
    /// The properties that show a text (a title, a cell's label, a header): a capitalised word there that names no
    /// field (`titlePath = "Authors"`) is most likely the text itself.
    public static let textProperties: Set<String> = [
        "titlePath", "subTitlePath", "subTitleObject", "subTitleObjectPlural", "promptPath", "path", "detailPath",
        "editPath", "editDetailPath", "placeholder", "header", "footer", "groupHeader", "groupFooter", "footerPath",
        "sectionHeaders", "sectionFooters",
    ]

    /// `; if "Authors" is the text, write "%Authors" (localized) or "#Authors" (as it is)` for a capitalised text of
    /// plain words given to a text property, as a bar button's title is told; "" otherwise.
    static func textRemedy(_ property: String, _ text: String) -> String {
        let name = property.split(separator: ".").last.map(String.init) ?? property
        guard textProperties.contains(name), let first = text.unicodeScalars.first, first.properties.isUppercase,
              text.unicodeScalars.allSatisfy({ $0 == " " || $0.properties.isAlphabetic || ("0"..."9").contains($0) }) else { return "" }
        return "; \(name) is a binding: if \"\(text)\" is the text, write " + BindingParser.asText(text)
    }
}
