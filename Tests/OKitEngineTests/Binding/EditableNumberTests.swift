import Testing
@testable import OKitEngine

/// A text field bound to a number shows it as it reads it back in the app's language (an outside tester's German
/// app showed `1.125` in the field, which the same field read back as 1125).
@Suite struct EditableNumberTests {
    static func engine(_ language: String) throws -> (Engine, Entity) {
        let schema = Schema()
        try schema.entity("Plant", fields: [FieldSpec("size", .double)])
        try schema.validate()
        let engine = Engine(schema: schema)
        engine.locale = AppLocale(language: language)
        return (engine, try engine.make("Plant", [:]))
    }

    @Test func aNumberReadsBackAsItShows() throws {
        let (de, plant) = try Self.engine("de")
        #expect(de.editableText(1.125) == "1,125")
        #expect(de.editableText(1250) == "1250")
        #expect(de.editableText(-0.5) == "-0,5")
        #expect(de.editableText(1e-7) == Value.displayDouble(1e-7).replacingOccurrences(of: ".", with: ","))
        for d in [1.125, 1250, -0.5, 1234.5678, 0.1 + 0.2, 123456789.123, 3.141592653589793, 1e-7, 5e20] {
            let back = try de.textCellValue(.string(de.editableText(d)), on: plant, binding: "size", label: "Size")
            #expect(back?.doubleValue == d, "\(d) shown as \(de.editableText(d)) reads back as \(String(describing: back))")
        }
        let (en, _) = try Self.engine("en")
        #expect(en.editableText(1.125) == "1.125")
    }
}
