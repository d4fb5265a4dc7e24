import Testing
@testable import OKitWeb

@Suite struct HTMLWriterTests {
    @Test func textAndAttributesAreEscaped() {
        let node = HTMLNode.el("p", [.attr("title", "\"><script>alert(1)</script>'")], text: "<script>alert(1)</script> & more")
        let html = node.render()
        #expect(html == "<p title=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&#39;\">&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</p>")
    }

    /// A browser drops the line break right after `<textarea>`: one that starts the text is written twice, so the
    /// text comes back whole when the form is sent.
    @Test func aTextareaKeepsItsFirstEmptyLine() {
        #expect(HTMLNode.el("textarea", text: "\nsecond line").render() == "<textarea>\n\nsecond line</textarea>")
        #expect(HTMLNode.el("textarea", text: "\r\nx").render() == "<textarea>\n\r\nx</textarea>")
        #expect(HTMLNode.el("textarea", text: "first\nsecond").render() == "<textarea>first\nsecond</textarea>")
        #expect(HTMLNode.el("p", text: "\nx").render() == "<p>\nx</p>")
    }

    @Test func voidElementsAndBooleanAttributes() {
        let html = HTMLNode.el("input", [.attr("type", "checkbox"), .bool("checked"), .bool("disabled", false), .attr("x", nil)]).render()
        #expect(html == "<input type=\"checkbox\" checked>")
    }

    @Test func eventHandlersStylesAndScriptContentAreNeverWritten() {
        let html = HTMLNode.fragment([
            .el("a", [.attr("onclick", "x()"), .attr("ONload", "y"), .attr("style", "color:red"), .attr("href", "/")], text: "a"),
            .el("script", [.attr("src", "/s.js")], text: "alert(1)"),
            .el("di v<x>", [], text: "t"),
        ]).render()
        #expect(html == "<a href=\"/\">a</a><script src=\"/s.js\"></script><divx>t</divx>")
    }

    @Test func scriptURLsAreNotWritten() {
        let html = HTMLNode.fragment([
            .el("a", [.attr("href", " JavaScript:alert(1)")], text: "a"),
            .el("a", [.attr("href", "java\tscript:x")], text: "b"),
            .el("img", [.attr("src", "vbscript:x")]),
            .el("a", [.attr("href", "/books?q=javascript:"), .attr("title", "javascript:ok")], text: "c"),
            .el("a", [.attr("href", "javascript")], text: "d"),
        ]).render()
        #expect(html == "<a href=\"#\">a</a><a href=\"#\">b</a><img src=\"#\"><a href=\"/books?q=javascript:\" title=\"javascript:ok\">c</a><a href=\"javascript\">d</a>")
    }

    @Test func pathSegmentsAreEncoded() {
        #expect(PageContext.pathSegment("a b/c?d#é") == "a%20b%2Fc%3Fd%23%C3%A9")
    }

    @Test func documentStartsWithTheDoctype() {
        let doc = HTMLDocument(head: [.el("title", text: "T")], body: [.el("h1", text: "T")])
        #expect(doc.render() == "<!DOCTYPE html>\n<html lang=\"en\"><head><title>T</title></head><body><h1>T</h1></body></html>")
    }
}
