/// A path written with `/` inside an expression (`=who .. ' (' .. tool/ref/name .. ')'`): there `/` divides
/// (bindings.md "Expressions"), so it reads `tool / ref / name`, and `ref` and `name` are looked up on the context.
/// When the operands make a path from the context that gets further than the division does, the author meant the
/// path: the check says so once (instead of "has no field" for each operand), and so does the warning at run time.
extension BindingChecker {
    /// The operands of a chain of divisions (`a / b / c`), when each is a plain relative path of names (`tool`,
    /// `author.ref`); nil otherwise.
    static func slashOperands(_ e: Expression) -> [PathExpression]? {
        switch e {
        case .binary(.divide, let l, let r):
            guard let left = slashOperands(l), let right = slashOperands(r) else { return nil }
            return left + right
        case .path(let p):
            guard !p.negate, !p.absolute, p.model == nil, !p.segments.isEmpty else { return nil }
            for seg in p.segments {
                guard case .property(let keys, nil, _) = seg, keys.allSatisfy({ if case .name = $0 { true } else { false } }) else {
                    return nil
                }
            }
            return [p]
        default:
            return nil
        }
    }

    /// The advice for operands written as a path: `in an expression "/" divides; write tool.ref.name or {tool/ref/name}`.
    static func slashAdvice(_ operands: [PathExpression]) -> String {
        let texts = operands.map(\.text)
        return "in an expression \"/\" divides; write \(texts.joined(separator: ".")) or {\(texts.joined(separator: "/"))}"
    }

    /// Checks a chain of divisions of plain paths on `context`: true when it was one path written with `/` (its
    /// issues, the advice first, are added), false when the caller checks it as a division.
    func checkSlashPath(_ e: Expression, _ context: EntityType?, _ issues: inout [Issue]) -> Bool {
        guard context != nil, let operands = Self.slashOperands(e), operands.count > 1,
              let found = slashPath(operands, context) else { return false }
        issues.append(Issue(column: found.column, message: Self.slashAdvice(operands)))
        issues += found.joined
        return true
    }

    /// When the operands read as one path get further than the division does: the column of the first operand the
    /// division cannot read, or that divides an entity (always nil), where the operands before it reach an entity
    /// as a path; and the issues of the path.
    func slashPath(_ operands: [PathExpression], _ context: EntityType?) -> (column: Int, joined: [Issue])? {
        var separate: [Issue] = []
        for p in operands { _ = walk(p, context, &separate) }
        func reachesEntity(_ k: Int) -> Bool {
            var ignored: [Issue] = []
            guard case .entity = walk(Self.joined(operands[..<k]), context, &ignored) else { return false }
            return ignored.isEmpty
        }
        let column: Int
        if let first = separate.first {
            // The operand the division stumbles on.
            guard let k = operands.lastIndex(where: { $0.column <= first.column }), k > 0, reachesEntity(k) else { return nil }
            column = first.column
        } else {
            // Every operand reads: a division, unless it divides an entity (`author.ref / name`).
            guard let k = operands.indices.dropFirst().first(where: reachesEntity) else { return nil }
            column = operands[k].column
        }
        var joined: [Issue] = []
        _ = walk(Self.joined(operands[...]), context, &joined)
        if let stop = joined.first, stop.column <= column { return nil }
        return (column, joined)
    }

    /// The operands as one path (each step keeps its column).
    static func joined(_ operands: ArraySlice<PathExpression>) -> PathExpression {
        PathExpression(negate: false, model: nil, absolute: false, segments: operands.flatMap(\.segments),
                       text: operands.map(\.text).joined(separator: "/"), column: operands.first?.column ?? 1)
    }

    /// The advice for a warning at run time that `name` is nothing on `context` in `binding`: set when `name` is an
    /// operand of a division of plain paths that reads as one path from `context`.
    public func slashPathAdvice(in binding: Binding, name: String, context: EntityType) -> String? {
        var found: String?
        func visit(_ e: Expression) {
            guard found == nil else { return }
            if case .binary(.divide, _, _) = e, let operands = Self.slashOperands(e), operands.count > 1 {
                let names = operands.dropFirst().flatMap { p in
                    p.segments.flatMap { seg -> [String] in
                        guard case .property(let keys, _, _) = seg else { return [] }
                        return keys.compactMap { if case .name(let n, _) = $0 { n } else { nil } }
                    }
                }
                if names.contains(name), slashPath(operands, context) != nil { found = Self.slashAdvice(operands) }
                return
            }
            switch e {
            case .negate(let x), .not(let x): visit(x)
            case .binary(_, let a, let b), .and(let a, let b), .or(let a, let b): visit(a); visit(b)
            case .ternary(let a, let b, let c), .between(let a, let b, let c): visit(a); visit(b); visit(c)
            case .inList(let x, let list): visit(x); list.forEach(visit)
            case .call(_, let args, _): args.forEach(visit)
            default: break
            }
        }
        for part in binding.parts { if case .expression(let e, _) = part { visit(e) } }
        return found
    }
}
