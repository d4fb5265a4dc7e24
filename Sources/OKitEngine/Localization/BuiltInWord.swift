/// A word OKit's screens and front ends show on their own — not from an app's bindings: bar buttons, alerts,
/// prompts, validation messages, the web page's labels (docs/lua-api.md "Built-in words").
///
/// Its raw value is its English text and the key an app's strings table overrides it with, as an OKit app's
/// `Localizable.strings` does (`okit.strings("de", { Cancel = "Zurück" })`). `%@` stands for an argument;
/// `%1$@`, `%2$@` for arguments by position, so a language may put them in its own order.
public enum BuiltInWord: String, CaseIterable, Sendable {
    // Bar buttons and the shell
    case back = "Back", edit = "Edit", done = "Done", save = "Save", close = "Close", add = "Add", menu = "Menu"
    case help = "Help", more = "More", delete = "Delete", search = "Search", all = "All"
    // Alerts and prompts
    case ok = "OK", cancel = "Cancel", yes = "Yes", no = "No"
    case confirmDeletion = "Confirm Deletion"
    case reallyDelete = "Do you really want to delete entry?"
    case selectAnAction = "Select an action"
    case actions = "Actions", alert = "Alert"
    case newEntry = "New %@"
    case enterField = "Enter %@ for this %@"
    case password = "Password"
    // Validation messages (a field's own `message` replaces them)
    case isRequired = "%@ is required"
    case atLeast = "%@ must be at least %@"
    case atMost = "%@ must be at most %@"
    case atMostCharacter = "%@ must be at most %@ character"
    case atMostCharacters = "%@ must be at most %@ characters"
    case notInFormat = "%@ is not in the expected format"
    case notValid = "%@ is not valid"
    // A person's text a format cannot read back (a currency cell given "12,5x")
    case notANumberLike = "%1$@: \"%2$@\" is not a number like %3$@"
    case notADateLike = "%1$@: \"%2$@\" is not a date like %3$@ or 2019-05-01T10:00:00Z"
    case neitherYesNorNo = "%1$@: \"%2$@\" is neither %3$@ nor %4$@"
    case takesWholeNumber = "%1$@ takes a whole number: \"%2$@\" has a fraction"
    // A number no field can hold (`1e400` for a double, 2^63 or more for an int), the cell as its title shows it
    case numberTooLarge = "%1$@: \"%2$@\" is too large a number"
    case wholeNumberOutOfRange = "%1$@: \"%2$@\" is out of range: a whole number from %3$@ to %4$@"
    // A value no option or segment of a cell names (the cell as its title shows it, the value, the choices)
    case noOptionNamed = "cell \"%1$@\" has no option %2$@ (options: %3$@; pass a name, an entity id or a 1-based position)"
    case noTextOptionNamed = "cell \"%1$@\" has no option %2$@ (options: %3$@; pass an option's text or its 1-based position)"
    case noSegmentNamed = "cell \"%1$@\" has no segment %2$@ (segments: %3$@; pass a title or a 0-based index)"
    case noChoices = "none"
    // A text written through a mask that does not fit it (`set Phone 600-111-2223` with `mask('### ### ###')`)
    case maskTakesDigit = "%1$@: \"%2$@\" does not fit %3$@: \"%4$@\" is where it takes a digit"
    case maskTakesLetter = "%1$@: \"%2$@\" does not fit %3$@: \"%4$@\" is where it takes a letter"
    case maskTakesNoMore = "%1$@: \"%2$@\" does not fit %3$@: \"%4$@\" is more than it takes"
    // The protection timeouts of the built-in settings (`okit.Settings`' `timeouts`)
    case immediately = "Immediately", oneMinute = "1 Minute", fiveMinutes = "5 Minutes", tenMinutes = "10 Minutes"
    // A text inside a refusal in the language's quotation marks (a value and the choices above: „Mond“)
    case quoted = "\"%@\""
    // The web front end's notices
    case pageOutOfDate = "This page was out of date, so nothing was changed; here is the current one."
    case logInFirst = "This changes the data of everyone using the app: log in with the token first (/login)."
    case appOffline = "The app is offline: your change is kept here and stored when the database is back."
    case notStored = "Your change could not be stored (%@); it shows here but is not kept yet — tell whoever runs this server."
    // Why a store failed, inside notStored's parentheses (the page names no file of the server)
    case diskFull = "no space left on the server's disk"
    case dataNotWritable = "the server may not write its data"
    case changedFirst = "Someone else changed %1$@ of this %2$@ first: it is now %3$@; your %4$@ was not stored (it is kept in the server's conflict record)."
    // A deletion against an edit (storage.md "Conflicts"): the deleting session is told the edit its deletion removed,
    // the editing one that its change was not stored, or went with the entry
    case changedBeforeDeletion = "Someone else had just changed %1$@ of this %2$@ to %3$@; your deletion removed that change too (it is kept in the server's conflict record)."
    case deletedFirst = "Someone else deleted this %2$@ first, so your change of %1$@ to %3$@ was not stored (it is kept in the server's conflict record)."
    case deletedMeanwhile = "This %2$@ was deleted meanwhile, so your change of %1$@ to %3$@ was not stored."
    case deletedAfterChange = "Someone else deleted this %2$@ after your change of %1$@ to %3$@, so that change went with it; this is the nearest screen that still exists."
    case screenGone = "That screen no longer exists; this is the nearest one that does."
    // Development mode's live reload and recording (web.md "Live reload", "Recording a test")
    case reloadScreenGone = "The screen “%1$@” no longer exists after the reload; showing “%2$@”."
    case reloadRowGone = "The row shown on “%1$@” no longer exists after the reload; showing “%2$@”."
    case reloadDialogClosed = "“%@” closed because the app reloaded; open it again."
    case testNameRefused = "A test's name has ASCII letters (a–z, A–Z), digits, _ and - only (at most 64, starting with a letter or digit): %@ is not one."
    case testNameMissing = "Give the test a name (e.g. add_book): it is saved as tests/NAME_test.lua."
    // Development mode's Record bar, its error overlay and its notices (web.md "Recording a test", "Live reload")
    case appDidNotLoad = "The app did not load", appDidNotLoadAt = "The app did not load: %@"
    case lastVersionRuns = "The last version that loaded keeps running. Fix the file and save: this page updates by itself."
    case reloadPageNotShown = "After the reload this page could not be shown again: %@"
    case recordTest = "Record a test", record = "Record", stop = "Stop", assertText = "Assert", testName = "Test name"
    case assertHint = "Then click a text on the page to check it in the test"
    case recordingLine = "Recording: %@ line", recordingLines = "Recording: %@ lines"
    case recordingAlready = "This page is recording already."
    case recordingStopped = "Recording stopped; nothing was saved."
    case recordingNotCopied = "The data could not be copied for the recording: %@"
    case recordingFromSeed = "Recording from the app's first screen and its seeded data: what you do in this browser (in any of its tabs) becomes a test. Assert adds a check of a text you click; Save writes the test; Stop ends it without saving."
    case recordingFromData = "Recording from the app's first screen, with the data as it is now: what you do in this browser (in any of its tabs) becomes a test. Assert adds a check of a text you click; Save writes the test; Stop ends it without saving."
    case recordingFromSealedData = "Recording from the app's first screen, with the data as it is now (its encrypted data is saved beside the test in plain text): what you do in this browser (in any of its tabs) becomes a test. Assert adds a check of a text you click; Save writes the test; Stop ends it without saving."
    case nothingRecorded = "Nothing is being recorded: press Record first."
    case notSaved = "Not saved: %@"
    case savedTestLine = "Saved %1$@ (%2$@ line) in %3$@. Run it there: %4$@"
    case savedTestLines = "Saved %1$@ (%2$@ lines) in %3$@. Run it there: %4$@"
    case unsealedFixtures = "%@/ holds the app's encrypted data in plain text (no key is copied); the test seals it again with its own key."
    case nothingChecked = "This page was out of date, so nothing was checked; here is the current one."
    case assertWhat = "Click a title, a row, a cell's value, a footer or a message to check it."
    case assertSectionGone = "That section is not on the screen any more: reload the page and try again."
    case assertRowGone = "That row is not on the screen any more: reload the page and try again."
    case assertPastFirstPage = "Rows past the first page of a long list cannot be checked by position: go back to its first rows."
    case assertNoText = "That shows no text of the app to check."
    case appLoadedWithWarning = "The app loaded with %@ warning", appLoadedWithWarnings = "The app loaded with %@ warnings"
    case backupUploaded = "The backup \"%@\" was uploaded and checked; restore it from the list."
    case uploadNotKept = "The upload was not kept: %@"
    case answerFirst = "Answer the open question first."
    case editModeOnly = "%@ can be changed in edit mode only (Edit)."
    case rowGone = "That row is no longer in the list."
    case notOnThisPage = "That is not on this page (any more); nothing was changed."
    case unlockFirst = "The app is locked: unlock it first; nothing was changed."
    case wrongPassphrase = "That is not the passphrase; the app stays locked."
    case searchTooLongOne = "The search text is too long (%1$@ character; at most %2$@); the search is unchanged."
    case searchTooLong = "The search text is too long (%1$@ characters; at most %2$@); the search is unchanged."
    case valueNotTaken = "%@ does not take that value; nothing was changed."
    case tooManyAttemptsOne = "Too many wrong attempts from your address: try again in %@ second."
    case tooManyAttempts = "Too many wrong attempts from your address: try again in %@ seconds."
    case liveUpdatesOff = "Live updates are off: this page does not change by itself now; reload it to see the latest."
    // The server's own short pages (web.md "Errors a person meets")
    case notFound = "Not found", refused = "Refused", busy = "Busy", somethingWentWrong = "Something went wrong"
    case goToTheApp = "Go to the app"
    case noSuchScreen = "There is no such screen in this app."
    case nothingToPostTo = "There is nothing to post to here."
    case sessionEnded = "This form belongs to a session that ended; reload the page and try again."
    case liveUpdatesNeedSession = "Live updates belong to a session; reload the page."
    case securityTokenWrong = "The form's security token is wrong or missing; nothing was changed. Reload the page and try again."
    case tooManyPeopleOne = "Too many people are using this app right now (%@ session); try again later."
    case tooManyPeople = "Too many people are using this app right now (%@ sessions); try again later."
    case tooManyLivePages = "Too many pages are open with live updates right now (%@); reload later."
    case screenNotShown = "This screen could not be shown: %@"
    case sessionNotStarted = "The app could not start a session: %@"
    case backupsNeedLogin = "Backups hold everyone's data: log in with the token first."
    // The login page (`--token-file`): its title and button, its field, a wrong token
    case logIn = "Log in", token = "Token", wrongToken = "That token is not the right one."
    case uploadsBusyOne = "%@ upload is being read right now; try again in a moment."
    case uploadsBusy = "%@ uploads are being read right now; try again in a moment."
    case uploadTooLarge = "The upload is too large (more than %@ MiB)."
    // An alert's answer refused (the add-name prompt, okit.prompt)
    case isRefused = "%1$@ is refused: %2$@"
    case fillEveryField = "%@ needs every field filled in"
    // The selection and backups screens
    case clear = "Clear", name = "Name", confirmPassword = "Confirm Password", newBackup = "New Backup"
    case nameTheBackup = "Name the backup", nameTheSecureBackup = "Name the backup and choose its password"
    case passwordsDiffer = "the passwords do not match", passwordOf = "The password of \"%@\""
    case restoreBackup = "Restore Backup", replaceAllData = "Replace all data with the backup \"%@\"?"
    case deleteBackup = "Delete the backup \"%@\"?"
    case backupFailed = "Backup Failed", restoreFailed = "Restore Failed", deleteFailed = "Delete Failed"
    case createBackup = "Create Backup", restore = "Restore", download = "Download", uploadBackup = "Upload Backup"
    case backupFile = "Backup file", upload = "Upload", securePassword = "Password (of a secure backup)"
    case backups = "Backups"
    case backupWrongPassword = "That is not the password of the backup \"%@\"; nothing was changed."
    case backupNeedsPassword = "The backup \"%@\" is secure: it needs its password."
    case backupExists = "A backup named \"%@\" exists already; choose another name."
    case backupBadName = "\"%@\" cannot name a backup: use at most 60 characters, not starting with a dot and without / \\ : ? % * | \" < >."
    case backupUnusable = "The backup \"%@\" cannot be restored: it is damaged or was not made by this app; nothing was changed."
    case backupDamaged = "Damaged: cannot be restored"
    // The terminal shell
    case editing = "editing"
    // The web page
    case closeMenu = "Close menu", breadcrumb = "Breadcrumb", tabs = "Tabs", scope = "Scope", index = "Index"
    case moreRows = "More rows", rowsShown = "%@ of %@", moveUp = "Move up", moveDown = "Move down"
    case checked = "Checked", decrease = "Decrease", increase = "Increase", field = "Field %@"
    case locked = "Locked", passphrase = "Passphrase", unlock = "Unlock"
    case offline = "Offline: the database is out of reach. You can read; changes are kept and stored when it is back."
    // The terminal shell's marks (the commands they name, authenticate, foreground and close, stay as typed)
    case coveredMark = "covered", coveredHint = "authenticate to continue; foreground comes back"
    case offlineMark = "the database is out of reach: reads go on, changes are stored when it is back"
    case presentedMark = "presented · close", searchLabel = "search", scopesLabel = "scopes", indexLabel = "index"
    /// The terminal shell's mark before a row's quick action (`quick: Lend`; the `quick` command runs it).
    case quickLabel = "quick"
    case moreCount = "… %@ more", options = "options", image = "image"
    // A label and what it names: the web row menu's name (`Actions: Rent`), the terminal shell's `search: "…"`
    // (French puts a no-break space before the colon)
    case labelled = "%1$@: %2$@"
    // A command that is not possible now, as the terminal shell, JSON lines and flow tests say it (the commands,
    // arguments and properties they name stay as typed: `edit on`, `respond`, `enabledPath`); the names of a list
    // inside one are joined two at a time (`%1$@、%2$@` in Japanese), cut with the count of the rest
    case listJoin = "%1$@, %2$@", listMore = "… (%@ more)"
    case noTab = "no tab \"%1$@\" (tabs: %2$@)"
    case atFirstScreen = "already at the first screen of this tab"
    case atFirstPresented = "already at the first screen of the presented screens (close them with close)"
    case nothingPresented = "no screen is presented (close dismisses presented screens; use back for pushed ones)"
    case screenClosed = "the entity the screen showed was removed meanwhile, so the screen closed and the command was not run; look again and repeat it"
    case ambiguousRow = "\"%1$@\" matches rows %2$@; address one by its position or id"
    case noRowNamedOne = "no row \"%1$@\" (the list has %2$@ row; address rows by position, id or text)"
    case noRowNamed = "no row \"%1$@\" (the list has %2$@ rows; address rows by position, id or text)"
    case noRowMeant = "no row \"%1$@\" (did you mean %2$@?)"
    case noRowAtOne = "no row %1$@ (the list has %2$@ row)", noRowAt = "no row %1$@ (the list has %2$@ rows)"
    case noCellAtOne = "no cell %1$@ (the screen has %2$@ cell)", noCellAt = "no cell %1$@ (the screen has %2$@ cells)"
    case noCellNamed = "no cell \"%1$@\" (cells: %2$@)"
    case noCellMeant = "no cell \"%1$@\" (did you mean \"%2$@\"? cells: %3$@)"
    case takesNoValue = "cell \"%@\" takes no value"
    case editOnFirst = "cell \"%@\" takes values in edit mode only (edit on first)"
    case noButtonNamed = "no button \"%1$@\" (buttons: %2$@)"
    case noMenuItemNamed = "no menu item \"%1$@\" (menu items: %2$@)"
    case noAlertWaiting = "no alert is waiting for an answer"
    case noActionNamed = "no action \"%1$@\" (actions: %2$@)"
    case alertWaiting = "an alert is waiting: answer it with respond before %@"
    case noScopeNamed = "no search scope \"%1$@\" (scopes: %2$@; pass a scope's title or its 1-based position)"
    case buttonDisabled = "the bar button \"%@\" is disabled now (its enabledPath is false)"
    case accessoryDisabled = "the accessory of cell \"%@\" is disabled now (its accyEnabled is false)"
    case coveredFirst = "the app is covered by its protection: authenticate before %@"
    case notCoveredNow = "the app is not covered (authenticate answers the protection cover)"
    case authenticationFailed = "authentication failed: the app stays covered"
    case neitherOnNorOff = "%1$@: %2$@ is neither on nor off (%3$@ takes on or off, true or false, yes or no)"
    case neitherOnNorOffOwn = "%1$@: %2$@ is neither on nor off (%3$@ takes on or off, true or false, yes or no, %4$@ or %5$@)"
    case tooManyFieldsOne = "respond: %1$@ field given, but it has %2$@ (%3$@); quote a field with spaces (respond OK \"a b\"): nothing was done"
    case tooManyFields = "respond: %1$@ fields given, but it has %2$@ (%3$@); quote a field with spaces (respond OK \"a b\"): nothing was done"
    case noFieldsOne = "respond: %@ field given, but it has no fields; quote a field with spaces (respond OK \"a b\"): nothing was done"
    case noFields = "respond: %@ fields given, but it has no fields; quote a field with spaces (respond OK \"a b\"): nothing was done"
    // A command a screen does not allow now, or a row or cell refuses (its state, its enabled binding)
    case screenDoesNotAllow = "screen \"%1$@\" does not allow %2$@"
    case tapWhileEditing = "screen \"%@\" does not allow tap while editing"
    case moveWhileSearching = "screen \"%@\" does not allow move while searching"
    case moveInGroupedList = "screen \"%@\" does not allow move in a grouped list"
    case moveOutsideEditMode = "screen \"%@\" does not allow move outside edit mode (edit on first)"
    case selectOutsideEditMode = "screen \"%@\" does not allow select outside edit mode (edit on first)"
    case deleteWhileSelecting = "screen \"%@\" does not allow delete while selecting rows (edit mode with selectPath; edit off first)"
    case editOffAlways = "screen \"%@\" does not allow edit off (editAlways)"
    case disabledForRow = "%1$@ is disabled for row %2$@ now"
    case notACommandOf = "%1$@ is not a command of %2$@ screens"
    case cellReadOnly = "cell \"%@\" is read-only (readOnly)"
    case cellOfKindTakesNoValue = "cell \"%1$@\" (%2$@) takes no value"
    case optionAmbiguous = "cell \"%1$@\": %2$@ names options %3$@; pass its id or position"
    // The terminal shell's `?`: its groups of commands and its notes (the commands and their arguments, ROW, CELL,
    // TEXT, stay as typed)
    case helpRows = "Rows:", helpScreen = "Screen:", helpNavigation = "Navigation:", helpAlerts = "Alerts:", helpApp = "App:"
    case helpWithoutStoring = "(without storing)"
    case helpRowIs = "ROW is a position, an id or a row's text; quote words with spaces (\"Release Date\")."
}

extension BuiltInWord {
    /// The words with a count, as pairs of the word for `one` and the word for any other count: an app may give the
    /// latter as a table of forms (lua-api.md "Counts"), the form of the count's category is shown.
    public static let counted: [(one: BuiltInWord, other: BuiltInWord)] = [
        (.atMostCharacter, .atMostCharacters), (.searchTooLongOne, .searchTooLong),
        (.tooManyAttemptsOne, .tooManyAttempts), (.tooManyPeopleOne, .tooManyPeople), (.uploadsBusyOne, .uploadsBusy),
        (.recordingLine, .recordingLines), (.savedTestLine, .savedTestLines),
        (.appLoadedWithWarning, .appLoadedWithWarnings),
        (.noRowNamedOne, .noRowNamed), (.noRowAtOne, .noRowAt), (.noCellAtOne, .noCellAt),
        (.tooManyFieldsOne, .tooManyFields), (.noFieldsOne, .noFields),
    ]

    /// The pair of words with a count this word is one of (`tooManyAttempts`: `tooManyAttemptsOne` for one second).
    public var counted: (one: BuiltInWord, other: BuiltInWord)? {
        BuiltInWord.counted.first { $0.one == self || $0.other == self }
    }
}
