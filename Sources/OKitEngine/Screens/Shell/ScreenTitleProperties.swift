/// The title properties every table screen has (OKit's ModelBaseTableController, the superclass of its list and
/// detail controllers; okit-behaviour §5.1 "Title"): lists, menus, selections, details and settings screens
/// compute their title and subtitle with this one function.
struct ScreenTitleProperties {
    var titlePath = ""
    var subTitlePath = ""
    /// A count: `"N objects"` as the subtitle with `subTitleObject`, else `"Title (N)"`, when there is no subtitle.
    var titleCount = ""
    var subTitleObject = ""
    var subTitleObjectPlural = ""
    /// Swaps title and subtitle (a flag, default false).
    var subTitleSwap = ""

    /// Title and subtitle on `context`. A `titleCount` that does not evaluate to a number counts 0, as OKit's
    /// `getInt(titleCount) ?? 0` — on a list too (it counted the list's rows).
    func evaluate(_ engine: Engine, on context: Entity?) throws -> (title: String?, subtitle: String?) {
        // OKit computes the title only when `titlePath` is set (§5.1 "Title"): a subtitle alone is not shown.
        guard !titlePath.isEmpty else { return (nil, nil) }
        var title = try engine.text(context, titlePath)
        var subtitle = try engine.text(context, subTitlePath)
        if subtitle == nil, !titleCount.isEmpty {
            let n = try engine.get(context, titleCount, mode: .display).intValue ?? 0
            if !subTitleObject.isEmpty {
                let category = engine.pluralCategory(Double(n))
                let key = subTitleObjectPlural.isEmpty ? ScreenTitleProperties.localizedKey(subTitleObject, engine).map { $0 + "s" }
                    : ScreenTitleProperties.localizedKey(subTitleObjectPlural, engine)
                if let form = key.flatMap({ engine.pluralForm($0, category) }) {
                    subtitle = "\(n) \(form)"   // the app's form of the count's category (`5 книг`)
                } else {
                    let one = try engine.text(context, subTitleObject) ?? ""
                    let many = category == .one ? one
                        : try engine.text(context, subTitleObjectPlural) ?? ScreenTitleProperties.plural(of: subTitleObject, one, engine)
                    subtitle = "\(n) \(many)"
                }
            } else if let t = title {
                title = "\(t) (\(n))"
            }
        }
        // Swapped whether or not there is a subtitle, as OKit does: the title then shows as the subtitle.
        if try engine.flag(subTitleSwap, on: context, default: false) { swap(&title, &subtitle) }
        return (title, subtitle)
    }

    /// The plural of a `subTitleObject` (OKit's `key + "s"`): for a localized `%Item` the app's string of the key
    /// `Items` ("Einträge"), else the singular's text + "s" localized, as before ("3 Items").
    static func plural(of object: String, _ one: String, _ engine: Engine) -> String {
        if let key = localizedKey(object, engine), let many = engine.strings.string(key + "s", language: engine.locale.language) {
            return many
        }
        return engine.localize(one + "s")
    }

    /// The key of a binding that is one `%key` (`%books`), else nil.
    static func localizedKey(_ text: String, _ engine: Engine) -> String? {
        guard !text.isEmpty, let b = try? engine.compile(text), b.parts.count == 1, case .localized(let key) = b.parts[0] else { return nil }
        return key
    }
}
