/// How a binding is evaluated.
public enum EvaluationMode: Sendable {
    /// A display property (text, detail, enabled, show, sort, group…): writes are refused, and an error in an
    /// extension or method is reported and yields nil (the screen keeps working).
    case display
    /// A read from the host or Lua (`okit.get`): errors are thrown.
    case query
    /// An action property (`tap`, …) or `okit.call`/`okit.set`: writes are allowed, errors are thrown.
    case action
}

/// An error raised inside an extension function or method called from a binding.
public struct BindingCallError: Error, CustomStringConvertible {
    public let binding: String
    public let function: String
    public let underlying: Error

    public var description: String { "\(underlying) (in \(function), called from binding \"\(binding)\")" }
}
