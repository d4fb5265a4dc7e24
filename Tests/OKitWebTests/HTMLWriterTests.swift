import Testing
@testable import OKitWeb

@Suite struct HTMLWriterTests {
    @Test func textAndAttributesAreEscaped() {
        let node = HTMLNode.el("p", [.attr("title", "\"><script>alert(1)</script>'")], text: "<script>alert(1)</script> & more")
        let html = node.render()
        #expect(html == "<p title=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&#39;\">&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</p>")
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

    @Test func documentStartsWithTheDoctype() {
        let doc = HTMLDocument(head: [.el("title", text: "T")], body: [.el("h1", text: "T")])
        #expect(doc.render() == "<!DOCTYPE html>\n<html lang=\"en\"><head><title>T</title></head><body><h1>T</h1></body></html>")
    }
}
