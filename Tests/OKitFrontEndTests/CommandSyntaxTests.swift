import Testing
@testable import okit_run

/// A shell line is split into words as a POSIX shell splits it: a person can type a quote inside a quoted word and
/// a backslash means what it means there (an outside tester stored `Ficus \Benjamin\` for `"Ficus \"Benjamin\""`).
@Suite struct CommandSyntaxTests {
    @Test func quotesAndBackslashesAreAShellsQuotesAndBackslashes() {
        #expect(CommandSyntax.words(#"add "Ficus \"Benjamin\"""#) == ["add", #"Ficus "Benjamin""#])
        #expect(CommandSyntax.words(#"add "Zamioculcas 20\" Topf""#) == ["add", #"Zamioculcas 20" Topf"#])
        #expect(CommandSyntax.words(#"add "a\\b""#) == ["add", #"a\b"#])
        #expect(CommandSyntax.words(#"add "a\nb""#) == ["add", #"a\nb"#], "other backslashes stay inside double quotes")
        #expect(CommandSyntax.words(#"add 'a\b "c"'"#) == ["add", #"a\b "c""#], "nothing is special inside single quotes")
        #expect(CommandSyntax.words(#"add It\'s\ fine"#) == ["add", "It's fine"])
        #expect(CommandSyntax.words(#"set name """#) == ["set", "name", ""], "an empty quoted word is a word")
        #expect(CommandSyntax.words(#"tap x\"#) == ["tap", #"x\"#], "a backslash at the end stays")
        #expect(CommandSyntax.words("set \"Release Date\" 2019-05-01") == ["set", "Release Date", "2019-05-01"])
    }
}
