extension Engine {
    /// Names the models stored and restored together (OKit's `Model.state`). Without it, the state is every
    /// registered model.
    public func setState(_ models: [Model]) {
        stateNames = models.map(\.name)
    }

    /// The models of the state, in order.
    public var stateModels: [Model] {
        guard let names = stateNames else { return models }
        return names.compactMap { model(named: $0) }
    }

    /// Stores every model of the state that changed. Every model is attempted; the first error is rethrown
    /// after the others were stored.
    public func storeState() throws {
        var firstError: Error?
        for m in stateModels {
            do { try store(m) } catch { if firstError == nil { firstError = error } }
        }
        if let firstError { throw firstError }
    }

    /// Reloads every model of the state from its storage (unsaved changes are dropped).
    public func restoreState() throws {
        for m in stateModels { try reload(m) }
    }
}
