import Foundation
import OKitFuzzTargets

/// libFuzzer's entry point (`swift build -sanitize=fuzzer`): one input through the target `OKIT_FUZZ` names
/// (`FuzzTargets.names`; `json` when unset). The targets themselves are the main package's `OKitFuzzTargets`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTargets.run(target, bytes)
    return 0
}

let target = ProcessInfo.processInfo.environment["OKIT_FUZZ"] ?? "json"
