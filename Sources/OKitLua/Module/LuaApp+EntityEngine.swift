import OKitEngine

extension LuaApp {
    /// The engine an entity belongs to: this app's, or — in a flow test's state, which drives other apps — the
    /// engine of the entity's model, so a write from a test acts in the app the entity belongs to.
    func engine(of e: Entity?) -> Engine {
        guard drivesOtherApps, let other = e?.model?.engine else { return engine }
        return other
    }

    func engine(of c: EntityCollection) -> Engine { engine(of: c.owner) }
}
