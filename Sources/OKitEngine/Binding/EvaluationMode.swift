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

    public var description: String {
        let chain = (underlying as? TracedError)?.callChain.map { "; \($0)" } ?? ""
        return "\(underlying) (in \(function), called from binding \"\(binding)\"\(chain))"
    }
}

/// An error that knows the calls it came through (a Lua error's traceback), said on the same line as the error
/// (`via app.lua:6 in nomeDi ← app.lua:7`): the line that failed may be in a helper the extension called.
public protocol TracedError: Error {
    /// The calls, innermost first, in one line; nil when there is nothing to add to the error's own place.
    var callChain: String? { get }
}
