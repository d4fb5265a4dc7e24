import Crypto
import Foundation
import OKitEngine

/// Answers to a dialog (an alert, a sheet, a prompt: `respond`) from a page (web.md "Pages and forms"). A dialog's
/// form carries a mark of the dialog it shows (`dialog`: a digest of its kind, title, message, actions and fields).
/// Its answer is out of date only when it comes from another place, or when the dialog shown now is not the one it
/// answers (answered meanwhile in another tab, or showing other text or another prefilled value) — not because the
/// list under the dialog changed: another person adding a book while this one types a new book's name does not
/// refuse the name. A form without the mark (a page from before it) is out of date by the page's version, as every
/// other form is.
///
/// An answer refused as out of date keeps what was typed: the dialog shown now (when it has as many fields) shows the
/// typed texts in its fields on this session's pages (never a shared page), until it is answered or goes.
enum DialogAnswers {
    /// The form field that carries the mark.
    static let field = "dialog"

    /// The mark of a dialog: the same for the same dialog, another when anything it shows differs. Secure fields'
    /// values are not part of it.
    static func mark(_ alert: AlertSnapshot) -> String {
        var parts = [alert.kind, alert.title ?? "\u{0}", alert.message ?? "\u{0}"] + alert.actions
        for f in alert.fields {
            parts += [f.placeholder ?? "\u{0}", f.secure ? "\u{1}" : f.value ?? "\u{0}"]
        }
        // Each part with its length: no two different dialogs give one text.
        let text = parts.map { "\($0.utf8.count):\($0)" }.joined(separator: ";")
        return SHA256.hash(data: Data(text.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
    }
}

/// What a person typed into a dialog whose answer was refused as out of date, for the dialog of `dialog` (its mark).
/// A secure field's text is never kept (it would be written into the page).
struct DialogTyping: Equatable {
    let dialog: String
    let values: [String?]

    /// What a page showing `alert` puts in its fields (nil: none, and what was kept for another dialog goes).
    static func shown(_ kept: inout DialogTyping?, _ alert: AlertSnapshot?) -> [String?]? {
        guard let k = kept else { return nil }
        guard let alert, DialogAnswers.mark(alert) == k.dialog else {
            kept = nil
            return nil
        }
        return k.values
    }
}

extension WebApp {
    /// Whether a `respond` posted from `at` is out of date for the session whose screen is `current` at `here` (nil
    /// for other commands: the page's version decides). An outdated answer's typed fields are kept for the dialog
    /// shown now; a current one forgets what was kept (it is answered now).
    func dialogAnswerOutdated(_ name: String, _ request: WebRequest, _ ws: WebSession, _ current: Snapshot,
                              at: String?, here: String) -> Bool? {
        guard name == "respond" else { return nil }
        let outdated: Bool
        if at.map({ $0.removingTrailingSlash != here }) ?? true {
            outdated = true
        } else if let mark = request.field(DialogAnswers.field) {
            outdated = current.alert.map(DialogAnswers.mark) != mark
        } else {
            outdated = request.field("v") != "\(ws.version)"
        }
        guard outdated else {
            ws.dialogTyping = nil
            return false
        }
        let typed = request.fields("fields")
        if let alert = current.alert, !typed.isEmpty, typed.count == alert.fields.count {
            let values = zip(alert.fields, typed).map { f, t -> String? in f.secure ? nil : t }
            ws.dialogTyping = DialogTyping(dialog: DialogAnswers.mark(alert), values: values)
        }
        return true
    }
}
