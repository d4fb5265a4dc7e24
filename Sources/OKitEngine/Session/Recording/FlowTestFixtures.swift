import Foundation

/// The data a recorded session starts from: when the data folder already holds model files (`<data>/okit/data/`),
/// they are copied aside before the app loads, and saved beside the test as `<name>_data/` when the recording is
/// written, so the test launches with them (`launch(app, { fixtures = "<name>_data" })`). A fresh data folder
/// (the app seeds its models) has nothing to copy: the test launches fresh too.
public enum FlowTestFixtures {
    /// Copies the model files of `dataFolder` to a temporary folder; nil when there are none.
    public static func capture(dataFolder: URL) throws -> URL? {
        let fm = FileManager.default
        let models = URL(fileURLWithPath: DataFolder(dataFolder).models, isDirectory: true)
        let files = (try? fm.contentsOfDirectory(at: models, includingPropertiesForKeys: nil)) ?? []
        guard files.contains(where: { !$0.hasDirectoryPath && !$0.lastPathComponent.hasPrefix(".") }) else { return nil }
        let copy = fm.temporaryDirectory.appendingPathComponent("okit-recording-\(UUID().uuidString)", isDirectory: true)
        try fm.copyItem(at: models, to: copy)
        return copy
    }
}
