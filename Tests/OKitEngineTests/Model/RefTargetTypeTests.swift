import Foundation
import Testing
@testable import OKitEngine

/// A `ref T` resolves only to an entity of type T (lua-api.md "Fields"): ids are unique within a model, not across
/// models nor between codes given by hand, so when several loaded entities hold the id, the one of the ref's type is
/// taken. A German plant app's `ref Fertilizer` to catalog "1" came back as the garden's Room "1", and a `ref
/// Supplier` to supplier "1" as Fertilizer "1".
@Suite struct RefTargetTypeTests {
    final class Fixture {
        let engine: Engine
        let catalog: Model
        let garden: Model
        init() throws {
            let schema = Schema()
            try schema.entity("Fertilizer", fields: [FieldSpec("name", .string)])
            try schema.entity("Supplier", fields: [FieldSpec("name", .string)])
            try schema.entity("Catalog", fields: [try FieldSpec("fertilizers", "[Fertilizer]"), try FieldSpec("suppliers", "[Supplier]")])
            try schema.entity("Room", fields: [FieldSpec("name", .string)])
            try schema.entity("Plant", fields: [FieldSpec("name", .string), try FieldSpec("room", "ref Room"),
                                                try FieldSpec("fertilizer", "ref Fertilizer"), try FieldSpec("supplier", "ref Supplier"),
                                                try FieldSpec("favourites", "[ref Fertilizer]")])
            try schema.entity("Garden", fields: [try FieldSpec("plants", "[Plant]"), try FieldSpec("rooms", "[Room]"),
                                                 try FieldSpec("fertilizers", "[Fertilizer]")])
            try schema.validate()
            engine = Engine(schema: schema)
            catalog = try engine.register(model: "catalog", type: "Catalog", storage: TransientStorage(), storageKind: .transient)
            garden = try engine.register(model: "default", type: "Garden", storage: TransientStorage(), storageKind: .transient)
        }

        @discardableResult
        func add(_ type: String, id: String, _ name: String, to field: String, in model: Model) throws -> Entity {
            let e = try engine.make(type, ["id": .string(id), "name": .string(name)])
            try engine.insert(.entity(e), into: engine.collection(model.root, field), append: true)
            return e
        }

        func name(_ plant: Entity, _ path: String) throws -> String? { try engine.get(plant, path).displayString }
    }

    @Test func aRefToAnotherModelIsNotTakenByAnEntityOfAnotherTypeWithItsId() throws {
        let f = try Fixture()
        try f.add("Fertilizer", id: "1", "Hornspäne", to: "fertilizers", in: f.catalog)
        try f.add("Room", id: "1", "Küche", to: "rooms", in: f.garden)      // a code id, in the plant's own model
        let plant = try f.add("Plant", id: "P", "Basilikum", to: "plants", in: f.garden)
        try f.engine.set(plant, "room", .string("1"))
        try f.engine.set(plant, "fertilizer", .string("1"))
        #expect(try f.name(plant, "fertilizer/ref/name") == "Hornspäne", "not the Room of the plant's own model")
        #expect(try f.name(plant, "room/ref/name") == "Küche")
        let ref = try #require(plant["fertilizer"]?.entity)
        #expect(ref.refTarget?.type.name == "Fertilizer")
        #expect(f.engine.resolveRef(ref)?["name"]?.displayString == "Hornspäne")
        try f.engine.insert(.string("1"), into: f.engine.collection(plant, "favourites"), at: nil, append: true)
        let favourite = try #require(f.engine.collection(plant, "favourites").items.first?.entity)
        #expect(favourite.refTarget?.type.name == "Fertilizer", "a [ref T] element too")
        #expect(f.engine.warnings.isEmpty, "one Fertilizer holds the id: nothing is ambiguous (\(f.engine.warnings))")
    }

    @Test func aRefToATypeOfItsModelIsNotTakenByAnotherTypeWithTheSameId() throws {
        let f = try Fixture()
        try f.add("Fertilizer", id: "1", "Hornspäne", to: "fertilizers", in: f.catalog)
        let supplier = try f.add("Supplier", id: "1", "Gärtnerei Müller", to: "suppliers", in: f.catalog)
        let plant = try f.add("Plant", id: "P", "Basilikum", to: "plants", in: f.garden)
        try f.engine.set(plant, "supplier", .entity(supplier))
        #expect(try f.name(plant, "supplier/ref/name") == "Gärtnerei Müller")
        #expect(try f.engine.get(plant, "supplier/ref").entity === supplier)
        #expect(f.engine.warnings.isEmpty, "\(f.engine.warnings)")
    }

    @Test func aRefWhoseIdOnlyAnotherTypeHoldsResolvesToNothing() throws {
        let f = try Fixture()
        try f.add("Room", id: "1", "Küche", to: "rooms", in: f.garden)
        let plant = try f.add("Plant", id: "P", "Basilikum", to: "plants", in: f.garden)
        try f.engine.set(plant, "fertilizer", .string("1"))
        #expect(try f.engine.get(plant, "fertilizer/ref").isNull)
        #expect(plant["fertilizer"]?.entity?.refTarget == nil)
    }

    /// An entity of another type given to a `ref T` is refused (its id would resolve to nothing, or to a T of the
    /// same id); an id as text, and an entity of the type, are taken.
    @Test func anEntityOfAnotherTypeIsRefusedForARef() throws {
        let f = try Fixture()
        let fertilizer = try f.add("Fertilizer", id: "1", "Hornspäne", to: "fertilizers", in: f.catalog)
        let plant = try f.add("Plant", id: "P", "Basilikum", to: "plants", in: f.garden)
        #expect(throws: EngineError.self) { try f.engine.set(plant, "supplier", .entity(fertilizer)) }
        do { try f.engine.set(plant, "supplier", .entity(fertilizer)) } catch {
            #expect("\(error)" == "field \"supplier\" holds Supplier entities, not Fertilizer")
        }
        let favourites = try f.engine.collection(plant, "favourites")
        try f.engine.insert(.entity(fertilizer), into: favourites, at: nil, append: true)
        #expect(throws: EngineError.self) { try f.engine.insert(.entity(plant), into: favourites, at: nil, append: true) }
        let ref = try #require(favourites.items.first?.entity)
        #expect(throws: EngineError.self) { try f.engine.set(plant, "supplier", .entity(ref)) }
        try f.engine.set(plant, "fertilizer", .entity(ref))
        #expect(try f.name(plant, "fertilizer/ref/name") == "Hornspäne")
    }

    /// Two entities of the ref's own type hold the id: the one in the ref's model is taken, with the warning.
    @Test func twoEntitiesOfTheRefsTypeStillWarnAndPreferTheRefsModel() throws {
        let f = try Fixture()
        try f.add("Fertilizer", id: "1", "Hornspäne", to: "fertilizers", in: f.catalog)
        try f.add("Fertilizer", id: "1", "Kompost", to: "fertilizers", in: f.garden)
        let plant = try f.add("Plant", id: "P", "Basilikum", to: "plants", in: f.garden)
        try f.engine.set(plant, "fertilizer", .string("1"))
        #expect(try f.name(plant, "fertilizer/ref/name") == "Kompost")
        #expect(f.engine.warnings.contains { $0.contains("id \"1\" is used by more than one loaded Fertilizer") }, "\(f.engine.warnings)")
    }
}
