import Testing
@testable import OKitEngine

/// The places a shell opened itself (`OpenedSteps`): web.md says the last 1,024 are remembered — the 1,025th
/// opened must not forget the 1,024 before it (it cleared them all).
@Suite struct OpenedStepsTests {
    static func key(_ n: Int) -> OpenedSteps.Key { OpenedSteps.Key(under: "home", screen: "book", entity: "b\(n)", presented: false) }

    @Test func theLast1024AreRememberedPastTheFirstThousand() {
        var steps = OpenedSteps()
        for n in 0..<(OpenedSteps.generation + 1) { steps.insert(Self.key(n)) }
        for n in 1...OpenedSteps.generation { #expect(steps.contains(Self.key(n)), "step \(n)") }
        for n in 0..<(3 * OpenedSteps.generation) { steps.insert(Self.key(10_000 + n)) }
        let last = (2 * OpenedSteps.generation)..<(3 * OpenedSteps.generation)
        #expect(last.allSatisfy { steps.contains(Self.key(10_000 + $0)) })
        #expect(!steps.contains(Self.key(5)), "bounded: the oldest go")
    }
}
