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
}
