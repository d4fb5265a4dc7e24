import Foundation
import Testing
import OKitEngine
import OKitLua
@testable import OKitWeb

/// Development mode in the app's language (lua-api.md "Built-in words", built-in-words.md): the Record bar, its
/// notices and refusals, and the error overlay of a live reload are okit's words, so a Portuguese or German app
/// shows them in Portuguese or German, as every other word of its pages (they were English).
@Suite struct DevWordsTests {
    /// `LiveReloadTests`' app in `language` (`okit.locale`).
    static func serve(_ language: String) async throws -> LiveReloadTests.Served {
        try await LiveReloadTests.serve(LiveReloadTests.app() + "\nokit.locale { language = \"\(language)\" }\n")
    }

    /// The page's text after posting to a `/dev/` route from `path` (its CSRF token and version).
    static func dev(_ b: Browser, _ route: String, from path: String, _ fields: [(name: String, value: String)]) async -> String {
        await RecordingSessionTests.dev(b, route, from: path, fields)
        _ = await b.get(path)
        return b.page
    }

    @Test func thePortugueseRecordBarItsNoticesAndRefusalsArePortuguese() async throws {
        let s = try await DevWordsTests.serve("pt_BR")
        let b = Browser(s.web)
        _ = await b.get("/tasks")
        #expect(b.page.contains("aria-label=\"Gravar um teste\"") && b.page.contains(">Gravar</button>"), "\(b.page)")
        #expect(!b.page.contains(">Record<"))
        var page = await DevWordsTests.dev(b, "/dev/record", from: "/tasks", [("do", "start")])
        #expect(page.contains("Gravando a partir da primeira tela do app"), "\(page)")
        #expect(page.contains(">Verificar</button>") && page.contains(">Parar</button>") && page.contains(">Nome do teste</label>"))
        #expect(page.contains("title=\"Depois clique em um texto da página para verificá-lo no teste\""))
        #expect(page.range(of: #"Gravando: [0-9]+ linhas?<"#, options: .regularExpression) != nil, "\(page)")
        page = await DevWordsTests.dev(b, "/dev/record", from: "/tasks", [("do", "start")])
        #expect(page.contains("Esta página já está gravando."))
        page = await DevWordsTests.dev(b, "/dev/assert", from: "/tasks", [("target", "nothing")])
        #expect(page.contains("Clique em um título, uma linha"), "\(page)")
        page = await DevWordsTests.dev(b, "/dev/save", from: "/tasks", [("name", " ")])
        #expect(page.contains("Dê um nome ao teste (por ex. add_book)"), "\(page)")
        page = await DevWordsTests.dev(b, "/dev/save", from: "/tasks", [("name", "../x")])
        #expect(page.contains("O nome de um teste tem só letras ASCII"), "\(page)")
        page = await DevWordsTests.dev(b, "/dev/save", from: "/tasks", [("name", "abrir")])
        #expect(page.contains("tests/abrir_test.lua salvo (") && page.contains("Execute-o lá: okit-run test tests/abrir_test.lua"), "\(page)")
        #expect(FileManager.default.fileExists(atPath: s.folder.appendingPathComponent("tests/abrir_test.lua").path))
        page = await DevWordsTests.dev(b, "/dev/save", from: "/tasks", [("name", "outro")])
        #expect(page.contains("Nada está sendo gravado: clique em Gravar primeiro."), "\(page)")
        _ = await DevWordsTests.dev(b, "/dev/record", from: "/tasks", [("do", "start")])
        page = await DevWordsTests.dev(b, "/dev/record", from: "/tasks", [("do", "stop")])
        #expect(page.contains("Gravação parada; nada foi salvo."), "\(page)")
    }

    @Test func theErrorOverlayOfAGermanAppIsGerman() async throws {
        let s = try await DevWordsTests.serve("de")
        let b = Browser(s.web)
        _ = await b.get("/tasks")
        try s.write(LiveReloadTests.app() + "\nokit.locale { language = \"de\" }\nlocal x = = 3\n")
        #expect(await s.web.reload(s.make) == false)
        _ = await b.get("/tasks")
        #expect(b.page.contains("Die App wurde nicht geladen: app.lua:"), "\(b.page)")
        #expect(b.page.contains("Die zuletzt geladene Version läuft weiter."))
        #expect(!b.page.contains("The app did not load") && !b.page.contains("keeps running"))
        #expect(b.page.contains(">Aufnehmen</button>"))
    }
}
