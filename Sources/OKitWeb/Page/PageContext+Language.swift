import OKitEngine

extension PageContext {
    /// What the page takes from the person's app in their language: `<html lang>`, the built-in words (Back,
    /// Delete, Search, … — `BuiltInWords`, the app's own strings over OKit's), the time zone its date fields show
    /// and the breadcrumb's screens by their titles, not their ids. The server calls it for every page, before the kind's `prepare`.
    public mutating func adoptLanguage(of place: WebPagePlace) {
        let engine = place.shell.engine
        lang = PageContext.htmlLang(engine.locale.language)
        words = engine.builtInWords
        timeZone = engine.locale.timeZone
        decimalSeparator = engine.formatters.decimalSeparator(engine.locale)
        guard !breadcrumb.isEmpty else { return }
        let titles = place.shell.stackTitles()
        for i in breadcrumb.indices {
            let step = i < breadcrumbSteps.count ? breadcrumbSteps[i] : i
            if step >= 0, step < titles.count, let title = titles[step], !title.isEmpty { breadcrumb[i].title = title }
        }
    }

    /// A language as `<html lang>` writes it (`de-AT` for okit's `de_AT`).
    public static func htmlLang(_ language: String) -> String {
        language.replacingOccurrences(of: "_", with: "-")
    }
}
