/// Full-width and half-width forms, Japanese kana and Korean Hangul as a list sorts and indexes them (screens.md
/// "Sort order" and `index`; `TextCollation`, `ListIndexLetters`, the built-in `initial`).
///
/// Width never changes a character's place: full-width `Ａ` and `１` are `A` and `1`, half-width `ｶ` is `カ`. Kana
/// are weighed by their sound, as ICU's collation of Japanese has it: hiragana, katakana and half-width katakana
/// of one sound together, in 五十音 order (code point order of the plain hiragana), a voiced or small kana with its
/// plain one (`ば` and `ぱ` with `は`, `ぁ` with `あ`; the voicing is told apart after the letters, as an accent
/// is), `ー` as the vowel before it and `ゝ`/`ヽ` as the kana before them.
enum EastAsianText {
    /// The half-width katakana U+FF66…U+FF9D as full-width ones.
    static let halfWidthKatakana: [UInt32] =
        "ヲァィゥェォャュョッーアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン"
            .unicodeScalars.map(\.value)

    /// A character's ordinary-width form: full-width ASCII is ASCII (U+3000 a space), half-width katakana and
    /// their voicing marks full-width; any other character itself.
    @inline(__always)
    static func narrow(_ v: UInt32) -> UInt32 {
        guard v >= 0xFF01 || v == 0x3000 else { return v }
        switch v {
        case 0x3000: return 0x20
        case 0xFF01...0xFF5E: return v - 0xFEE0
        case 0xFF66...0xFF9D: return halfWidthKatakana[Int(v - 0xFF66)]
        case 0xFF9E: return 0x3099
        case 0xFF9F: return 0x309A
        default: return v
        }
    }

    /// The plain kana of the 五十音 (48, あ … ん), and each one's vowel (ゃ row and わ row included; ん is its own).
    static let gojuon = Array("あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわゐゑをん".unicodeScalars)
    static let vowels = Array("あいうえおあいうえおあいうえおあいうえおあいうえおあいうえおあいうえおあうおあいうえおあいえおん".unicodeScalars)
    /// The first kana of each 五十音 row (iOS's Japanese index): あ か さ た な は ま や ら わ.
    static let rowHeads: [String] = ["あ", "か", "さ", "た", "な", "は", "ま", "や", "ら", "わ"]

    /// For each hiragana U+3041…U+3096: its large form, voicing kept (`ぁ` → `あ`, `っ` → `つ`, `ゕ` → `か`), and
    /// its plain form (`ば` → `は`, `ゔ` → `う`): two values in one, large << 16 | plain.
    static let hiragana: [UInt32] = (0x3041...0x3096).map { v -> UInt32 in
        let small: [UInt32: UInt32] = [0x3041: 0x3042, 0x3043: 0x3044, 0x3045: 0x3046, 0x3047: 0x3048, 0x3049: 0x304A,
                                       0x3063: 0x3064, 0x3083: 0x3084, 0x3085: 0x3086, 0x3087: 0x3088, 0x308E: 0x308F,
                                       0x3095: 0x304B, 0x3096: 0x3051]
        let large = small[UInt32(v)] ?? UInt32(v)
        let plain = String(UnicodeScalar(large)!).decomposedStringWithCanonicalMapping.unicodeScalars.first!.value
        return large << 16 | plain
    }

    /// A kana (after `narrow`) as hiragana with its voicing, large: katakana U+30A1…U+30F6 is hiragana; nil for
    /// any other character.
    @inline(__always)
    static func kana(_ v: UInt32) -> UInt32? {
        switch v {
        case 0x3041...0x3096: return hiragana[Int(v - 0x3041)] >> 16
        case 0x30A1...0x30F6: return hiragana[Int(v - 0x30A1)] >> 16
        default: return nil
        }
    }

    /// A kana's plain form (`ガ` → `か`, `ぱ` → `は`, `ャ` → `や`, `ヷ` → `わ`): its letter, as a hiragana; nil for
    /// any other character.
    @inline(__always)
    static func plainKana(_ v: UInt32) -> UInt32? {
        switch v {
        case 0x3041...0x3096: return hiragana[Int(v - 0x3041)] & 0xFFFF
        case 0x30A1...0x30F6: return hiragana[Int(v - 0x30A1)] & 0xFFFF
        case 0x30F7...0x30FA: return v - 0x30F7 + 0x308F   // ヷ ヸ ヹ ヺ: わ ゐ ゑ を, voiced
        default: return nil
        }
    }

    /// Whether a character repeats the kana before it: `ー` its vowel, `ゝ ゞ ヽ ヾ` the kana itself.
    @inline(__always)
    static func repeatsKana(_ v: UInt32) -> Bool { v == 0x30FC || (0x309D...0x309E).contains(v) || (0x30FD...0x30FE).contains(v) }

    /// What a repeating mark after the plain kana `previous` weighs as: `ー` the vowel of it, the others it.
    static func repeated(_ v: UInt32, after previous: UInt32) -> UInt32 {
        guard v == 0x30FC else { return previous }
        guard let i = gojuon.firstIndex(where: { $0.value == previous }) else { return previous }
        return vowels[i].value
    }

    /// The row of the 五十音 a kana is in, by its first kana (`き`, `ギ`, `ｷ` → `か`; `ん` → `わ`), as iOS's
    /// Japanese index groups titles; nil for any other character.
    static func row(_ v: UInt32) -> String? {
        guard let p = plainKana(narrow(v)), let i = gojuon.firstIndex(where: { $0.value == p }) else { return nil }
        let starts = [0, 5, 10, 15, 20, 25, 30, 35, 38, 43]
        return rowHeads[(starts.lastIndex { $0 <= i }) ?? 0]
    }

    /// The basic consonants of iOS's Korean index: ㄱ ㄴ ㄷ ㄹ ㅁ ㅂ ㅅ ㅇ ㅈ ㅊ ㅋ ㅌ ㅍ ㅎ.
    static let consonants = "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ".map(String.init)

    /// A Hangul syllable's (or consonant's) initial consonant among the 14 basic ones, a double one with its single
    /// one (`까` → `ㄱ`), as iOS's Korean index groups titles; nil for any other character.
    static func initialConsonant(_ v: UInt32) -> String? {
        // The 19 initial consonants of a syllable, in order: ㄱ ㄲ ㄴ ㄷ ㄸ ㄹ ㅁ ㅂ ㅃ ㅅ ㅆ ㅇ ㅈ ㅉ ㅊ ㅋ ㅌ ㅍ ㅎ.
        let basic = [0, 0, 1, 2, 2, 3, 4, 5, 5, 6, 6, 7, 8, 8, 9, 10, 11, 12, 13]
        switch v {
        case 0xAC00...0xD7A3: return consonants[basic[Int((v - 0xAC00) / 588)]]
        case 0x3131...0x314E:
            let jamo: [UInt32] = [0x3131, 0x3132, 0x3134, 0x3137, 0x3138, 0x3139, 0x3141, 0x3142, 0x3143, 0x3145,
                                  0x3146, 0x3147, 0x3148, 0x3149, 0x314A, 0x314B, 0x314C, 0x314D, 0x314E]
            return jamo.firstIndex(of: v).map { consonants[basic[$0]] }
        default: return nil
        }
    }

    /// The index letter (a section of iOS's index) a title starting with `first` is under in `language`: its
    /// 五十音 row in Japanese, its initial consonant in Korean; nil otherwise.
    static func indexHead(_ first: UInt32, language: String) -> String? {
        switch language.prefix(while: { $0 != "_" && $0 != "-" }) {
        case "ja": return row(first)
        case "ko": return initialConsonant(first)
        default: return nil
        }
    }

    /// A text as its accents' level compares it (after the letters): width narrowed, kana as large hiragana with
    /// their voicing (`カ` is `か`, `ｶﾞ` is `が`), `ー` as its vowel; the text itself when it has none of these.
    static func secondary(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value >= 0x3000 }) else { return text }
        var out = String.UnicodeScalarView()
        var previous: UInt32 = 0
        for u in text.unicodeScalars {
            var v = narrow(u.value)
            if let k = kana(v) {
                v = k
                previous = plainKana(k) ?? 0
            } else if let p = plainKana(v) {
                previous = p
            } else if repeatsKana(v), previous != 0 {
                v = repeated(v, after: previous)
            } else {
                previous = 0
            }
            out.append(UnicodeScalar(v)!)
        }
        let s = String(out)
        return s.unicodeScalars.contains { $0.value == 0x3099 || $0.value == 0x309A } ? s.precomposedStringWithCanonicalMapping : s
    }
}
