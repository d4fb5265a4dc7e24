import Foundation
import Synchronization
import Testing
@testable import OKitWeb

/// Re-GETs held while the engine makes the answers again after a write (FastAnswers): each is looked at again as
/// soon as its own session's answer is made, not at the end of the whole refresh, and the sessions someone is
/// waiting for are made first, in the order their re-GETs came.
@Suite struct FastAnswersWaitTests {
    static func entry(_ generation: UInt64) -> FastAnswers.Entry {
        FastAnswers.Entry(path: "/books", csrf: "t", version: 1,
                          template: PageTemplate(body: Array("page".utf8), standIns: [], csrfLength: 0, versionLength: 0),
                          generation: generation, loggedIn: true, lastSeen: Date(), idleLimit: 60)
    }

    @Test func aHeldReGetIsLookedAtAgainWhenItsOwnSessionsAnswerIsMade() {
        let answers = FastAnswers()
        answers.publish("a", FastAnswersWaitTests.entry(answers.generation))
        answers.publish("b", FastAnswersWaitTests.entry(answers.generation))
        #expect(answers.bump())
        let woken = Mutex<[String]>([])
        answers.afterRefresh(of: "b") { woken.withLock { $0.append("b") } }
        let (generation, due) = answers.beginRefresh()
        #expect(Set(due.map(\.id)) == ["a", "b"])
        answers.publish("a", FastAnswersWaitTests.entry(generation))
        #expect(woken.withLock { $0 }.isEmpty, "another session's answer wakes nobody")
        answers.publish("b", FastAnswersWaitTests.entry(generation))
        #expect(woken.withLock { $0 } == ["b"], "woken before the refresh ends")
        answers.endRefresh()
        #expect(woken.withLock { $0 } == ["b"], "and only once")
        guard case .answer = answers.lookup("b", path: "/books", anonymous: false, now: Date()) else {
            Issue.record("b's answer is current")
            return
        }
    }

    @Test func anAnswerOfAnOlderGenerationWakesNobodyUntilTheRefreshEnds() {
        let answers = FastAnswers()
        answers.publish("a", FastAnswersWaitTests.entry(answers.generation))
        _ = answers.bump()
        let woken = Mutex(0)
        answers.afterRefresh(of: "a") { woken.withLock { $0 += 1 } }
        let (generation, _) = answers.beginRefresh()
        _ = answers.bump()                                   // another write meanwhile
        answers.publish("a", FastAnswersWaitTests.entry(generation))
        #expect(woken.withLock { $0 } == 0, "made before the last write: not current")
        answers.endRefresh()
        #expect(woken.withLock { $0 } == 1)
    }

    @Test func theSessionsWaitedForComeFirstInTheOrderTheirReGetsCame() {
        let answers = FastAnswers()
        for id in ["a", "b", "c", "d"] { answers.publish(id, FastAnswersWaitTests.entry(answers.generation)) }
        _ = answers.bump()
        answers.afterRefresh(of: "c") {}
        answers.afterRefresh(of: "a") {}
        answers.afterRefresh(of: "c") {}
        answers.afterRefresh(of: "d") {}
        _ = answers.beginRefresh()
        var left: Set<String> = ["a", "b", "c"]             // d was made already
        var order: [String] = []
        while let id = answers.nextWaiting({ left.contains($0) }) {
            order.append(id)
            left.remove(id)
        }
        #expect(order == ["c", "a"])
        answers.endRefresh()
    }
}
