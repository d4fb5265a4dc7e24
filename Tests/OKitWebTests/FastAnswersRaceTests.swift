import Foundation
import Synchronization
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// Writes and re-GETs interleaved from many tasks at once, as the server's threads make them (issue 39 item 2):
/// whatever the order, a re-GET started after a write was stored — and so after its `stale` event was pushed —
/// never shows the page from before that write.
@Suite struct FastAnswersRaceTests {
    static let writes = 24
    static let viewers = 8

    /// The last write whose command returned, and what went wrong.
    final class Record: Sendable {
        let stored = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        let problems = Mutex<[String]>([])
    }

    @Test func noReGetStartedAfterAWriteShowsThePageFromBeforeIt() async throws {
        let web = try await WebAppTests.serve()
        let writer = WebAppTests.Browser(web)
        _ = await writer.command(from: "/books", [("command", "add"), ("text", "W0")])
        var cookies: [String] = []
        var streams: [AsyncStream<String>] = []
        for _ in 0..<FastAnswersRaceTests.viewers {
            let b = WebAppTests.Browser(web)
            _ = await b.page("/books")
            streams.append(try #require(await b.get("/events").events))
            cookies.append(try #require(b.cookie))
        }
        let answeredBefore = await web.fastAnswerCount
        let record = Record()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for k in 1...FastAnswersRaceTests.writes {
                    _ = await writer.command(from: "/books", [("command", "add"), ("text", "W\(k)")])
                    record.stored.store(k, ordering: .sequentiallyConsistent)
                }
                // The viewers stop when they saw the last write; a viewer that never does is not waited for.
                let deadline = Date().addingTimeInterval(20)
                while record.finished.load(ordering: .sequentiallyConsistent) < FastAnswersRaceTests.viewers, Date() < deadline {
                    try? await Task.sleep(nanoseconds: 10_000_000)
                }
                _ = await web.storeAtExit()         // ends every stream
            }
            for (cookie, events) in zip(cookies, streams) {
                group.addTask {
                    await FastAnswersRaceTests.view(web, cookie, events, record)
                }
            }
        }
        let problems = record.problems.withLock { $0 }
        #expect(problems.isEmpty, "pages from before a stored write: \(problems.prefix(5))")
        #expect(await web.fastAnswerCount > answeredBefore, "the re-GETs were answered without the engine")
    }

    /// One viewer: on each `stale` event (and once more between events) it GETs its page and checks that it shows
    /// the last write stored before the GET started; it stops once its page shows the last write (or its stream
    /// ends).
    static func view(_ web: WebApp, _ cookie: String, _ events: AsyncStream<String>, _ record: Record) async {
        var it = events.makeAsyncIterator()
        while let event = await it.next() {
            guard event.hasPrefix("event: stale") else { continue }
            for _ in 0..<2 {
                let before = record.stored.load(ordering: .sequentiallyConsistent)
                let page = String(decoding: await web.respond(WebRequest(method: "GET", path: "/books", sessionCookie: cookie)).body,
                                  as: UTF8.self)
                if !page.contains(">W\(before)<") {
                    record.problems.withLock { $0.append("write \(before) stored, page without it") }
                }
                if page.contains(">W\(writes)<") {
                    record.finished.add(1, ordering: .sequentiallyConsistent)
                    return
                }
            }
        }
        record.problems.withLock { $0.append("a viewer never saw the last write") }
    }
}
