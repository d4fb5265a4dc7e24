import Foundation
import OKitBackends
import OKitEngine

/// The model `load_journal` loads (performance.md, "How each figure is measured"): the bench shop with a journal of 10,000 records of
/// single-field changes, made as a person makes them — one book renamed and stored at a time through the engine,
/// each store appending one record to `default.journal` (storage.md, "The journal").
enum JournalBench {
    /// How many records the journal should hold.
    static let records = 10_000

    /// Makes `folder` a data folder holding the shop `json` as its default model, then renames books of
    /// `BookSequence` one at a time, storing after each. Returns how many records the journal holds at the end:
    /// `records` unless the shop is too small for them (a journal is compacted into the model file once it
    /// would outgrow its budget; here the storage allows it the model file's size instead of the usual eighth,
    /// and the renames stop before the journal would outgrow that, so a small test shop keeps as many as fit;
    /// 100,000 books hold 10,000 records within the usual eighth).
    static func make(folder: URL, json: [UInt8], records: Int = records) throws -> Int {
        let models = URL(fileURLWithPath: DataFolder(folder).models, isDirectory: true)
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        try Data(json).write(to: models.appendingPathComponent("default.json"))
        let engine = Engine(schema: try BenchShop.schema(), clock: VirtualClock(), ids: SeededIds(seed: 1))
        let storage = try FileStorage(dataFolder: folder)
        storage.journalRatio = 1
        let model = try engine.register(model: "default", type: "Shop", storage: storage)
        let books = try engine.collection(model.root, "books").items.compactMap(\.entity)
        var sequence = BookSequence()
        var held = 0
        var journalBytes = 16   // the header's line, about
        var last = 0
        // The shop's file size is the journal's budget (journalRatio 1): stop before a record would cross it.
        for k in 0..<records where journalBytes + 2 * last <= json.count {
            try engine.set(books[sequence.next(books.count)], "name", .string("Renamed \(k)"))
            switch try engine.store(model) {
            case .journal(let bytes): held += 1; journalBytes += bytes; last = bytes
            case .full: held = 0; journalBytes = 16
            default: break
            }
        }
        return held
    }
}
