import Testing
@testable import okit_run

/// A shell line is split into words as a POSIX shell splits it: a person can type a quote inside a quoted word and
/// a backslash means what it means there (an outside tester stored `Ficus \Benjamin\` for `"Ficus \"Benjamin\""`).
@Suite struct CommandSyntaxTests {
    @Test func quotesAndBackslashesAreAShellsQuotesAndBackslashes() throws {
        #expect(try CommandSyntax.words(#"add "Ficus \"Benjamin\"""#) == ["add", #"Ficus "Benjamin""#])
        #expect(try CommandSyntax.words(#"add "Zamioculcas 20\" Topf""#) == ["add", #"Zamioculcas 20" Topf"#])
        #expect(try CommandSyntax.words(#"add "a\\b""#) == ["add", #"a\b"#])
        #expect(try CommandSyntax.words(#"add "a\nb""#) == ["add", #"a\nb"#], "other backslashes stay inside double quotes")
        #expect(try CommandSyntax.words(#"add 'a\b "c"'"#) == ["add", #"a\b "c""#], "nothing is special inside single quotes")
        #expect(try CommandSyntax.words(#"add It\'s\ fine"#) == ["add", "It's fine"])
        #expect(try CommandSyntax.words(#"set name """#) == ["set", "name", ""], "an empty quoted word is a word")
        #expect(try CommandSyntax.words(#"tap x\"#) == ["tap", #"x\"#], "a backslash at the end stays")
        #expect(try CommandSyntax.words("set \"Release Date\" 2019-05-01") == ["set", "Release Date", "2019-05-01"])
    }

    /// An outside tester pasted a name with a line break: `add "First line` added a book and the second line ran as
    /// a command. A quote left open is refused, as a shell refuses it; JSON lines answer it as malformed.
    @Test func aQuoteLeftOpenIsRefusedAndNothingRuns() {
        for line in [#"add "abc"#, "add 'abc", #"set Comment "a"#, "add $'a", #"add "a" "b"#] {
            #expect(throws: CommandSyntax.UnclosedQuote.self, "\(line)") { try CommandSyntax.parse(line) }
            #expect(CommandSyntax.command(line) == nil, "\(line)")
        }
        do {
            _ = try CommandSyntax.parse(#"add "First line"#)
            Issue.record("an unclosed quote was accepted")
        } catch {
            #expect("\(error)" == #"unclosed quote (") in add "First line: nothing was done (close it on the same line; a line break in a value: $'first\nsecond')"#)
        }
    }

    /// A line break (and a tab) typed into a value: inside `$'…'`, as in bash; elsewhere a backslash keeps its
    /// meaning.
    @Test func aLineBreakIsTypedInsideDollarQuotes() throws {
        #expect(try CommandSyntax.words(#"set Comment $'first line\nsecond line'"#) == ["set", "Comment", "first line\nsecond line"])
        #expect(try CommandSyntax.words(#"add $'a\tb\\c\'d\"e\qf'"#) == ["add", "a\tb\\c'd\"e\\qf"])
        #expect(try CommandSyntax.words(#"add pre$'\n'post"#) == ["add", "pre\npost"])
        #expect(try CommandSyntax.words(#"add $5 a$b"#) == ["add", "$5", "a$b"], "a dollar without a quote is a dollar")
        let cmd = try CommandSyntax.parse(#"set Comment $'a\nb'"#)
        #expect(cmd?["value"] as? String == "a\nb")
    }

    /// A quoted word is text as typed, never a number or a switch; digits with a leading zero stay text unquoted too
    /// (a phone number's or a postcode's zeros were lost: `set Code "007"` stored 7).
    @Test func quotedWordsAndLeadingZerosAreText() throws {
        func value(_ line: String) throws -> Any? { try CommandSyntax.parse(line)?["value"] }
        #expect(try value(#"set Code "007""#) as? String == "007")
        #expect(try value("set Code 007") as? String == "007")
        #expect(try value("set Phone 060011122") as? String == "060011122")
        #expect(try value("set Copies 12") as? Int == 12)
        #expect(try value("set Copies -3") as? Int == -3)
        #expect(try value(#"set Copies "12""#) as? String == "12")
        #expect(try value(#"set Note "on""#) as? String == "on")
        #expect(try value("set Done on") as? Bool == true)
        #expect(try value("set Copies +5") as? String == "+5")
        #expect(try value("set Name Dune Messiah") as? String == "Dune Messiah")
        #expect(try value(#"set Name "" x"#) as? String == " x")
        #expect(try CommandSyntax.parse(#"tap "12""#)?["row"] as? String == "12", "a quoted row is a title")
        #expect(try CommandSyntax.parse("tap 12")?["row"] as? Int == 12)
        #expect(try CommandSyntax.parse("tap 012")?["row"] as? String == "012")
    }
}

