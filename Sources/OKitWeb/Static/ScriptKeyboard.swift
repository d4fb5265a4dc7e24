/// The part of `/static/okit.js` for the keyboard (issue 36 item 15). The page's own order is the tab order (no
/// positive `tabindex`) and the stylesheet draws the focus (`:focus-visible`); a row menu is a `<details>`, which
/// opens with Enter or Space on its summary without any script. With the script:
///
/// - Escape closes the open row menu and puts the focus back on its summary; else it presses the page's
///   `okit-escape` button: an alert's, sheet's or prompt's Cancel (or No, or its only action), else a presented
///   screen's Close, else the open menu's Close;
/// - opening a row menu closes the one open before.
///
/// Runs inside the script's function.
public enum ScriptKeyboard {
    /// The script's text (inserted into ``Script/js``).
    public static let js = #"""

  // Escape: the open row menu, else the dialog's cancel, else the presented screen's or menu's Close.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || event.defaultPrevented || event.isComposing) { return; }
    var menu = document.querySelector("details.okit-row-menu[open]");
    if (menu) {
      event.preventDefault();
      menu.open = false;
      var summary = menu.querySelector("summary");
      if (summary) { summary.focus(); }
      return;
    }
    var button = document.querySelector("dialog[open] .okit-escape") || document.querySelector("main .okit-escape");
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  // One row menu open at a time.
  document.addEventListener("toggle", function (event) {
    var opened = event.target;
    if (!opened.classList || !opened.classList.contains("okit-row-menu") || !opened.open) { return; }
    Array.prototype.forEach.call(document.querySelectorAll("details.okit-row-menu[open]"), function (other) {
      if (other !== opened) { other.open = false; }
    });
  }, true);
"""#
}
