/// The one script (`/static/okit.js`), no framework. Pages work without it; with it:
///
/// - live updates: an `EventSource` on the body's `data-events` URL with the page's location and version (`at`,
///   `v`: the server tells each tab of what its own page shows); a `stale` event fetches the page's location
///   and swaps the `<main>` element's content, keeping focus (by id, else name), the scroll position and the text
///   of a focused input; when the page fetched is at another place (a live reload or a deletion moved the
///   session), the address bar follows (`history.replaceState`). A stream the server refused (`--max-streams` reached: 503; the session gone: 403) is
///   not reopened by the browser: the page then says live updates are off (the body's `data-live-off`, in the
///   page's language) and tries again after 5 s, then 10, 20, … up to 5 minutes, each time fetching the page
///   first (a gone session gets a new one); once a stream opens again the notice goes and the page refreshes;
/// - hidden pages: the stream is closed while the page is hidden (`visibilitychange`) and a `hidden` command is
///   posted (the session may then be covered); when shown again the stream reopens and the page refreshes;
/// - controls of `okit-auto` forms (checkbox, select, range, radio, date) submit their form on `change`; the
///   forms' own submit buttons (`okit-nojs`) are hidden by the `okit-js` class on the body;
/// - text fields (`okit-text-save` forms) save on Enter and when they lose focus, through `fetch`, and the page
///   swaps in the answer (focus and typing kept); what the person does while a save is under way (a button, a
///   link, the next field) waits for it and then runs on the new page, so no post arrives out of date
///   (``ScriptTextSave``);
/// - the keyboard: Escape closes an open row menu, else presses the page's `okit-escape` button (an alert's
///   Cancel, a presented screen's Close, the menu's Close); opening a row menu closes the others
///   (``ScriptKeyboard``);
/// - a new page is put in by changing only what differs, so the elements a person holds stay (``ScriptMorph``).
public enum Script {
    /// The script's text.
    public static let js = #"""
(function () {
  "use strict";
  var body = document.body;
  if (!body) { return; }
  body.classList.add("okit-js");
  var source = null;
  var fetching = false;
  var again = false;

  function data(name) { return body.getAttribute("data-" + name) || ""; }

  function focusKey(el) {
    if (!el || el === body) { return null; }
    if (el.id) { return { id: el.id }; }
    if (el.name) { return { name: el.name, value: el.value }; }
    return null;
  }

  function findFocus(root, key) {
    if (!key) { return null; }
    if (key.id) { return document.getElementById(key.id); }
    var all = root.querySelectorAll("[name]");
    for (var i = 0; i < all.length; i++) {
      if (all[i].name === key.name) { return all[i]; }
    }
    return null;
  }

  function isTyping(el) {
    if (!el) { return false; }
    if (el.tagName === "TEXTAREA") { return true; }
    return el.tagName === "INPUT" && /^(text|search|password|number|email|url|tel)$/.test(el.type);
  }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var next = doc.querySelector("main");
    var main = document.querySelector("main");
    if (!next || !main) { return; }
    var active = document.activeElement;
    var key = focusKey(active);
    var typing = isTyping(active) ? { value: active.value, start: active.selectionStart, end: active.selectionEnd } : null;
    var x = window.scrollX, y = window.scrollY;
    morph(main, next);
    ["events", "command", "csrf", "location", "version", "live-off"].forEach(function (name) {
      var v = doc.body && doc.body.getAttribute("data-" + name);
      if (v !== null && v !== undefined) { body.setAttribute("data-" + name, v); }
    });
    // The page moved (a live reload or a deletion took the session elsewhere): the address follows it, so a
    // reload of the page or a bookmark names where the person is.
    var at = data("location");
    if (at && at !== window.location.pathname + window.location.search && window.history && history.replaceState) {
      history.replaceState(history.state, "", at);
    }
    var tabs = doc.querySelector("nav.okit-tabs");
    var oldTabs = document.querySelector("nav.okit-tabs");
    if (tabs && oldTabs) { oldTabs.replaceWith(document.importNode(tabs, true)); }
    if (doc.title) { document.title = doc.title; }
    var target = findFocus(main, key);
    if (target) {
      // The typing put back into a field the page replaced; a field kept (the same element) already has what
      // the morph decided (the typing, or the page's value when nothing was typed since the page showed it).
      if (typing && isTyping(target) && (target !== active || target.value === typing.value)) {
        target.value = typing.value;
        try { target.setSelectionRange(typing.start, typing.end); } catch (e) { /* not a text field */ }
      }
      target.focus({ preventScroll: true });
    }
    window.scrollTo(x, y);
  }

  function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    fetch(data("location") || window.location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html) { swap(html); followPlace(); } })
      .catch(function () { /* the next event or a reload will do */ })
      .then(function () {
        fetching = false;
        if (again) { again = false; refresh(); }
        if (reopen) { reopen = false; open(); }
      });
  }

  // A refused stream: the notice, and another try later (the page fetched first, then the stream).
  var offNotice = null;
  var retryDelay = 5000;
  var retryTimer = null;
  var reopen = false;

  function liveOff() {
    close();
    if (!offNotice) {
      offNotice = document.createElement("p");
      offNotice.setAttribute("role", "status");
      offNotice.className = "okit-notice okit-live-off";
      body.insertBefore(offNotice, body.firstChild);
    }
    offNotice.textContent = data("live-off");
    if (retryTimer) { return; }
    retryTimer = setTimeout(function () {
      retryTimer = null;
      if (document.visibilityState === "hidden") { return; }
      reopen = true;
      refresh();
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 300000);
  }

  function liveOn() {
    if (!offNotice) { return; }
    offNotice.remove();
    offNotice = null;
    retryDelay = 5000;
    refresh();
  }

  function open() {
    var url = data("events");
    if (!url || source || typeof EventSource === "undefined") { return; }
    // The page's place and version: the server tells this page when what it shows changes, whatever another
    // tab of the session shows.
    url += (url.indexOf("?") < 0 ? "?" : "&") + "at=" + encodeURIComponent(data("location")) +
      "&v=" + encodeURIComponent(data("version"));
    var es = new EventSource(url);
    source = es;
    streamAt = data("location");
    es.addEventListener("stale", refresh);
    es.addEventListener("open", liveOn);
    // A network error reconnects by itself (CONNECTING); an answer that is no stream (403, 503) does not (CLOSED).
    es.addEventListener("error", function () {
      if (es === source && es.readyState === EventSource.CLOSED) { liveOff(); }
    });
  }

  function close() {
    if (source) { source.close(); source = null; }
  }

  // A page put in for another place (its entry deleted meanwhile) opens its stream for that place.
  var streamAt = null;
  function followPlace() {
    if (source && streamAt !== data("location")) { close(); open(); }
  }

  function reportHidden() {
    var url = data("command");
    if (!url) { return; }
    // URL-encoded, as every form of the page (the server takes no multipart here).
    var form = new URLSearchParams();
    form.append("csrf", data("csrf"));
    form.append("at", data("location"));
    form.append("command", "hidden");
    fetch(url, { method: "POST", body: form, credentials: "same-origin", keepalive: true, redirect: "manual" })
      .catch(function () { /* the idle timeout covers the session anyway */ });
  }

  // Leaving the page (a link, a form, a reload) hides it too; that is not the person going away.
  var leaving = false;
  window.addEventListener("pagehide", function () { leaving = true; });
  window.addEventListener("beforeunload", function () { leaving = true; });
  window.addEventListener("pageshow", function () { leaving = false; });

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") {
      close();
      if (!leaving) { reportHidden(); }
    } else {
      open();
      refresh();
    }
  });

  document.addEventListener("change", function (event) {
    var el = event.target;
    if (!el || !el.form || !el.form.classList.contains("okit-auto")) { return; }
    var auto = el.tagName === "SELECT" ||
      (el.tagName === "INPUT" && /^(checkbox|radio|range|date|datetime-local|time)$/.test(el.type));
    if (!auto) { return; }
    if (el.form.requestSubmit) { el.form.requestSubmit(); } else { el.form.submit(); }
  });

  if (document.visibilityState !== "hidden") { open(); }
"""# + ScriptMorph.js + ScriptTextSave.js + ScriptKeyboard.js + #"""
}());
"""#
}
