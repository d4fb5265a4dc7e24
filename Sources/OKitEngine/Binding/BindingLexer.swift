/// The one pass over a binding's text that finds where quoted strings start (bindings.md "Grammar": a quote
/// starts a string only where a part, an argument or an expression operand starts; `%Don't` is plain text).
///
/// Whether a `'` opens a string depends on the kind of part it is in, and the parts of call arguments are
/// parts again, so the pass keeps a stack of frames: the binding and each call's arguments hold parts, whose
/// first character decides their mode; brackets inside a part are groups that keep (or switch) the mode.
/// It never throws and never recurses: malformed text only makes the parser report its error.
struct QuoteMap {
    /// For each `'` that opens a quoted string: the index of its closing `'` (-1 when it is not closed).
    private let closes: [Int: Int]

    init(_ s: [Unicode.Scalar]) { closes = BindingLexer.quotes(s) }

    /// The closing quote of the string opened by the `'` at `i` (-1: not closed); nil when no string opens there.
    func close(at i: Int) -> Int? { closes[i] }
}

enum BindingLexer {
    /// How the characters of a part (or a group inside it) are read.
    enum Mode {
        /// Before the first non-space character of a part.
        case partStart
        /// `#text` or `%text`: quotes are plain, brackets only nest.
        case text
        /// A path: `(` opens call arguments (parts again), `[` an index or filter (an expression); quotes elsewhere
        /// are plain.
        case path
        /// An `=` expression: every `'` starts a string; `{` holds a path.
        case expression
    }

    struct Frame {
        /// True for the binding itself and for call arguments: commas separate parts.
        let holdsParts: Bool
        var mode: Mode
    }

    /// The positions (indexes into `s`) of the `'` that open quoted strings, with their closing quotes.
    static func quotes(_ s: [Unicode.Scalar]) -> [Int: Int] {
        var starts: [Int: Int] = [:]
        guard s.contains("'") else { return starts }
        var stack = [Frame(holdsParts: true, mode: .partStart)]
        var i = 0
        let n = s.count
        while i < n {
            let c = s[i]
            let top = stack.count - 1
            if stack[top].mode == .partStart {
                switch c {
                case " ", "\t", "\n", "\r", ",":
                    i += 1
                    continue
                case "'":
                    i = skipQuoted(s, from: i, into: &starts)
                    stack[top].mode = .path
                    continue
                case "#", "%":
                    stack[top].mode = .text
                    i += 1
                    continue
                case "=":
                    stack[top].mode = .expression
                    i += 1
                    continue
                default:
                    stack[top].mode = .path
                }
            }
            let mode = stack[top].mode
            switch c {
            case "\\":
                i += 2
                continue
            case "'" where mode == .expression:
                i = skipQuoted(s, from: i, into: &starts)
                continue
            case "," where stack[top].holdsParts:
                stack[top].mode = .partStart
            case "(", "[", "{":
                switch mode {
                case .text, .partStart:
                    stack.append(Frame(holdsParts: false, mode: .text))
                case .path:
                    // `(` opens call arguments (parts); `[` an index or a filter expression (where quotes are
                    // strings: `books[author.ref.name == 'Herbert']`).
                    switch c {
                    case "(": stack.append(Frame(holdsParts: true, mode: .partStart))
                    case "[": stack.append(Frame(holdsParts: false, mode: .expression))
                    default: stack.append(Frame(holdsParts: false, mode: .path))
                    }
                case .expression:
                    stack.append(Frame(holdsParts: false, mode: c == "{" ? .path : .expression))
                }
            case ")", "]", "}":
                // Closers end the innermost group or argument list, whatever their kind (as the splitter counts
                // them); at the top they are plain text.
                if stack.count > 1 { stack.removeLast() }
            default:
                break
            }
            i += 1
        }
        return starts
    }

    /// Records the quoted string opening at `open` and returns the index after it (the end of the text when it
    /// is not closed).
    static func skipQuoted(_ s: [Unicode.Scalar], from open: Int, into starts: inout [Int: Int]) -> Int {
        var j = open + 1
        while j < s.count, s[j] != "'" { j += s[j] == "\\" ? 2 : 1 }
        starts[open] = j < s.count ? j : -1
        return min(j + 1, s.count)
    }
}
