import Foundation
import NIOCore
import OKitEngine

/// Pages that many browser sessions are shown alike (issue 39 item 2): after a write seen by a thousand viewers of
/// one list, each re-GET used to render the same page again. A page is now rendered once per place, query and
/// snapshot, with two stand-ins where a session's own values go — its CSRF token and its page version, the only
/// parts of a page that differ between people who see the same snapshot at the same place — and each session's
/// answer is that body with its own values put in.
///
/// The stand-ins are `~` and random hex, new for each process: no text a person types can be taken for one (and
/// none comes out of a page: `~` starts the only bytes the answer is searched for). A page with a notice, an error,
/// text the person typed and a cell refused (TypedTexts), a recording bar or a covered app is never shared: those
/// belong to one session.
final class SharedPages {
    struct Page {
        let snapshot: Snapshot
        /// The body with its stand-ins, which the server's threads also answer from (FastAnswers).
        let template: PageTemplate
        var body: [UInt8] { template.body }
    }

    /// The stand-ins for a session's CSRF token and its page version (hidden fields, image and web-cell URLs).
    let csrfStandIn = "~" + RandomToken.make()
    let versionStandIn = "~" + RandomToken.make()
    private var pages: [String: Page] = [:]
    /// How many bodies were rendered, and how many answers were made from one (for tests).
    private(set) var renders = 0
    private(set) var reuses = 0

    /// The page at `place` (path and query) for `snapshot`: the shared one when it was rendered for an equal
    /// snapshot, else rendered now by `render` (given the stand-ins) and kept for the others.
    func page(place: String, snapshot: Snapshot, render: (_ csrf: String, _ version: String) -> [UInt8]) -> Page {
        if let kept = pages[place], kept.snapshot == snapshot {
            reuses += 1
            return kept
        }
        let body = render(csrfStandIn, versionStandIn)
        let page = Page(snapshot: snapshot, template: PageTemplate(
            body: body, standIns: SharedPages.standIns(in: body, csrf: csrfBytes, version: versionBytes),
            csrfLength: csrfBytes.count, versionLength: versionBytes.count))
        renders += 1
        if pages.count >= 256, pages[place] == nil { pages.removeAll(keepingCapacity: true) }
        pages[place] = page
        return page
    }

    /// A shared page's body with a session's own CSRF token and version where the stand-ins are (also for a
    /// page a session was shown before and is shown again unchanged: it keeps the page, not a copy of its body).
    func answer(_ page: Page, csrf: String, version: Int) -> [UInt8] {
        page.template.answer(csrf: csrf, version: version)
    }

    private let csrfBytes: [UInt8]
    private let versionBytes: [UInt8]

    init() {
        csrfBytes = Array(csrfStandIn.utf8)
        versionBytes = Array(versionStandIn.utf8)
    }

    /// The stand-ins' places in a rendered body (each starts with `~`; neither is a prefix of the other).
    static func standIns(in body: [UInt8], csrf: [UInt8], version: [UInt8]) -> [(offset: Int, isCSRF: Bool)] {
        let tilde = UInt8(ascii: "~")
        var found: [(offset: Int, isCSRF: Bool)] = []
        var i = 0
        while let t = body[i...].firstIndex(of: tilde) {
            if matches(csrf, body, at: t) {
                found.append((t, true)); i = t + csrf.count
            } else if matches(version, body, at: t) {
                found.append((t, false)); i = t + version.count
            } else {
                i = t + 1
            }
        }
        return found
    }

    private static func matches(_ key: [UInt8], _ b: [UInt8], at i: Int) -> Bool {
        guard i + key.count <= b.count else { return false }
        for k in key.indices where b[i + k] != key[k] { return false }
        return true
    }
}

/// A shared page's body and where its stand-ins are: immutable, so the engine's thread and the server's threads
/// (FastAnswers) make answers from one copy.
struct PageTemplate: Sendable {
    let body: [UInt8]
    /// Where the stand-ins are in `body`, in order: their offset and whether it is the CSRF token's (else the
    /// version's). Found once, when the page is rendered; each answer copies the parts between them.
    let standIns: [(offset: Int, isCSRF: Bool)]
    let csrfLength: Int
    let versionLength: Int

    /// The body with a session's own CSRF token and version where the stand-ins are (a page of a list carries them
    /// in every form: the loop touches nothing but the body, the values and the output).
    func answer(csrf: String, version: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count + 64)
        parts(csrf: csrf, version: version) { out += $0 }
        return out
    }

    /// The same answer written at the end of `buffer` (the connection's own: one copy of the body, not two).
    func write(csrf: String, version: Int, into buffer: inout ByteBuffer) {
        parts(csrf: csrf, version: version) { buffer.writeBytes($0) }
    }

    /// The answer's bytes in order, handed to `emit`: the body's parts between the stand-ins, and the session's
    /// values in their places.
    private func parts(csrf: String, version: Int, _ emit: (ArraySlice<UInt8>) -> Void) {
        let csrf = Array(csrf.utf8)[...], version = Array(String(version).utf8)[...]
        var from = 0
        for s in standIns {
            emit(body[from..<s.offset])
            emit(s.isCSRF ? csrf : version)
            from = s.offset + (s.isCSRF ? csrfLength : versionLength)
        }
        emit(body[from...])
    }
}

extension WebApp {
    /// How many shared bodies were rendered and how many answers reused one (for tests).
    var sharedPageCounts: (renders: Int, reuses: Int) { (sharedPages.renders, sharedPages.reuses) }
    /// How many sessions keep a page body of their own to send again (for tests: one shown a shared page keeps
    /// that page, not a copy).
    var sessionsKeepingOwnBodies: Int {
        sessions.values.filter { if case .own = $0.renderedPage?.body { true } else { false } }.count
    }
    /// The stand-ins shared bodies carry (for tests: no answer may hold them).
    var sharedPageStandIns: (csrf: String, version: String) { (sharedPages.csrfStandIn, sharedPages.versionStandIn) }
}
