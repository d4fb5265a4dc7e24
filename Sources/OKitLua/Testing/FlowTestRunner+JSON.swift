import Foundation

extension FlowTestRunner {
    /// busted's `-o json` output after a run: one JSON object on one line, `{"successes":[…], "failures":[…],
    /// "errors":[…], "pendings":[…], "duration": seconds}`, each test as busted's handler gives it in part:
    /// `name` (the full name), `message` (failures, errors, and a pending test's reason), `isError` (errors),
    /// `trace` (`short_src`, `currentline`: where a failure failed or `pending()` was called, else where it is
    /// declared) and `element` (`descriptor` — `it`, `describe` for a block's failure, `strict_teardown` for a
    /// teardown's — its own `name`, `duration`, `trace`: where it is declared).
    public func json(seconds: Double) -> String {
        var lists: [String: [[String: Any]]] = ["successes": [], "failures": [], "errors": [], "pendings": []]
        for r in results {
            let key: String
            switch r.status {
            case .ok: key = "successes"
            case .pending: key = "pendings"
            case .fail: key = r.isError ? "errors" : "failures"
            }
            lists[key, default: []].append(Self.jsonEntry(r))
        }
        var object: [String: Any] = lists
        object["duration"] = seconds
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return "{}\n"
        }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// busted's `element.name`: the test's own name, a number when it was named by one (`it(1.5, …)`).
    static func elementName(_ r: FlowTestResult) -> Any {
        let title = r.title ?? r.name
        guard r.titleIsNumber else { return title }
        return Int(title).map { $0 as Any } ?? Double(title).map { $0 as Any } ?? title
    }

    /// One test's object (see `json(seconds:)`).
    static func jsonEntry(_ r: FlowTestResult) -> [String: Any] {
        func trace(_ place: String) -> [String: Any] {
            let parts = place.components(separatedBy: " @ ")
            return ["short_src": parts.first ?? r.file, "currentline": Int(parts.last ?? "") ?? 0]
        }
        var entry: [String: Any] = [
            "name": r.name,
            "trace": trace(r.tracePlace),
            "element": ["descriptor": r.descriptor ?? (r.isBlockFailure ? "describe" : "it"), "name": Self.elementName(r), "duration": r.seconds,
                        "trace": trace(r.declaredPlace)] as [String: Any],
        ]
        if r.untraced {
            // busted's error while loading: no trace; a file's element names it
            entry["trace"] = [Any]()
            entry["element"] = r.file.isEmpty ? ["trace": [Any]()] : ["trace": [Any](), "name": r.file, "descriptor": "file"]
        }
        if r.status == .fail { entry["message"] = r.bustedMessage }
        if r.status == .pending, r.message != nil { entry["message"] = r.bustedMessage }
        if r.status == .fail, r.isError { entry["isError"] = true }
        return entry
    }
}
