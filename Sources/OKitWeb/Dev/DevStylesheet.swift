/// The Record bar's stylesheet (`/static/okit-dev.css`, development mode only): a bar fixed to the bottom of the
/// window; Assert shows only with the script (it needs it); while asserting, texts that can be checked are
/// outlined under the pointer.
enum DevStylesheet {
    static let css = #"""
.okit-record-bar { position: fixed; left: 0; right: 0; bottom: 0; z-index: 50; display: flex; flex-wrap: wrap;
  align-items: center; gap: 8px; padding: 6px 12px; background: var(--okit-bar-background-color);
  border-top: 1px solid var(--okit-separator-color); font-size: 14px; }
.okit-record-bar form { margin: 0; display: flex; align-items: center; gap: 6px; }
.okit-record-bar input[type=text] { width: 12em; }
.okit-record-status { margin: 0; font-weight: 600; color: var(--okit-destructive-color); }
.okit-record-status::before { content: "\25CF  "; }
.okit-record-last { max-width: 40em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.okit-record-assert { display: none; }
.okit-js .okit-record-assert { display: inline-block; }
.okit-asserting .okit-record-assert { background: var(--okit-tint-color); color: #fff; }
.okit-asserting main :is(h1, h2, .okit-subtitle, .okit-subheader, .okit-footer, .okit-text, .okit-detail,
  .okit-invalid, .okit-alert-message, input, select, textarea):hover { outline: 2px dashed var(--okit-tint-color); cursor: crosshair; }
body.okit { padding-bottom: 64px; }
"""#
}
