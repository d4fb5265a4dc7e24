import Foundation
import OKitTestSupport
import Testing

/// The token file of `okit-run serve --token-file` (web.md "Security"; a stranger's round six): an empty one is
/// said to be empty (it said it could not be read), and one other users of the machine may read is taken with a
/// warning and the `chmod` that ends it, as ssh warns of a key file open to others.
@Suite(.serialized) struct ServeTokenFileTests {
    static func serve(_ tokenFile: String, _ folder: TempFolder) throws -> ChildProcess {
        let appFile = folder.url.appendingPathComponent("app.lua")
        try ServeProcessTests.app.write(to: appFile, atomically: true, encoding: .utf8)
        return try ChildProcess.start(OKitRun.binary.path, ["serve", appFile.path, "--data", folder.url.appendingPathComponent("data").path,
                                                            "--port", "0", "--token-file", tokenFile], stderr: .stdout)
    }

    @Test func anEmptyTokenFileIsSaidToBeEmpty() throws {
        let folder = try TempFolder()
        for path in ["/dev/null", folder.url.appendingPathComponent("empty").path] {
            FileManager.default.createFile(atPath: folder.url.appendingPathComponent("empty").path, contents: Data("\n".utf8))
            let child = try Self.serve(path, folder)
            let result = child.wait(timeout: 60)
            #expect(result.code == 2 && result.out.contains("the token file \(path) is empty"), "\(result.out)")
            #expect(!result.out.contains("cannot read"))
        }
        let missing = try Self.serve(folder.url.appendingPathComponent("missing").path, folder).wait(timeout: 60)
        #expect(missing.code == 2 && missing.out.contains("cannot read the token file"), "\(missing.out)")
    }

    @Test func aTokenFileOthersMayReadIsWarnedOfWithTheChmod() throws {
        let folder = try TempFolder()
        let token = folder.url.appendingPathComponent("token").path
        FileManager.default.createFile(atPath: token, contents: Data("s3cret-token-9\n".utf8), attributes: [.posixPermissions: 0o644])
        let open = try Self.serve(token, folder)
        #expect(ServeProcessTests.port(open) != nil, "it serves: \(open.outputSoFar)")
        #expect(open.outputSoFar.contains("warning: other users of this machine may read or change the token file \(token) (mode 644): chmod 600 \(token)"),
                "\(open.outputSoFar)")
        open.signal(SIGKILL)
        _ = open.wait(timeout: 10)

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: token)
        let kept = try Self.serve(token, folder)
        defer { kept.signal(SIGKILL); _ = kept.wait(timeout: 10) }
        #expect(ServeProcessTests.port(kept) != nil && !kept.outputSoFar.contains("the token file"), "\(kept.outputSoFar)")
    }
}
