import Foundation
import OKitEngine

/// Texts of a posted form refused before its command runs (web.md "Limits" and "Security"): one longer than a person
/// may store, one holding NUL — named as the page labels their field.
extension WebApp {
    /// The refusal of a form holding a text longer than `ServeOptions.maxText` characters (Unicode scalars, so
    /// combining marks count), naming the cell or prompt field it was typed in, in the app's words ("Name must be at
    /// most 65536 characters"); nil when every text is within it.
    func tooLongText(_ name: String, _ request: WebRequest, _ shown: Snapshot, _ engine: Engine) -> String? {
        let limit = options.maxText
        return WebApp.fieldHolding(name, request, shown, engine) { $0.utf8.count > limit && $0.unicodeScalars.count > limit }
            .map { engine.word(.atMostCharacters, count: Double(limit), $0, String(limit)) }
    }

    /// The refusal of a form holding a text with the NUL character (`%00`), which no model keeps (storage.md
    /// "Texts"): before the command runs, naming the field as the page labels it — not the model, the entity's id or
    /// the database, as the engine's own message for logs and JSON lines does (web.md "Security"). In an English app
    /// it says why; in another language the app's "does not take that value" (okit has no word for a NUL there).
    func textWithNUL(_ name: String, _ request: WebRequest, _ shown: Snapshot, _ engine: Engine) -> String? {
        WebApp.fieldHolding(name, request, shown, engine, { $0.hasNUL }).map { WebApp.nulWords($0, engine) }
    }

    /// `label: a text cannot hold the NUL character; …` (without a label: a text the app's own code wrote).
    static func nulWords(_ label: String?, _ engine: Engine) -> String {
        if let label, !BuiltInWords.isEnglish(engine.locale.language) { return engine.word(.valueNotTaken, label) }
        return (label.map { $0 + ": a text" } ?? "A text") + " cannot hold the NUL character; remove it (nothing was changed)."
    }

    /// The cell or prompt field a posted text that `holds` was typed in, as the page labels it (a form field
    /// otherwise, by its name); nil when no posted text holds it.
    static func fieldHolding(_ name: String, _ request: WebRequest, _ shown: Snapshot, _ engine: Engine,
                             _ holds: (String) -> Bool) -> String? {
        if name == "set", let value = request.field("value"), holds(value) {
            let row = WebApp.shownRow(request.field("cell"), in: shown)
            return [row?.text, row?.control?.placeholder, row?.id, request.field("cell")]
                .compactMap { $0 }.first { !$0.isEmpty } ?? "value"
        } else if let i = request.fields("fields").firstIndex(where: holds) {
            let fields = shown.alert?.fields ?? []
            return (fields.indices.contains(i) ? fields[i].placeholder : nil).flatMap { $0.isEmpty ? nil : $0 }
                ?? engine.word(.field, String(i + 1))
        } else if let field = request.form.first(where: { holds($0.value) }) {
            return name == "add" && field.name == "text" ? engine.word(.name) : field.name   // add's text: the new row's name
        }
        return nil
    }
}
