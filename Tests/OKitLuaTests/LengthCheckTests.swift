import Foundation
import OKitTestSupport
import Testing

/// `scripts/lib/check_lengths.py`, which `scripts/test` runs on Sources/: what it counts as a function and as its
/// lines, on Swift it is given.
@Suite struct LengthCheckTests {
    /// `n` lines of a body.
    static func lines(_ n: Int) -> String { (0..<n).map { "        x += \($0)" }.joined(separator: "\n") }

    /// Runs the check on a folder holding `text` as `a.swift`: its exit code and its lines.
    static func check(_ text: String) throws -> (code: Int32, lines: [String]) {
        let folder = try TempFolder()
        try text.write(to: folder.url.appendingPathComponent("a.swift"), atomically: true, encoding: .utf8)
        let script = OKitRun.root.appendingPathComponent("scripts/lib/check_lengths.py").path
        let r = try ChildProcess.run("/usr/bin/env", ["python3", script, folder.path])
        let out = r.out.split(separator: "\n").map { String($0.dropFirst(folder.path.count + 1)) }
        return (r.code, out)
    }

    @Test func longFunctionsInitsSubscriptsAndComputedPropertiesAreFound() throws {
        let body = Self.lines(85)
        let r = try Self.check("""
        struct A {
            func long() {
        \(body)
            }
            init?(x: Int) {
        \(body)
            }
            var computed: Int {
        \(body)
                return 1
            }
            subscript(i: Int) -> Int {
        \(body)
            }
            package func generic<T: Equatable>(_ a: T,
                                               b: (Int) -> Bool = { _ in false })
                throws -> Int where T: Hashable
            {
        \(body)
            }
            deinit {
        \(body)
            }
        }
        """)
        #expect(r.code == 1)
        #expect(r.lines == [
            "a.swift: 528 lines (at most 400)",
            "a.swift:2: long is 87 lines (at most 80)",
            "a.swift:89: init is 87 lines (at most 80)",
            "a.swift:176: var computed is 88 lines (at most 80)",
            "a.swift:264: subscript is 87 lines (at most 80)",
            "a.swift:351: generic is 90 lines (at most 80)",
            "a.swift:441: deinit is 87 lines (at most 80)",
        ])
    }

    @Test func bracesInStringsAndCommentsAndClosuresAsValuesAreNotFunctions() throws {
        let body = Self.lines(85)
        let r = try Self.check(##"""
        struct B {
            /// doc with { brace
            func short() {
                let s = "}}} \(f({ $0 }) ) {"
                let m = """
                }}}
                {
                """
                let r = #"raw "}" \#(x) }"#
                /* block /* nested } */ } */
                // }
            }
            var stored: [Int] = [
        \##(body)
            ]
            lazy var closure: Int = {
        \##(body)
                return 1
            }()
            func next() { }
        }
        protocol P {
            func requirement() -> Int
            var v: Int { get }
        }
        """##)
        #expect(r.code == 0)
        #expect(r.lines == [])
    }

    @Test func aClosureCountsInTheFunctionThatHoldsIt() throws {
        let r = try Self.check("""
        func caller() {
            run { arg in
        \(Self.lines(85))
            }
        }
        """)
        #expect(r.code == 1)
        #expect(r.lines == ["a.swift:1: caller is 89 lines (at most 80)"])
    }
}
