import Foundation
import Synchronization

/// Which way a page's language is written: `<html dir="rtl">` for Arabic, Hebrew, Persian, Urdu and every other
/// language whose script runs right to left (ICU's answer for the `lang` tag, `ar-EG`, `he`, `fa`, `ur`,
/// `pa-Arab`); nothing for the others (left to right is the browser's default).
enum TextDirection {
    /// `"rtl"` when `lang` (a BCP 47 tag, `<html lang>`) is written right to left, else nil.
    static func htmlDir(_ lang: String) -> String? {
        isRightToLeft(lang) ? "rtl" : nil
    }

    /// Whether `lang` is written right to left. ICU is asked once a language (every page asks).
    static func isRightToLeft(_ lang: String) -> Bool {
        if let known = known.withLock({ $0[lang] }) { return known }
        let rtl = Locale.Language(identifier: lang).characterDirection == .rightToLeft
        known.withLock { $0[lang] = rtl }
        return rtl
    }

    private static let known = Mutex<[String: Bool]>(["en": false])
}
