/// The built-in extension functions. STUB: being written.
public enum BuiltinExtensions {
    public static func register(in registry: ExtensionRegistry) {}
}
