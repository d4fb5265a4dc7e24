import Foundation

/// A temporary folder (an app's data folder in most tests), removed at deinit.
public final class TempFolder: Sendable {
    public let url: URL
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("okit-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    public var path: String { url.path }
    /// The folder the file storage keeps models in.
    public var modelsFolder: URL { url.appendingPathComponent("okit/data") }
    public func file(_ name: String) -> URL { modelsFolder.appendingPathComponent(name) }
    public func write(_ name: String, _ text: String) throws {
        try FileManager.default.createDirectory(at: modelsFolder, withIntermediateDirectories: true)
        try text.write(to: file(name), atomically: true, encoding: .utf8)
    }
    public func read(_ name: String) -> String? { try? String(contentsOf: file(name), encoding: .utf8) }
    /// `text` written to `name` inside the folder (subfolders made); returns its URL.
    @discardableResult public func put(_ name: String, _ text: String) throws -> URL {
        let u = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: u.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: u, atomically: true, encoding: .utf8)
        return u
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}
