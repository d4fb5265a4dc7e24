/// The part of `/static/okit.js` that puts a new page's `<main>` in place of the old one by changing only what
/// differs (as morphdom and LiveView do): an element whose tag, `id` and `name` stay is kept and its attributes,
/// text and children are brought up to date; anything else is replaced. So a save or a live update keeps the
/// elements a person (or a test driving the browser) is holding: the focused field with its caret, an open row menu
/// (`<details open>` stays open), a button about to be clicked. Without it every save made every element on the
/// page a new one.
///
/// Runs inside the script's function: ``Script`` calls `morph(main, next)` from `swap`.
public enum ScriptMorph {
    /// The script's text (inserted into ``Script/js``).
    public static let js = #"""

  // One element kept for another when the two are the same control: same tag, id, name and type.
  function sameNode(a, b) {
    if (a.nodeType !== b.nodeType) { return false; }
    if (a.nodeType !== 1) { return true; }
    return a.tagName === b.tagName && a.id === b.id && a.getAttribute("name") === b.getAttribute("name")
      && a.getAttribute("type") === b.getAttribute("type");
  }

  function syncAttributes(a, b) {
    Array.prototype.slice.call(a.attributes).forEach(function (attr) {
      // A row menu the person opened stays open; the server never renders one open.
      if (attr.name === "open" && a.tagName === "DETAILS") { return; }
      if (!b.hasAttribute(attr.name)) { a.removeAttribute(attr.name); }
    });
    Array.prototype.slice.call(b.attributes).forEach(function (attr) {
      if (a.getAttribute(attr.name) !== attr.value) { a.setAttribute(attr.name, attr.value); }
    });
  }

  function isTextField(a) {
    return a.tagName === "TEXTAREA" || (a.tagName === "INPUT" && a.type !== "checkbox" && a.type !== "radio" && a.type !== "hidden");
  }

  // The value the page last showed in a text field (`_okitShown`, kept across swaps; the markup's at first).
  function shownValue(a) { return a._okitShown !== undefined ? a._okitShown : a.defaultValue; }

  // A field's value follows the page unless the person is typing in it (swap puts the typing back). A focused
  // field still showing what the page showed (its text saved, nothing typed since) follows too: someone else's
  // change shows at once, not only after a reload.
  function syncValue(a, b, shown) {
    var next = a.tagName === "TEXTAREA" ? b.textContent : (b.getAttribute("value") || "");
    if (a.tagName === "INPUT" && (a.type === "checkbox" || a.type === "radio")) {
      if (a !== document.activeElement) { a.checked = b.hasAttribute("checked"); }
      return;
    }
    if (!isTextField(a)) { return; }
    if (a === document.activeElement && a.value !== shown) { a._okitShown = next; return; }
    if (a.value !== next) { a.value = next; }
    a._okitShown = next;
    a._okitTypedFrom = undefined;
  }

  function morphNode(a, b) {
    if (a.nodeType !== 1) {
      if (a.nodeValue !== b.nodeValue) { a.nodeValue = b.nodeValue; }
      return;
    }
    var shown = isTextField(a) ? shownValue(a) : null;
    syncAttributes(a, b);
    syncValue(a, b, shown);
    morph(a, b);
  }

  // The first of `a` and its next few siblings that is the same control as `b` (a notice or a row added above
  // an element shifts it down; it is found and moved, not replaced).
  function findAhead(a, b) {
    for (var n = a, i = 0; n && i < 24; n = n.nextSibling, i++) {
      if (sameNode(n, b)) { return n; }
    }
    return null;
  }

  // Brings `from`'s children to `to`'s, keeping every child that stays the same control; what is new is inserted
  // before the old children still to be matched, and old children nothing matched are removed at the end.
  function morph(from, to) {
    var a = from.firstChild;
    var b = to.firstChild;
    while (b) {
      var nextB = b.nextSibling;
      var match = a ? findAhead(a, b) : null;
      if (match) {
        if (match !== a) { from.insertBefore(match, a); } else { a = a.nextSibling; }
        morphNode(match, b);
      } else {
        from.insertBefore(document.importNode(b, true), a);
      }
      b = nextB;
    }
    while (a) {
      var gone = a;
      a = a.nextSibling;
      from.removeChild(gone);
    }
  }
"""#
}
