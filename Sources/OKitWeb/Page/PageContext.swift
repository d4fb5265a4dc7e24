import OKitEngine

/// Everything a page needs besides its snapshot: where it is, where its forms post, the session's CSRF token and
/// the URLs the server gives to tabs, rows, images, web cells, backups, live updates and the static files.
///
/// The server fills it in per request; ``PageRenderer`` never makes up a URL on its own (except `#section-N`
/// anchors inside the page). Every POST form carries `csrf` (``csrfToken``), `v` (``version``), `at`
/// (``locationPath``) and `command` as hidden fields.
public struct PageContext: Sendable {
    /// The URL path (with query) of this page, as the browser asked for it; the `at` field of every form, the
    /// action of the search form (a GET), and what the script fetches on a `stale` event.
    public var locationPath: String
    /// Where every POST form goes.
    public var commandURL: String
    /// The session's CSRF token (the `csrf` field of every POST form).
    public var csrfToken: String
    /// The version of the snapshot the page is rendered from (the `v` field of every POST form).
    public var version: String
    /// A note for the person, e.g. "This page was out of date; nothing was changed" (a `role=status` paragraph).
    public var notice: String?
    /// The error of the last command (a `role=alert` paragraph).
    public var error: String?
    /// The screens below this one: title and URL, outermost first.
    public var breadcrumb: [(title: String, url: String)]
    /// Each breadcrumb entry's place on the stack (-1: a "…" for the screens left out, shown without a link);
    /// empty: the entries are the stack's first screens in order.
    public var breadcrumbSteps: [Int] = []
    /// The screen below this one (a back link), or nil at the bottom of the stack.
    public var backURL: String?
    /// The URL of a tab by its id (`app.tabs`).
    public var tabURL: @Sendable (String) -> String
    /// The URL a row opens, or nil when tapping it runs a command (then it is a `tap` button in a POST form).
    /// Arguments: the section index (0-based), the row index in the section (0-based), the row.
    public var rowLink: @Sendable (_ section: Int, _ row: Int, _ snapshot: RowSnapshot) -> String?
    /// Whether tapping a detail cell runs something (its `tap`, or a `segue`/`present` the server gives no URL):
    /// the cell is then a `tap` button in a POST form. Arguments as for `rowLink`.
    public var rowTaps: @Sendable (_ section: Int, _ row: Int, _ snapshot: RowSnapshot) -> Bool = { _, _, _ in false }
    /// The URL of a row's or image cell's image (`row.image` or the cell's value), or nil for no image.
    public var imageURL: @Sendable (_ section: Int, _ row: Int, _ snapshot: RowSnapshot) -> String?
    /// The URL of a web cell's content (shown in an `<iframe sandbox>`), or nil for none.
    public var webCellURL: @Sendable (_ section: Int, _ row: Int, _ snapshot: RowSnapshot) -> String?
    /// The next window of a large list ("More rows"), shown when `screen.rowCount` exceeds the rows shown.
    public var moreRowsURL: String?
    /// The position (0-based, in the whole list) of the first row shown: a windowed list's offset.
    public var rowOffset: Int
    /// A backup's download URL by its name.
    public var backupDownloadURL: @Sendable (String) -> String
    /// Where the backup upload form (multipart) posts.
    public var backupUploadURL: String
    /// Whether the create-backup form asks for a password (twice): the app's backups are secure.
    public var backupPasswords: Bool
    /// The Server-Sent Events stream of this session (the body's `data-events`).
    public var eventsURL: String
    /// The stylesheets, in order: the shared one (`/static/okit.css`), then the session's theme stylesheet.
    public var stylesheetURLs: [String]
    /// The script (`/static/okit.js`).
    public var scriptURL: String
    /// Whether the app has a menu (a Menu button in the bar).
    public var hasMenu: Bool
    /// Whether rows of a list in edit mode get a Select button (the list has a `selectPath`).
    public var selectableInEdit: Bool
    /// Whether rows of a list in edit mode get Move up and Move down buttons (the list allows `reorder`).
    public var reorderableInEdit: Bool
    /// The page's language (`<html lang>`).
    public var lang: String
    /// The words the page shows on its own (Back, Delete, Search, …) in the page's language.
    public var words: BuiltInWords = .english
    /// The app's time zone (`Europe/Berlin`): a date field shows and sends its wall-clock time (`WallClock`).
    public var timeZone: String = "UTC"
    /// The app's decimal separator: a text field shows a number as the app reads it back (`Engine.editableText`).
    public var decimalSeparator: String = "."
    /// The browser window's title when the screen has none (e.g. the app's id).
    public var appTitle: String
    /// How each screen kind is shown: the built-in kinds' pages and those the app's own kinds bring.
    public var kinds: WebKinds = .builtIn
    /// Development mode: the Record bar the page shows (nil outside development mode).
    public var recordBar: RecordBar?
    /// What the session typed into cells that refused it, by the cell's address (its id, else its position): each
    /// shown in its field with the refusal beside it (``RefusedText``). Only ever on a page of that session's own.
    public var typed: [String: RefusedText] = [:]
    /// What the session typed into the dialog's fields when its answer came out of date, by position (nil: the
    /// dialog's own value). Only ever on a page of that session's own.
    public var dialogFields: [String?] = []

    /// Text as one URL path segment: everything but unreserved characters (RFC 3986) percent-encoded, so a
    /// name with `/`, `?`, `#` or spaces stays one segment.
    public static func pathSegment(_ text: String) -> String {
        var out = ""
        for u in text.utf8 {
            switch u {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(u))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(u >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(u & 0xF)]))
            }
        }
        return out
    }

    /// A context with the required parts; the rest default to no links (rows become `tap` buttons), no images, the
    /// usual static file URLs and no events stream.
    public init(locationPath: String, commandURL: String = "/command", csrfToken: String, version: String,
                notice: String? = nil, error: String? = nil, breadcrumb: [(title: String, url: String)] = [],
                backURL: String? = nil, tabURL: @escaping @Sendable (String) -> String = { "/" + PageContext.pathSegment($0) },
                rowLink: @escaping @Sendable (Int, Int, RowSnapshot) -> String? = { _, _, _ in nil },
                imageURL: @escaping @Sendable (Int, Int, RowSnapshot) -> String? = { _, _, _ in nil },
                webCellURL: @escaping @Sendable (Int, Int, RowSnapshot) -> String? = { _, _, _ in nil },
                moreRowsURL: String? = nil, rowOffset: Int = 0,
                backupDownloadURL: @escaping @Sendable (String) -> String = { "/backups/" + PageContext.pathSegment($0) },
                backupUploadURL: String = "/backups", backupPasswords: Bool = true,
                eventsURL: String = "/events",
                stylesheetURLs: [String] = ["/static/okit.css", "/theme.css"], scriptURL: String = "/static/okit.js",
                hasMenu: Bool = false, selectableInEdit: Bool = false, reorderableInEdit: Bool = false, lang: String = "en", appTitle: String = "OKit") {
        self.locationPath = locationPath
        self.commandURL = commandURL
        self.csrfToken = csrfToken
        self.version = version
        self.notice = notice
        self.error = error
        self.breadcrumb = breadcrumb
        self.backURL = backURL
        self.tabURL = tabURL
        self.rowLink = rowLink
        self.imageURL = imageURL
        self.webCellURL = webCellURL
        self.moreRowsURL = moreRowsURL
        self.rowOffset = rowOffset
        self.backupDownloadURL = backupDownloadURL
        self.backupUploadURL = backupUploadURL
        self.backupPasswords = backupPasswords
        self.eventsURL = eventsURL
        self.stylesheetURLs = stylesheetURLs
        self.scriptURL = scriptURL
        self.hasMenu = hasMenu
        self.selectableInEdit = selectableInEdit
        self.reorderableInEdit = reorderableInEdit
        self.lang = lang
        self.appTitle = appTitle
    }
}
