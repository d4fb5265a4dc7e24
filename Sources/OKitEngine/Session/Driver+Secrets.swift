import Foundation

/// Secrets in recorded sessions: the values of secure prompt fields (backup passwords) and the passphrase of
/// `authenticate` are never written to a session log. The log has `{"secret":true}` in their place, and a replay
/// asks its `secretSupply` for them, in order.
extension Driver {
    /// What a secret becomes in the arguments the recorder sees, and what a replayed `{"secret":true}` arrives as.
    public static let secretPlaceholder = "\u{1}okit-secret"

    /// The arguments as they may be recorded: secret values replaced by the placeholder.
    func redacted(_ name: String, _ args: [String: Value]) -> [String: Value] {
        var out = args
        switch name {
        case "respond":
            guard let alert = shell.pendingAlert, alert.fields.contains(where: \.secure) else { return args }
            switch args["fields"] {
            case .list(var items)?:
                for (i, field) in alert.fields.enumerated() where field.secure && i < items.count {
                    items[i] = .string(Self.secretPlaceholder)
                }
                out["fields"] = .list(items)
            case .string?:
                if alert.fields.first?.secure == true { out["fields"] = .string(Self.secretPlaceholder) }
            default: break
            }
        case "authenticate":
            if case .string? = args["passphrase"] { out["passphrase"] = .string(Self.secretPlaceholder) }
        default: break
        }
        return out
    }

    /// The arguments with every placeholder replaced by the next secret of `secretSupply`; without one (or when
    /// it has run out) the command fails with the way out.
    func revealed(_ name: String, _ args: [String: Value]) throws -> [String: Value] {
        func reveal(_ v: Value) throws -> Value {
            switch v {
            case .string(let s) where s == Self.secretPlaceholder:
                guard let secret = secretSupply?() else {
                    throw UsageError(message: "\(name): the session had a secret here (a password or passphrase), and secrets are not written to session logs; replay with --secrets-stdin and give them on stdin, one per line, in order")
                }
                return .string(secret)
            case .list(let items): return .list(try items.map(reveal))
            default: return v
            }
        }
        var out = args
        for (k, v) in args { out[k] = try reveal(v) }
        return out
    }
}
