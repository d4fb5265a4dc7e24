import Foundation

/// The per-session theme stylesheet: the app's theme values (`app.themeValues`) as CSS custom properties.
public enum ThemeStylesheet {
    /// `:root { --okit-background-color: #000; … }` from theme values; keys go from camelCase to kebab case
    /// (`tintColor` → `--okit-tint-color`). Values come from app code, so only colour- and number-like values
    /// are kept (letters, digits, `#`, `.`, `,`, `%`, `(`, `)`, `-`, `+`, `/` and spaces; no `;`, `{`, `}`, quotes or
    /// backslashes); anything else is dropped, as is a key with other characters than letters,
    /// digits and `-`.
    public static func css(themeValues: [(key: String, value: String)]) -> String {
        var out = ":root {\n"
        var named: Set<String> = []
        for (key, value) in themeValues {
            guard let name = property(key), let v = sanitized(value) else { continue }
            named.insert(name)
            out += "  \(name): \(v);\n"
        }
        // A theme's background and text colours (OKit's theme has no more) make the grouped look: the cells take
        // the theme's background, the page, bars, separators and selection are mixed from the two, so a dark
        // theme is dark everywhere.
        if named.contains("--okit-background-color"), named.contains("--okit-text-color") {
            out = out.replacingOccurrences(of: "  --okit-background-color:", with: "  --okit-theme-background-color:")
            out += "  --okit-cell-background-color: var(--okit-theme-background-color);\n"
            out += "  --okit-background-color: color-mix(in srgb, var(--okit-theme-background-color) 94%, var(--okit-text-color));\n"
            out += "  --okit-bar-background-color: color-mix(in srgb, var(--okit-theme-background-color) 96%, var(--okit-text-color));\n"
            out += "  --okit-separator-color: color-mix(in srgb, var(--okit-theme-background-color) 78%, var(--okit-text-color));\n"
            out += "  --okit-selected-color: color-mix(in srgb, var(--okit-theme-background-color) 84%, var(--okit-text-color));\n"
        }
        out += "}\n"
        return out
    }

    /// `--okit-` and the key in kebab case (`tintColor` and `tint-color` both give `--okit-tint-color`), or nil
    /// for a key with other characters than letters, digits and `-`.
    static func property(_ key: String) -> String? {
        guard !key.isEmpty, key.count <= 64 else { return nil }
        var kebab = ""
        for ch in key.unicodeScalars {
            switch ch {
            case "A"..."Z":
                if !kebab.isEmpty, !kebab.hasSuffix("-") { kebab += "-" }
                kebab += String(ch).lowercased()
            case "a"..."z", "0"..."9":
                kebab.unicodeScalars.append(ch)
            case "-":
                if !kebab.isEmpty, !kebab.hasSuffix("-") { kebab += "-" }
            default:
                return nil
            }
        }
        while kebab.hasSuffix("-") { kebab.removeLast() }
        return kebab.isEmpty ? nil : "--okit-" + kebab
    }

    /// The value when it is colour- or number-like, else nil.
    static func sanitized(_ value: String) -> String? {
        let v = value.trimmingCharacters(in: .whitespaces)
        guard !v.isEmpty, v.count <= 64 else { return nil }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789#.,%()-+/ ")
        guard v.allSatisfy({ allowed.contains($0) }) else { return nil }
        return v
    }
}
