/// Language, region and time zone of an app (default English, US, UTC: the same output on every machine).
public struct AppLocale: Equatable, Sendable {
    public var language: String
    public var region: String
    public var timeZone: String

    public init(language: String = "en", region: String = "US", timeZone: String = "UTC") {
        self.language = language
        self.region = region
        self.timeZone = timeZone
    }

    /// `en_US`.
    public var identifier: String { region.isEmpty ? language : "\(language)_\(region)" }

    /// The ICU locale that formats numbers, currencies, percentages and the date styles of other languages:
    /// `language_REGION`, except that the default region `US` goes with English only — `--lang de` formats as
    /// German (`900,00 €`, `01.05.19`), not as German in the US (`900.00 €`, `5/1/19`).
    public var formatIdentifier: String {
        region.isEmpty || (region == "US" && language != "en") ? language : identifier
    }
}
