/// The part of `/static/okit.js` that saves text fields (issue 36 item 15): a text or multiline cell's `set` form
/// (`okit-text-save`) is sent when the person presses Enter in it or leaves it having changed it (`change`), with
/// `fetch` instead of a page load, and the answer's `<main>` is swapped in (``Script``'s `swap`: focus, scroll and
/// what is being typed stay). The form's Save button shows only without the script.
///
/// Leaving a field by clicking a button or a link starts the save before the click arrives; the click then waits
/// for the save and runs on the new page — the same form found again by its command and arguments, so it carries
/// the new page's version — and a link is followed. Without this the click's post would carry the version the
/// save just made old, and the server would apply nothing ("This page was out of date").
///
/// Runs inside the script's function: it uses `swap` and `data`.
public enum ScriptTextSave {
    /// The script's text (inserted into ``Script/js``).
    public static let js = #"""

  // Saving text fields: one save at a time; what the person did meanwhile waits in `queued`.
  var saving = false;
  var sending = null;
  var queued = null;

  function isTextSave(form) { return !!form && form.classList.contains("okit-text-save"); }

  function textField(form) { return form.querySelector("input[name=value], textarea[name=value]"); }

  // What a form does, whatever page version it was rendered from: its action and its hidden arguments.
  function formKey(form) {
    var parts = [form.getAttribute("action") || ""];
    Array.prototype.forEach.call(form.querySelectorAll("input[type=hidden]"), function (input) {
      if (["csrf", "v", "at"].indexOf(input.name) < 0) { parts.push(input.name + "=" + input.value); }
    });
    return parts.join("&");
  }

  function findForm(key) {
    var forms = document.querySelectorAll("main form");
    for (var i = 0; i < forms.length; i++) {
      if (formKey(forms[i]) === key) { return forms[i]; }
    }
    return null;
  }

  function queue(form, submitter) {
    var field = isTextSave(form) ? textField(form) : null;
    // Enter in a field sends it (change) and submits it: the second is the save under way.
    if (field && sending && sending.key === formKey(form) && sending.value === field.value) { return; }
    queued = { key: formKey(form), value: field ? field.value : null,
               submitter: submitter ? { name: submitter.name, value: submitter.value, text: submitter.textContent } : null };
  }

  function sameSubmitter(button, want) {
    return button.name === want.name && button.value === want.value && button.textContent === want.text;
  }

  // After a save: run what waited, on the new page.
  function replay() {
    var next = queued;
    queued = null;
    if (!next) { return; }
    if (next.href) { window.location.assign(next.href); return; }
    var form = findForm(next.key);
    if (!form) { return; }
    if (isTextSave(form)) {
      var field = textField(form);
      if (field && next.value !== null) { field.value = next.value; }
      saveText(form);
      return;
    }
    var buttons = form.querySelectorAll("button[type=submit]");
    var submitter = null;
    for (var i = 0; i < buttons.length && next.submitter; i++) {
      if (sameSubmitter(buttons[i], next.submitter)) { submitter = buttons[i]; }
    }
    if (submitter && submitter.disabled) { return; }
    if (form.requestSubmit) { form.requestSubmit(submitter || undefined); } else { form.submit(); }
  }

  function samePlace(url) {
    var a = new URL(url, window.location.href);
    return a.pathname + a.search === window.location.pathname + window.location.search;
  }

  // Sends a text field's form when its value changed since the page showed it (or since it was last sent), or when
  // the page holds it as not stored (`aria-invalid`: refused, or sent from a page that was out of date).
  function saveText(form) {
    var field = textField(form);
    if (!field || (field.value === field.defaultValue && field.getAttribute("aria-invalid") !== "true")) { replay(); return; }
    if (saving) { queue(form, null); return; }
    saving = true;
    sending = { key: formKey(form), value: field.value };
    field.defaultValue = field.value;
    var body = new URLSearchParams(new FormData(form));
    // Typed over a value someone else changed meanwhile (the page showed their change while the person typed):
    // sent with the page version the typing began on, so the server applies nothing and says the page was out of
    // date; the typing stays in the field, and the next Enter stores it knowingly.
    if (field._okitTypedFrom !== undefined && field._okitTypedFrom.shown !== shownValue(field)) {
      body.set("v", field._okitTypedFrom.version);
    }
    field._okitTypedFrom = undefined;
    fetch(form.action, { method: "POST", body: body, credentials: "same-origin", keepalive: true,
                         headers: { "Accept": "text/html" } })
      .then(function (r) {
        if (!r.ok) { return null; }
        return r.text().then(function (html) { return { url: r.url, html: html }; });
      })
      .catch(function () { return null; })
      .then(function (answer) {
        saving = false;
        sending = null;
        // A refused or lost post: the form posts the ordinary way, and the browser shows the server's answer.
        if (!answer) { queued = null; form.submit(); return; }
        if (!samePlace(answer.url)) { queued = null; window.location.assign(answer.url); return; }
        swap(answer.html);
        replay();
      });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (saving) { event.preventDefault(); queue(form, event.submitter); return; }
    if (isTextSave(form)) { event.preventDefault(); saveText(form); }
  }, true);

  document.addEventListener("click", function (event) {
    if (!saving || event.defaultPrevented || event.button !== 0) { return; }
    var link = event.target.closest && event.target.closest("a[href]");
    if (!link || link.getAttribute("href").charAt(0) === "#" || link.target === "_blank") { return; }
    event.preventDefault();
    queued = { href: link.href };
  }, true);

  // The first keystroke in a text field notes what the page showed there and the page's version.
  document.addEventListener("input", function (event) {
    var el = event.target;
    if (!el || !isTextSave(el.form) || el !== textField(el.form) || el._okitTypedFrom !== undefined) { return; }
    var version = el.form.querySelector("input[name=v]");
    el._okitTypedFrom = { shown: shownValue(el), version: version ? version.value : "" };
  });

  document.addEventListener("change", function (event) {
    var el = event.target;
    if (!el || !isTextSave(el.form) || el !== textField(el.form)) { return; }
    saveText(el.form);
  });
"""#
}
