import OKitEngine

/// `okit-run check`: a field whose rule messages name it by the label okit derives from its Lua name in a language
/// the app gives strings in (`Engine.fieldLabelGaps`), once per field and language, at the field's name in its
/// `okit.entity` (cli.md "Checking an app").
extension LuaApp {
    func fieldLabelLines(sources: inout [String: LuaDeclarationSource?]) -> [String] {
        engine.fieldLabelGaps().map { gap in
            let place = position(ofKey: gap.field, in: [], function: "entity", id: gap.entity,
                                 site: declarationSites[gap.entity] ?? nil, sources: &sources)
                ?? "\(appFile?.lastPathComponent ?? "app"):1:1"
            return "\(place): " + Self.fieldLabelMessage(gap)
        }
    }

    /// `field "categorie" of Depense has no string in "fr": its rule messages say "Categorie" (…); add …`.
    static func fieldLabelMessage(_ gap: FieldLabelGap) -> String {
        let language = ScreenCheckRun.languageName(gap.language)
        return "field \"\(gap.field)\" of \(gap.entity) has no string in \"\(gap.language)\": its rule messages say "
            + "\"\(gap.shown)\" (a page in \(language) shows \"\(gap.example)\"); add [\"\(gap.field)\"] = \"…\" to "
            + "okit.strings(\"\(gap.language)\", …) or give the field a label"
    }
}
