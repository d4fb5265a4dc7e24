import Foundation
import OKitEngine

/// A prompt's secure fields (a backup's password) in the terminal shell: `respond ACTION [FIELDS]` takes the other
/// fields from the line and asks for each secure one with echo off, as `okit-run backup create --secure` does. A
/// line that types one anyway is refused and kept out of the history.
extension TerminalShell {
    /// Why a `respond` line is refused when it holds more words than the waiting prompt has fields that are not
    /// secure (a password typed on the line); nil for any other line.
    func secretsTypedOnLine(_ name: String, _ cmd: [String: Any]) -> String? {
        guard name == "respond", let alert = session.shell.pendingAlert, alert.fields.contains(where: \.secure) else { return nil }
        let typed = (cmd["fields"] as? [String]) ?? []
        let plain = alert.fields.filter { !$0.secure }.count
        guard typed.count > plain else { return nil }
        let secure = alert.fields.filter(\.secure).map { $0.placeholder ?? "password" }
        let usage = (["respond", (cmd["action"] as? String) ?? "ACTION"] + typed.prefix(plain)).joined(separator: " ")
        return "\(secure.joined(separator: ", ")) \(secure.count == 1 ? "is" : "are") asked with echo off after "
            + "\(usage), not typed on the line: nothing was done, and the line is not kept in the history"
    }

    /// For `respond` on a prompt with secure fields: asks for each with echo off (when the action uses the fields)
    /// and puts every field's value in `cmd`; false when the person gave none (end of input, a stop signal).
    func askSecureFields(_ cmd: inout [String: Any]) -> Bool {
        guard let alert = session.shell.pendingAlert, alert.fields.contains(where: \.secure),
              let action = cmd["action"] as? String, let index = actionPosition(action, alert), usesFields(index, alert)
        else { return true }
        var typed = ((cmd["fields"] as? [String]) ?? [])[...]
        var plain: [String?] = alert.fields.map { $0.secure ? nil : (typed.popFirst() ?? $0.value ?? "") }
        // A field that is not secure left empty: the prompt refuses the answer before anything is asked.
        if alert.needsFields.contains(index), plain.contains(where: { $0?.trimmingCharacters(in: .whitespaces).isEmpty == true }) {
            cmd["fields"] = plain.map { $0 ?? "" }
            return true
        }
        for (i, field) in alert.fields.enumerated() where field.secure {
            guard let secret = SecretInput.ask((field.placeholder ?? "Password") + ": ") else {
                print(red("no \(field.placeholder ?? "password") given: nothing was done"))
                return false
            }
            plain[i] = secret
        }
        cmd["fields"] = plain.map { $0 ?? "" }
        return true
    }

    /// The 1-based position of the action `respond` names, as the prompt reads it: a position, the exact title,
    /// the one title that matches without regard to case, or one of okit's words in English (`Cancel`).
    func actionPosition(_ action: String, _ alert: PendingAlert) -> Int? {
        if let n = Int(action), n >= 1, n <= alert.actions.count { return n }
        if let i = alert.actions.firstIndex(of: action) { return i + 1 }
        func unique(_ title: String) -> Int? {
            let matches = alert.actions.indices.filter { MatchedText.same(alert.actions[$0], title) }
            return matches.count == 1 ? matches[0] + 1 : nil
        }
        if let i = unique(action) { return i }
        guard let w = BuiltInWord.allCases.first(where: { $0.rawValue.compare(action, options: .caseInsensitive) == .orderedSame })
        else { return nil }
        return unique(session.engine.word(w))
    }

    /// Whether the action takes the fields: one the prompt refuses with empty fields, or, for a prompt that
    /// refuses none, any action but Cancel.
    func usesFields(_ index: Int, _ alert: PendingAlert) -> Bool {
        if !alert.needsFields.isEmpty { return alert.needsFields.contains(index) }
        let title = alert.actions[index - 1]
        return ![session.engine.word(.cancel), "Cancel"].contains { $0.compare(title, options: .caseInsensitive) == .orderedSame }
    }
}
