import Foundation
import OKitWeb

/// `serve_reget_1000_inprocess` (issue 39 item 2, `--only`): what the server itself spends answering a thousand
/// viewers' re-GETs after one write, with no socket and no client in the way — 1,000 sessions on the list page,
/// a write renames a book they show, then every viewer's GET is answered one after another (as the engine's
/// executor answers them). Reports the total ms for all of them (median of the rounds); docs/performance.md
/// "Serving many people" reads it beside `serve_reget_p99_1000`, which the clients measure over HTTP.
extension WebBench {
    func regetInProcess(viewers count: Int = 1000, rounds: Int = 5) async throws -> (totalMs: Double, perViewerUs: Double) {
        let (first, writer, book) = try await readerAndWriter()
        var viewers = [first]
        for _ in 1..<count { viewers.append(BenchBrowser(web)) }
        // Each viewer comes back once with its cookie (as a page's event stream does): a session whose browser never
        // came back makes room for newer ones (16 per client address).
        for v in viewers {
            guard (await v.get("/books")).status == 200, (await v.get("/books")).status == 200 else {
                throw BenchError("a viewer's books page did not answer 200")
            }
        }
        var totals: [Double] = []
        for k in 0...rounds {
            try await write(writer, book, "Alpha Alpha Alpha reget \(k)")
            let t = BenchRunner.now()
            for v in viewers {
                let r = await v.get("/books")
                guard r.status == 200 else { throw BenchError("a viewer's re-GET answered \(r.status)") }
            }
            if k > 0 { totals.append(WebBench.ms(since: t)) }     // the first round warms up
        }
        let total = WebBench.median(totals)
        return (total, total * 1000 / Double(count))
    }
}
