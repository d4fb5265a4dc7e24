extension DetailDeclaration {
    /// Checks a detail screen on its declared type, else on every context it is opened with (unknown when nothing
    /// opens it); a settings screen on the settings model (or its declared type).
    public func check(_ run: ScreenCheckRun) {
        run.checkHelp(id, help)
        run.checkButtonIds(id, buttons)
        checkSectionParts(run)
        let declared = type.flatMap { run.engine.schema.type(named: $0) }
        if let type, declared == nil {
            run.issue(id, "type", "unknown entity type \"\(type)\"" + NameSuggestion.hint(for: type, in: run.engine.schema.types.keys), at: ["type"])
        }
        var bases: [EntityType?]
        if let declared {
            bases = [declared]
        } else if kind == "settings" {
            bases = [run.settingsContext]
        } else {
            bases = []
            for o in run.openers(of: id, fallback: nil) where !bases.contains(where: { $0 === o.context }) { bases.append(o.context) }
        }
        for base in bases { check(run, on: base) }
    }

    func check(_ run: ScreenCheckRun, on base: EntityType?) {
        run.run(id, "contextPath", contextPath, base)
        let context = run.context(base, after: contextPath)
        run.run(id, "titleTap", titleTap, context)
        // OKit's controller-level actions run on the screen's context.
        for (p, action) in actions.sorted(by: { $0.key < $1.key }) { run.run(id, p, action, context) }
        for (p, t) in [("titlePath", titlePath), ("subTitlePath", subTitlePath), ("titleCount", titleCount),
                       ("subTitleObject", subTitleObject), ("subTitleObjectPlural", subTitleObjectPlural),
                       ("subTitleSwap", subTitleSwap), ("promptPath", promptPath), ("edit", edit),
                       ("editAlways", editAlways), ("editInherit", editInherit), ("sectionHeaders", sectionHeaders),
                       ("sectionFooters", sectionFooters), ("sectionsShowDisplay", sectionsShowDisplay),
                       ("sectionsShowEdit", sectionsShowEdit)] {
            run.run(id, p, t, context, flag: FlagProperties.detail.contains(p))
        }
        for (p, hook) in [("onAppear", hooks.onAppear), ("onDisappear", hooks.onDisappear), ("onEdit", hooks.onEdit)] {
            run.run(id, p, hook, context)
        }
        let mayEdit = CellDeclaration.screenMayEdit(edit: edit, editAlways: editAlways, editInherit: editInherit)
        for (i, s) in sections.enumerated() {
            let site: [DeclarationKey] = ["sections", .index(i + 1)]
            for (p, t) in [("header", s.header), ("footer", s.footer), ("showDisplay", s.showDisplay), ("showEdit", s.showEdit)] {
                run.run(id, p, t, context, at: site + [.name(p)], flag: FlagProperties.detail.contains(p))
            }
            for (j, c) in s.cells.enumerated() {
                c.check(run, screen: id, name: "cell \(c.defaultId)", site: site + [.index(j + 1)], parent: context,
                        mayEdit: mayEdit)
            }
        }
        let opener = Opener.plain(context, from: "\(kind) \(id)")
        for (i, b) in buttons.enumerated() { b.check(run, screen: id, index: i, on: context, opens: opener) }
    }
}

extension DetailDeclaration {
    /// A multipart per section (`sectionHeaders`, …) with more parts than the screen has sections: the parts past the
    /// last section are never shown (fewer is fine: a missing part is the default, as an empty one).
    func checkSectionParts(_ run: ScreenCheckRun) {
        for (p, t) in [("sectionHeaders", sectionHeaders), ("sectionFooters", sectionFooters),
                       ("sectionsShowDisplay", sectionsShowDisplay), ("sectionsShowEdit", sectionsShowEdit)] {
            let n = ScreenCheckRun.usedParts(t), extra = n - sections.count
            guard extra > 0 else { continue }
            run.issue(id, p, "the screen has \(sections.count) section\(sections.count == 1 ? "" : "s") and \(p) \(n) parts: "
                + (extra == 1 ? "the last belongs" : "the last \(extra) belong") + " to no section and "
                + (extra == 1 ? "is" : "are") + " never used; give one part per section, in order (an empty part keeps the default)",
                at: [.name(p)])
        }
    }
}

extension ScreenCheckRun {
    /// How many parts of a multipart binding count: up to the last that is not empty (`"#true,,"` is 1); 0 for one
    /// that does not parse (its own check says why).
    static func usedParts(_ text: String) -> Int {
        guard let parts = try? BindingParser.partTexts(text) else { return 0 }
        return (parts.lastIndex { !$0.isEmpty } ?? -1) + 1
    }
}
