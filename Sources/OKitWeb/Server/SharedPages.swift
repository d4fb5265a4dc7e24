import Foundation
import OKitEngine

/// Pages that many browser sessions are shown alike (issue 39 item 2): after a write seen by a thousand viewers of
/// one list, each re-GET used to render the same page again. A page is now rendered once per place, query and
/// snapshot, with two stand-ins where a session's own values go — its CSRF token and its page version, the only
/// parts of a page that differ between people who see the same snapshot at the same place — and each session's
/// answer is that body with its own values put in.
///
/// The stand-ins are random per process (a CSRF-shaped hex token and an 18-digit number), so no text a person
/// types can be taken for one. A page with a notice, an error, a recording bar or a covered app is never shared:
/// those belong to one session.
final class SharedPages {
    struct Page {
        let snapshot: Snapshot
        let body: [UInt8]
    }

    /// The stand-in for a session's CSRF token in a shared body.
    let csrfStandIn = RandomToken.make()
    /// The stand-in for a session's page version (hidden fields, image and web-cell URLs).
    let versionStandIn = Int.random(in: 100_000_000_000_000_000...999_999_999_999_999_999)
    private var pages: [String: Page] = [:]
    /// How many bodies were rendered, and how many answers were made from one (for tests).
    private(set) var renders = 0
    private(set) var reuses = 0

    /// The body for a session at `place` (path and query) showing `snapshot`: the shared one when it was rendered
    /// for an equal snapshot, else rendered now by `render` (given the stand-ins) and kept for the others.
    func body(place: String, snapshot: Snapshot, csrf: String, version: Int,
              render: (_ csrf: String, _ version: Int) -> [UInt8]) -> [UInt8] {
        let page: Page
        if let kept = pages[place], kept.snapshot == snapshot {
            page = kept
            reuses += 1
        } else {
            page = Page(snapshot: snapshot, body: render(csrfStandIn, versionStandIn))
            renders += 1
            if pages.count >= 256, pages[place] == nil { pages.removeAll(keepingCapacity: true) }
            pages[place] = page
        }
        return SharedPages.replacing([Array(csrfStandIn.utf8): Array(csrf.utf8),
                                      Array(String(versionStandIn).utf8): Array(String(version).utf8)], in: page.body)
    }

    /// `body` with every occurrence of each key replaced by its value (no key a prefix of another).
    static func replacing(_ replacements: [[UInt8]: [UInt8]], in body: [UInt8]) -> [UInt8] {
        let keys = Array(replacements.keys)
        var startsKey = [Bool](repeating: false, count: 256)
        for k in keys { if let f = k.first { startsKey[Int(f)] = true } }
        var out: [UInt8] = []
        out.reserveCapacity(body.count + 64)
        var i = 0, copiedTo = 0
        let n = body.count
        while i < n {
            if startsKey[Int(body[i])], let key = keys.first(where: { matches($0, body, at: i) }) {
                out.append(contentsOf: body[copiedTo..<i])
                out.append(contentsOf: replacements[key] ?? key)
                i += key.count
                copiedTo = i
            } else {
                i += 1
            }
        }
        out.append(contentsOf: body[copiedTo..<n])
        return out
    }

    private static func matches(_ key: [UInt8], _ b: [UInt8], at i: Int) -> Bool {
        guard i + key.count <= b.count else { return false }
        for k in key.indices where b[i + k] != key[k] { return false }
        return true
    }
}

extension WebApp {
    /// How many shared bodies were rendered and how many answers reused one (for tests).
    var sharedPageCounts: (renders: Int, reuses: Int) { (sharedPages.renders, sharedPages.reuses) }
    /// The stand-ins shared bodies carry (for tests: no answer may hold them).
    var sharedPageStandIns: (csrf: String, version: Int) { (sharedPages.csrfStandIn, sharedPages.versionStandIn) }
}
