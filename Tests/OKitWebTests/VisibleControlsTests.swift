import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// A direction control or a control character a person typed, quoted in okit's own message, is shown as what it is
/// (web.md "Security"): it cannot reverse the rest of the message. (A stranger's round seven: a backup named
/// "\u{202E}exe.evil:" turned the refusal's own words backwards.)
@Suite struct VisibleControlsTests {
    @Test func overridesAndControlsAreShownAndBalancedIsolatesKept() {
        #expect(VisibleControls.shown("\"\u{202E}exe.evil:\" cannot name a backup") == "\"[U+202E]exe.evil:\" cannot name a backup")
        #expect(VisibleControls.shown("a\u{7}b\tc\nd") == "a[U+0007]b\tc\nd")
        #expect(VisibleControls.shown("Name \u{2067}שלום\u{2069} ok") == "Name \u{2067}שלום\u{2069} ok", "a closed isolate stays")
        #expect(VisibleControls.shown("x \u{2068}open") == "x [U+2068]open")
        #expect(VisibleControls.shown("closes none\u{2069}") == "closes none[U+2069]")
        #expect(VisibleControls.shown("Plain «text» ünïcode") == "Plain «text» ünïcode")
    }

    @Test func theNoticeErrorAndAlertOfAPageShowThem() {
        var snapshot = Fixtures.list()
        snapshot.alert = AlertSnapshot(kind: "alert", title: "Backup \u{202E}gpj", message: "\"\u{202E}exe.evil:\" cannot name a backup", actions: ["OK"])
        let html = PageRenderer.renderString(snapshot, Fixtures.context(error: "No \u{202E}moc.live", notice: "Saved \u{202E}gpj.exe"))
        #expect(html.contains("Saved [U+202E]gpj.exe") && html.contains("No [U+202E]moc.live"))
        #expect(html.contains("Backup [U+202E]gpj") && html.contains("[U+202E]exe.evil:"))
        #expect(!html.contains("\u{202E}"))
    }

    @Test func aBackupNameWithAControlCharacterSaysSoInEnglish() throws {
        let engine = Engine(schema: Schema())
        do { _ = try BackupStore.sanitize("\u{202E}exe.evil") ; Issue.record("refused") } catch {
            let said = BackupsScreen.personMessage(error, engine)
            #expect(said.hasSuffix("(it contains a text direction control)"), "\(said)")
        }
        do { _ = try BackupStore.sanitize("a\u{7}b") ; Issue.record("refused") } catch {
            #expect(BackupsScreen.personMessage(error, engine).hasSuffix("(it contains a control character)"))
        }
    }
}
