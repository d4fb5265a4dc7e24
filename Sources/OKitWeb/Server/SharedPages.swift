import Foundation
import OKitEngine

/// Pages that many browser sessions are shown alike (issue 39 item 2): after a write seen by a thousand viewers of
/// one list, each re-GET used to render the same page again. A page is now rendered once per place, query and
/// snapshot, with two stand-ins where a session's own values go — its CSRF token and its page version, the only
/// parts of a page that differ between people who see the same snapshot at the same place — and each session's
/// answer is that body with its own values put in.
///
/// The stand-ins are `~` and random hex, new for each process: no text a person types can be taken for one (and
/// none comes out of a page: `~` starts the only bytes the answer is searched for). A page with a notice, an error,
/// a recording bar or a covered app is never shared: those belong to one session.
final class SharedPages {
    struct Page {
        let snapshot: Snapshot
        let body: [UInt8]
    }

    /// The stand-ins for a session's CSRF token and its page version (hidden fields, image and web-cell URLs).
    let csrfStandIn = "~" + RandomToken.make()
    let versionStandIn = "~" + RandomToken.make()
    private var pages: [String: Page] = [:]
    /// How many bodies were rendered, and how many answers were made from one (for tests).
    private(set) var renders = 0
    private(set) var reuses = 0

    /// The body for a session at `place` (path and query) showing `snapshot`: the shared one when it was rendered
    /// for an equal snapshot, else rendered now by `render` (given the stand-ins) and kept for the others.
    func body(place: String, snapshot: Snapshot, csrf: String, version: Int,
              render: (_ csrf: String, _ version: String) -> [UInt8]) -> [UInt8] {
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
                                      Array(versionStandIn.utf8): Array(String(version).utf8)], in: page.body)
    }

    /// `body` with every stand-in replaced by its value (each key starts with `~`; none is a prefix of another).
    static func replacing(_ replacements: [[UInt8]: [UInt8]], in body: [UInt8]) -> [UInt8] {
        let tilde = UInt8(ascii: "~")
        var out: [UInt8] = []
        out.reserveCapacity(body.count + 64)
        var copiedTo = 0, i = 0
        let n = body.count
        while i < n {
            guard let t = body[i...].firstIndex(of: tilde) else { break }
            if let (key, value) = replacements.first(where: { matches($0.key, body, at: t) }) {
                out.append(contentsOf: body[copiedTo..<t])
                out.append(contentsOf: value)
                i = t + key.count
                copiedTo = i
            } else {
                i = t + 1
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
    var sharedPageStandIns: (csrf: String, version: String) { (sharedPages.csrfStandIn, sharedPages.versionStandIn) }
}
