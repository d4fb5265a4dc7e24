import OKitEngine

/// The backups screen: a create form, the backups with restore, download and delete, an upload form.
extension PageRenderer {
    func backupsBody() -> [HTMLNode] {
        var out: [HTMLNode] = [createBackupForm()]
        out += screen.sections.enumerated().map { s, section in
            sectionNode(section, index: s, ordered: false) { r, row in backupRow(row, section: s, index: r) }
        }
        out.append(moreRows())
        out.append(uploadBackupForm())
        return out
    }

    /// A labelled input inside a paragraph.
    func field(_ label: String, id: String, type: String, name: String, autocomplete: String, required: Bool) -> HTMLNode {
        .el("p", [.classes("okit-field")], [
            .el("label", [.attr("for", id)], text: label),
            .el("input", [.attr("type", type), .attr("id", id), .attr("name", name),
                          .attr("autocomplete", autocomplete), .bool("required", required)]),
        ])
    }

    /// Create: `add` with `fields` = name (and the password twice); the server answers the `New Backup` prompt
    /// that `add` opens with these fields.
    func createBackupForm() -> HTMLNode {
        var fields = [field(words(.name), id: "okit-backup-name", type: "text", name: "fields", autocomplete: "off", required: true)]
        if context.backupPasswords {
            fields.append(field(words(.password), id: "okit-backup-password", type: "password", name: "fields",
                                autocomplete: "new-password", required: true))
            fields.append(field(words(.confirmPassword), id: "okit-backup-confirm", type: "password", name: "fields",
                                autocomplete: "new-password", required: true))
        }
        fields.append(.el("p", [.classes("okit-actions")], [
            .el("button", [.attr("type", "submit"), .classes("okit-button", "okit-default")], text: words(.createBackup)),
        ]))
        return .el("section", [.classes("okit-section", "okit-backup-create"), .attr("aria-labelledby", "okit-backup-create")], [
            .el("h2", [.attr("id", "okit-backup-create")], text: words(.newBackup)),
            postForm("add", [], fields),
        ])
    }

    /// A backup: its name and date, a download link, restore (`tap`: the confirmation, then for a secure backup the
    /// password, come as dialogs) and delete.
    func backupRow(_ row: RowSnapshot, section s: Int, index r: Int) -> HTMLNode {
        let address = address(row, section: s, index: r)
        let name = row.id ?? row.text ?? ""
        let restore = postForm("tap", [("row", address)], class: "okit-restore", [
            .el("button", [.attr("type", "submit"), .classes("okit-button")], text: words(.restore)),
        ])
        var actions: [HTMLNode] = [
            .el("a", [.attr("href", context.backupDownloadURL(name)), .attr("download", ""), .classes("okit-button")],
                text: words(.download)),
            restore,
        ]
        if row.delete { actions.append(commandButton("delete", [("row", address)], title: words(.delete), class: "okit-delete")) }
        return .el("li", [.attr("id", domID("row", section: s, index: r)), .classes("okit-row", "okit-backup")], [
            .el("div", [.classes("okit-row-main")], rowLabel(row, section: s, index: r)),
            .el("div", [.classes("okit-row-actions")], actions),
        ])
    }

    /// Upload: a multipart form to `context.backupUploadURL` with the file as `backup` (and, when the app's backups
    /// are secure, its `password`, with which the server checks it before keeping it).
    func uploadBackupForm() -> HTMLNode {
        .el("section", [.classes("okit-section", "okit-backup-upload"), .attr("aria-labelledby", "okit-backup-upload")], [
            .el("h2", [.attr("id", "okit-backup-upload")], text: words(.uploadBackup)),
            postForm("upload", [], enctype: "multipart/form-data", action: context.backupUploadURL, [
                .el("p", [.classes("okit-field")], [
                    .el("label", [.attr("for", "okit-backup-file")], text: words(.backupFile)),
                    .el("input", [.attr("type", "file"), .attr("id", "okit-backup-file"), .attr("name", "backup"),
                                  .attr("accept", ".okbackup"), .bool("required")]),
                ]),
                context.backupPasswords
                    ? field(words(.securePassword), id: "okit-backup-upload-password", type: "password", name: "password",
                            autocomplete: "off", required: false)
                    : .empty,
                .el("p", [.classes("okit-actions")], [
                    .el("button", [.attr("type", "submit"), .classes("okit-button")], text: words(.upload)),
                ]),
            ]),
        ])
    }
}
