/// The Record bar's script (`/static/okit-dev.js`, development mode only). Assert puts the page in asserting
/// mode (`okit-asserting` on the body; Escape or a second press leaves it): the next click on the page does not act
/// but names what it hit — the title, subtitle, a section's header or footer, a row's or cell's text, detail,
/// value or validation message, the alert's title or message, the list's footer — by position (`row-S-R` and
/// `cell-S-R` ids, `section-S`), and posts that to `/dev/assert` with the page's CSRF token and version. The
/// server reads the text from its own snapshot of the page; the page then reloads to show the new line.
enum DevScript {
    static let js = #"""
(function () {
  "use strict";
  var body = document.body;
  if (!body) { return; }
  function data(name) { return body.getAttribute("data-" + name) || ""; }
  function asserting() { return body.classList.contains("okit-asserting"); }
  function setAsserting(on) {
    body.classList.toggle("okit-asserting", on);
    var button = document.querySelector(".okit-record-assert");
    if (button) { button.setAttribute("aria-pressed", on ? "true" : "false"); }
  }

  // What a click hit, as the fields of POST /dev/assert.
  function place(el) {
    if (el.closest("#okit-title")) { return { target: "title" }; }
    if (el.closest(".okit-subtitle")) { return { target: "subtitle" }; }
    if (el.closest("#okit-alert-title")) { return { target: "alertTitle" }; }
    if (el.closest(".okit-alert-message")) { return { target: "alertMessage" }; }
    if (el.closest(".okit-list-footer")) { return { target: "footer" }; }
    var li = el.closest("li.okit-row");
    var m = li && /^(?:row|cell)-(\d+)-(\d+)$/.exec(li.id);
    if (m) {
      var part = el.closest(".okit-invalid") ? "invalid" : el.closest(".okit-detail") ? "detail" :
        el.closest("input, select, textarea") ? "value" : "text";
      return { target: "row", section: m[1], row: m[2], part: part };
    }
    var section = el.closest("section.okit-section");
    var s = section && /^section-(\d+)$/.exec(section.id);
    if (s && el.closest("h2")) { return { target: "header", section: s[1] }; }
    if (s && el.closest(".okit-subheader")) { return { target: "subheader", section: s[1] }; }
    if (s && el.closest(".okit-footer")) { return { target: "sectionFooter", section: s[1] }; }
    return { target: "none" };
  }

  document.addEventListener("click", function (event) {
    var el = event.target;
    if (!el || !el.closest) { return; }
    if (el.closest(".okit-record-assert")) {
      event.preventDefault();
      setAsserting(!asserting());
      return;
    }
    if (!asserting() || el.closest(".okit-record-bar")) { return; }
    event.preventDefault();
    event.stopPropagation();
    setAsserting(false);
    var form = new URLSearchParams();
    form.append("csrf", data("csrf"));
    form.append("v", data("version"));
    var hit = place(el);
    Object.keys(hit).forEach(function (k) { form.append(k, hit[k]); });
    fetch("/dev/assert", { method: "POST", body: form, credentials: "same-origin", redirect: "manual" })
      .then(function () { window.location.reload(); }, function () { window.location.reload(); });
  }, true);

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && asserting()) {
      event.preventDefault();
      event.stopPropagation();
      setAsserting(false);
    }
  }, true);
}());
"""#
}
