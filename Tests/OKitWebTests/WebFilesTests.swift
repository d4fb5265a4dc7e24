import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// Files over the web in-process: images and web cells by their place on the session's page, backups downloaded
/// (only listed ones, behind the token) and uploaded (CSRF first, verified like a restore, never restored), and the
/// multipart parser's refusals.
@Suite struct WebFilesTests {
    typealias Browser = WebAppTests.Browser
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 24)
    /// An image kept as a base64 data: URL in a text field (Action Data's way).
    static let badge: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 9, count: 64)

    /// A stored bookshop in a fresh data folder: a list whose rows show the cover, a detail screen with an image
    /// cell, an HTML web cell and a URL web cell; one book "Dune" with a PNG cover, and a backup "first".
    static func serve(_ options: ServeOptions = .unhurried, protectionMinutes: Double? = nil) async throws -> (WebApp, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("okit-web-files-" + UUID().uuidString)
        let web = WebApp(options: options)
        try await web.load {
            var so = SessionOptions()
            so.dataFolder = folder
            let session = AppSession(options: so)
            let schema = session.engine.schema
            try schema.entity("Book", fields: [FieldSpec("name", .string), FieldSpec("cover", .image, optional: true),
                                               FieldSpec("page", .string), FieldSpec("site", .string), FieldSpec("badge", .string)])
            try schema.entity("Shop", fields: [try FieldSpec("books", "[Book]")])
            try schema.validate()
            let engine = session.engine
            let model = try engine.register(model: "default", type: "Shop", storage: try session.dataFolderStorage())
            let book = try engine.make("Book", ["name": .string("Dune"), "page": .string("<p onclick=x()>Spice <script>alert(1)</script></p>"),
                                                "site": .string("https://example.org/dune"),
                                                "badge": .string("data:image/png;base64," + Data(badge).base64EncodedString())])
            try engine.insert(.entity(book), into: try engine.collection(model.root, "books"), append: true)
            try engine.writeBytes(book, "cover", png, format: "image/png", label: "Cover of Dune")
            var books = ListDeclaration(id: "books")
            books.type = "Book"
            books.dataPath = "books"; books.titlePath = "%Books"; books.segue = "book"
            books.cell = CellDeclaration(kind: "table", properties: ["path": "name", "imagePath": "cover"])
            var detail = DetailDeclaration(id: "book")
            detail.titlePath = "name"
            detail.sections = [SectionDeclaration(cells: [
                CellDeclaration(kind: "image", properties: ["path": "%Cover", "imagePath": "cover"]),
                CellDeclaration(kind: "web", id: "page", properties: ["path": "%Page", "htmlPath": "page"]),
                CellDeclaration(kind: "web", id: "site", properties: ["path": "%Site", "urlPath": "site"]),
                CellDeclaration(kind: "image", id: "badge", properties: ["path": "%Badge", "imagePath": "badge"]),
            ])]
            try session.shell.declare(books)
            try session.shell.declare(detail)
            try session.shell.declare(BackupsDeclaration(id: "backups"))
            if let minutes = protectionMinutes {
                session.shell.settingsBindings["protection"] = "#true"
                session.shell.settingsBindings["protectionTimeout"] = "#\(minutes)"
            }
            try session.shell.declare(WebAppTests.menu(MenuItem(title: "%Backups", present: "backups")))
            try session.start(home: ["books"], menu: "menu")
            try session.createBackup(name: "first", password: nil)
            return WebHostedApp(session: session, owner: nil)
        }
        return (web, folder)
    }

    static func header(_ r: WebResponse, _ name: String) -> String? { WebAppTests.header(r, name) }

    /// Every `attribute="…"` value in the page that starts with `prefix`.
    static func urls(_ attribute: String, _ prefix: String, in html: String) -> [String] {
        html.components(separatedBy: "\(attribute)=\"\(prefix)").dropFirst().map { prefix + String($0.prefix { $0 != "\"" }) }
            .map { $0.replacingOccurrences(of: "&amp;", with: "&") }
    }

    /// The book's detail page (following the list row's link).
    static func detail(_ b: Browser) async throws -> (path: String, html: String) {
        let list = await b.page("/books")
        let link = try #require(urls("href", "/books/book~", in: list).first)
        return (link, await b.page(link))
    }

    @Test func imagesAreServedByTheirPlaceOnThePageWithTheirFormat() async throws {
        let (web, _) = try await WebFilesTests.serve()
        let b = Browser(web)
        let list = await b.page("/books")
        let rowImage = try #require(WebFilesTests.urls("src", "/image/", in: list).first)
        let r = await b.get(rowImage)
        #expect(r.status == 200 && r.body == WebFilesTests.png)
        #expect(WebFilesTests.header(r, "Content-Type") == "image/png")
        #expect(WebFilesTests.header(r, "X-Content-Type-Options") == "nosniff")
        let (_, page) = try await WebFilesTests.detail(b)
        let cellImages = WebFilesTests.urls("src", "/image/", in: page)
        #expect(cellImages.count == 2, "\(cellImages)")
        let cellImage = try #require(cellImages.first)
        #expect(await b.get(cellImage).body == WebFilesTests.png)
        // A base64 text is served decoded, with the format its bytes say.
        let badge = await b.get(try #require(cellImages.last))
        #expect(badge.status == 200 && badge.body == WebFilesTests.badge)
        #expect(WebFilesTests.header(badge, "Content-Type") == "image/png")
        // No such place, or no numbers: 404; a path never reaches the file system.
        #expect(await b.get("/image/0/9").status == 404)
        #expect(await b.get("/image/..%2F..%2Fetc%2Fpasswd/0").status == 404)
        #expect(await b.get("/image/0/1").status == 404)     // the HTML web cell has no image
    }

    @Test func imageFormatsAreToldByTheirBytes() {
        #expect(WebImageFormat(WebFilesTests.png) == .png)
        #expect(WebImageFormat([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(WebImageFormat(Array("GIF89a....".utf8)) == .gif)
        #expect(WebImageFormat(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        let svg = WebImageFormat(Array("\u{FEFF}  <?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8))
        #expect(svg == .svg && svg?.policy == "sandbox; default-src 'none'; style-src 'unsafe-inline'", "an SVG's forms and links are sandboxed")
        #expect(svg?.contentType == "image/svg+xml")
        #expect(WebImageFormat(Array("<html><script>".utf8)) == nil)
        #expect(WebImageFormat([]) == nil)
    }

    @Test func aWebCellsHTMLComesSandboxedAndAURLCellIsALink() async throws {
        let (web, _) = try await WebFilesTests.serve()
        let b = Browser(web)
        let (_, page) = try await WebFilesTests.detail(b)
        let frame = try #require(WebFilesTests.urls("src", "/web/", in: page).first)
        #expect(page.contains("<iframe") && page.contains("sandbox"))
        let r = await b.get(frame)
        #expect(r.status == 200 && String(decoding: r.body, as: UTF8.self).contains("Spice"))
        #expect(WebFilesTests.header(r, "Content-Security-Policy")?.hasPrefix("sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'") == true)
        #expect(WebFilesTests.header(r, "X-Content-Type-Options") == "nosniff")
        #expect(WebFilesTests.header(r, "Content-Type") == "text/html; charset=utf-8")
        #expect(page.contains("href=\"https://example.org/dune\""))
        #expect(WebFilesTests.urls("src", "/web/", in: page).count == 1)
        #expect(await b.get("/web/0/2").status == 404)      // the URL cell has no HTML of its own
    }

    @Test func aBackupDownloadsOnlyWhenListedAndBehindTheToken() async throws {
        let (web, folder) = try await WebFilesTests.serve()
        let b = Browser(web)
        _ = await b.page("/books")
        let r = await b.get("/backups/first")
        #expect(r.status == 200)
        #expect(WebFilesTests.header(r, "Content-Type") == "application/octet-stream")
        #expect(WebFilesTests.header(r, "Content-Disposition")?.hasPrefix("attachment; filename=\"first.okbackup\"") == true)
        let file = try #require(r.file)
        #expect(file.hasPrefix(folder.path) && FileManager.default.fileExists(atPath: file))
        #expect(await b.get("/backups/second").status == 404)
        #expect(await b.get("/backups/..%2F..%2Fokit%2Fkeys%2Fdata.key").status == 404)
        #expect(await b.get("/backups/first.okbackup").status == 404)
        // A download without a cookie is answered, and makes no session (files never do).
        let sessions = await web.sessionCount
        let bare = await web.respond(WebRequest(method: "GET", path: "/backups/first"))
        #expect(bare.status == 200 && !bare.headers.contains { $0.name == "Set-Cookie" })
        #expect(await web.sessionCount == sessions)

        var options = ServeOptions()
        options.token = "a-long-token"
        let (guarded, _) = try await WebFilesTests.serve(options)
        let c = Browser(guarded)
        _ = await c.page("/books")
        #expect(await c.get("/backups/first").status == 403)
        let backup = try Array(Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(await WebFilesTests.upload(c, backup).status == 403)
    }

    /// A session covered by protection shows nothing of the models: nor does it download or upload a backup, which
    /// is all of them (a locked browser left open gave the whole data set to whoever typed the URL).
    @Test func aCoveredSessionNeitherDownloadsNorUploadsABackup() async throws {
        var options = ServeOptions.unhurried
        options.newSessionSeconds = 7200
        let (web, _) = try await WebFilesTests.serve(options, protectionMinutes: 20)
        let b = Browser(web)
        _ = await b.page("/books")
        let file = try #require(await b.get("/backups/first").file)
        await web.sweepIdle(now: Date().addingTimeInterval(3600))
        #expect(await b.page("/books").contains("type=\"password\""))
        let refused = await b.get("/backups/first")
        #expect(refused.status == 403 && refused.file == nil)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("The app is locked: unlock it first"))
        let backup = try Array(Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(await WebFilesTests.upload(b, backup).status == 403)
        // Refused before a byte of the body is written, and no image of the page shown before is served.
        var admit = WebRequest(method: "POST", path: "/backups", sessionCookie: b.cookie)
        admit.headerCSRF = Browser.attribute("data-csrf", await b.page("/books"))
        if case .failure(let f) = await web.admitUpload(admit) { #expect(f.response.status == 403) } else { Issue.record("admitted while covered") }
        #expect(await b.get("/image/0/0").status == 403)
        _ = await b.command(from: "/books", [("command", "authenticate"), ("passphrase", "x")])
        #expect(await b.get("/backups/first").status == 200, "unlocked: as before")
    }

    /// Restore asks before it replaces anything, whatever a form carries: its confirmation is a dialog the person
    /// answers. Create answers only its own prompt: the alert that follows (a name already taken) is shown.
    @Test func noSinglePostRestoresAndACreatesRefusalIsShown() async throws {
        let (web, _) = try await WebFilesTests.serve()
        let b = Browser(web)
        let backups = await b.page("/books/!/backups")
        try #require(backups.contains("<h1 id=\"okit-title\">Backups</h1>") && backups.contains("first"), "\(backups)")
        #expect(await b.command(from: "/books/!/backups", [("command", "tap"), ("row", "first"), ("fields", "pw")]).status == 303)
        let asked = await b.page("/books/!/backups")
        #expect(asked.contains("<dialog") && asked.contains(">Yes</button>") && asked.contains(">No</button>"),
                "the confirmation waits for the person: \(asked)")
        #expect(await b.command(from: "/books/!/backups", [("command", "respond"), ("action", "2")]).status == 303)
        #expect(await b.command(from: "/books/!/backups", [("command", "add"), ("fields", "first")]).status == 303)
        let refused = await b.page("/books/!/backups")
        #expect(refused.contains("<dialog"), "a create that failed says so: \(refused)")
    }

    /// Posts an upload from the session's page, as the backup form does.
    static func upload(_ b: Browser, _ bytes: [UInt8]?, filename: String = "mine.okbackup", csrf: String? = nil) async -> WebResponse {
        let html = await b.page("/books")
        var request = WebRequest(method: "POST", path: "/backups", form: [("at", "/books")], sessionCookie: b.cookie)
        request.headerCSRF = csrf ?? Browser.attribute("data-csrf", html)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("okit-upload-test-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: file) }
        if let bytes {
            try? Data(bytes).write(to: file)
            request.upload = WebUpload(filename: filename, file: file, size: bytes.count)
        }
        return await b.web.handle(request)
    }

    @Test func anUploadIsCheckedLikeARestoreAndKeptUnderAFreeName() async throws {
        let (web, folder) = try await WebFilesTests.serve()
        let b = Browser(web)
        let backup = try Array(Data(contentsOf: folder.appendingPathComponent("okit/backup/first.okbackup")))
        // CSRF first: a wrong token is refused before anything else, even without a file.
        #expect(await WebFilesTests.upload(b, nil, csrf: "nope").status == 403)
        #expect(await WebFilesTests.upload(b, nil).status == 400)
        let bad = await WebFilesTests.upload(b, Array("not a zip".utf8))
        #expect(bad.status == 303)
        let refusal = await b.page("/books")
        #expect(refusal.contains("The upload was not kept"))
        #expect(!refusal.contains("okit-upload-") && !refusal.contains(FileManager.default.temporaryDirectory.path),
                "the refusal names the person's file, not a path on the server: \(refusal)")
        let ok = await WebFilesTests.upload(b, backup, filename: "C:\\Users\\x\\first.okbackup")
        #expect(ok.status == 303)
        #expect(await b.page("/books").contains("first 2"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("okit/backup").path).sorted()
        #expect(names == ["first 2.okbackup", "first.okbackup"])
        #expect(await b.get("/backups/first%202").body.isEmpty)      // streamed from its file
        #expect(await b.get("/backups/first%202").file?.hasSuffix("first 2.okbackup") == true)
    }

    @Test func anUploadIsAdmittedBeforeItsBodyIsRead() async throws {
        var options = ServeOptions()
        options.maxUploads = 1
        let (web, folder) = try await WebFilesTests.serve(options)
        let b = Browser(web)
        let html = await b.page("/books")
        let csrf = Browser.attribute("data-csrf", html)
        func ask(cookie: String?, csrf: String?) async -> Result<URL, WebRefusal> {
            var r = WebRequest(method: "POST", path: "/backups", sessionCookie: cookie)
            r.headerCSRF = csrf
            return await web.admitUpload(r)
        }
        func status(_ r: Result<URL, WebRefusal>) -> Int? { if case .failure(let f) = r { return f.response.status } else { return nil } }
        #expect(status(await ask(cookie: nil, csrf: csrf)) == 403)            // no session
        #expect(status(await ask(cookie: b.cookie, csrf: nil)) == 403)        // no token
        #expect(status(await ask(cookie: b.cookie, csrf: "0123")) == 403)     // a wrong one
        let first = await ask(cookie: b.cookie, csrf: csrf)
        let file = try first.get()
        #expect(file.path.hasPrefix(folder.appendingPathComponent("okit/backup/.uploads").path))
        #expect(status(await ask(cookie: b.cookie, csrf: csrf)) == 503)       // the one upload slot is taken
        await web.uploadEnded()
        #expect(status(await ask(cookie: b.cookie, csrf: csrf)) == nil)

        var guarded = ServeOptions()
        guarded.token = "a-long-token"
        let (g, _) = try await WebFilesTests.serve(guarded)
        let c = Browser(g)
        let page = await c.page("/books")
        var r = WebRequest(method: "POST", path: "/backups", sessionCookie: c.cookie)
        r.headerCSRF = Browser.attribute("data-csrf", page)
        if case .failure(let f) = await g.admitUpload(r) { #expect(f.response.status == 403) } else { Issue.record("admitted before the login") }
    }

    @Test func aMultipartBodyIsParsedAsItArrives() throws {
        let type = "multipart/form-data; boundary=XyZ"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("okit-multipart-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: url) }
        let content = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) } + Array("\r\n--XyZ".utf8.dropLast())
        let body = Array("--XyZ\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\npw\r\n--XyZ\r\nContent-Disposition: form-data; name=\"backup\"; filename=\"b.okbackup\"\r\n\r\n".utf8)
            + content + Array("\r\n--XyZ--\r\n".utf8)
        // Fed in chunks of every size from 1 byte: the same fields and file bytes.
        for size in [1, 2, 7, 64, 4096, 65536] {
            var stream = try MultipartStream(contentType: type, file: url)
            var at = 0
            while at < body.count {
                try stream.feed(body[at..<min(body.count, at + size)])
                at += size
            }
            let (fields, file) = try stream.finish()
            #expect(fields.count == 1 && fields[0].name == "password" && fields[0].value == "pw")
            #expect(file?.size == content.count && file?.filename == "b.okbackup")
            #expect(try Array(Data(contentsOf: url)) == content)
            if size >= 64 { continue }
            // Cut short: an error, never a crash.
            var cut = try MultipartStream(contentType: type, file: url)
            try cut.feed(body[0..<(body.count / 2)])
            #expect(throws: MultipartError.self) { try cut.finish() }
        }
    }

    @Test func multipartBodiesAreParsedStrictly() throws {
        let type = "multipart/form-data; boundary=XyZ"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("okit-multipart-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: url) }
        func parse(_ b: [UInt8], contentType: String) throws -> (fields: [(name: String, value: String)], file: WebUpload?) {
            try MultipartBody.parse(b, contentType: contentType, file: url)
        }
        func body(_ parts: [String]) -> [UInt8] { Array((parts.joined() + "--XyZ--\r\n").utf8) }
        let csrf = "--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\nabc\r\n"
        let file = "--XyZ\r\nContent-Disposition: form-data; name=\"backup\"; filename=\"a \\\"b\\\".okbackup\"\r\nContent-Type: application/octet-stream\r\n\r\n\u{1}\u{2}\r\n--X\r\n"
        let parsed = try parse(body([csrf, file]), contentType: type)
        #expect(parsed.fields.map(\.name) == ["csrf"] && parsed.fields.first?.value == "abc")
        #expect(parsed.file?.filename == "a \"b\".okbackup")
        #expect(try Array(Data(contentsOf: url)) == [1, 2, 13, 10, 45, 45, 88])
        #expect(MultipartBody.boundary(contentType: "multipart/form-data; boundary=\"q r\"") == "q r")
        #expect(throws: MultipartError.noBoundary) { try parse(body([csrf]), contentType: "multipart/form-data") }
        #expect(throws: MultipartError.twoFiles) { try parse(body([file, file]), contentType: type) }
        #expect(throws: MultipartError.tooManyParts) { try parse(body(Array(repeating: csrf, count: 17)), contentType: type) }
        #expect(throws: MultipartError.self) { try parse(Array((csrf + file).utf8), contentType: type) }   // truncated
        #expect(throws: MultipartError.self) { try parse(Array(csrf.utf8.prefix(30)), contentType: type) }
        #expect(throws: MultipartError.self) { try parse(body(["--XyZ\r\nContent-Type: text/plain\r\n\r\nx\r\n"]), contentType: type) }
        #expect(throws: MultipartError.self) { try parse([], contentType: type) }
        let big = "--XyZ\r\nContent-Disposition: form-data; name=\"t\"\r\n\r\n" + String(repeating: "x", count: 70_000) + "\r\n"
        #expect(throws: MultipartError.self) { try parse(body([big]), contentType: type) }
        // Random bytes never crash it.
        var g = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var bytes = body([csrf, file])
            for _ in 0..<4 { bytes[Int.random(in: 0..<bytes.count, using: &g)] = UInt8.random(in: 0...255, using: &g) }
            _ = try? parse(Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &g))), contentType: type)
        }
    }
}
