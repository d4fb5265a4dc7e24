/// The Record bar's stylesheet (`/static/okit-dev.css`, development mode only): a bar fixed to the bottom of the
/// window; Assert shows only with the script (it needs it); while asserting, texts that can be checked are
/// outlined under the pointer. The error overlay of a live reload that failed is a box fixed above the bar, at the bottom right, so the
/// page's bar and buttons stay in reach (the last app that loaded keeps serving).
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
.okit-dev-error { position: fixed; right: 16px; bottom: 72px; z-index: 60;
  width: min(calc(100vw - 32px), 48em); max-height: 45vh; overflow: auto; box-sizing: border-box; padding: 12px 16px;
  background: #fff5f5; color: #1d1d1f; border: 2px solid #d70015; border-radius: 10px;
  box-shadow: 0 8px 32px rgba(0, 0, 0, .25); font-size: 14px; }
.okit-dev-error-title { margin: 0 0 8px; font-size: 16px; color: #d70015; text-transform: none; letter-spacing: normal; }
.okit-dev-error-message { margin: 0 0 8px; white-space: pre-wrap; font-family: ui-monospace, Menlo, monospace; }
.okit-dev-error-hint { margin: 0; color: #555; }
.okit-dev-warnings { position: fixed; left: 16px; bottom: 72px; z-index: 59;
  width: min(calc(100vw - 32px), 40em); max-height: 30vh; overflow: auto; box-sizing: border-box; padding: 8px 12px;
  background: #fffbea; color: #1d1d1f; border: 1px solid #c98800; border-radius: 10px; font-size: 13px; }
.okit-dev-warnings summary { cursor: pointer; font-weight: 600; color: #8a5d00; }
.okit-dev-warnings ul { margin: 6px 0 0; padding-left: 18px; }
.okit-dev-warnings li { white-space: pre-wrap; font-family: ui-monospace, Menlo, monospace; }
"""#
}
