extension ScreenKinds {
    /// The screen kinds every app has, each from its folder of Screens/. A kind of one's own is registered on
    /// top (`SessionOptions.screenKinds.register(…)`).
    public static let builtIn = ScreenKinds([.list, .detail, .settings, .selection, .menu, .backups])
}
