/// The one stylesheet (`/static/okit.css`): OKit's iOS grouped-table look, readable from a 375px phone to a
/// desktop window. Colours come from custom properties (`--okit-…`), which the theme stylesheet
/// (``ThemeStylesheet``) overrides with the app's theme values; a dark scheme applies when the system asks for it.
/// Sides are logical (`margin-inline-start`, `border-inline-start`, `text-align: start`): a right-to-left page
/// (`<html dir="rtl">`, web.md) is laid out mirrored by the same rules.
public enum Stylesheet {
    /// The stylesheet's text.
    public static let css = #"""
:root {
  --okit-background-color: #f2f2f7;
  --okit-cell-background-color: #ffffff;
  --okit-text-color: #000000;
  --okit-detail-text-color: #8e8e93;
  --okit-tint-color: #007aff;
  --okit-destructive-color: #ff3b30;
  --okit-separator-color: #c6c6c8;
  --okit-bar-background-color: #f9f9f9;
  --okit-selected-color: #d1d1d6;
  --okit-switch-on-color: #34c759;
  --okit-radius: 10px;
  --okit-font: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --okit-background-color: #000000;
    --okit-cell-background-color: #1c1c1e;
    --okit-text-color: #ffffff;
    --okit-detail-text-color: #8e8e93;
    --okit-tint-color: #0a84ff;
    --okit-separator-color: #38383a;
    --okit-bar-background-color: #1c1c1e;
    --okit-selected-color: #3a3a3c;
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body.okit {
  margin: 0; padding: 0 0 4.5rem; min-height: 100vh;
  background: var(--okit-background-color); color: var(--okit-text-color);
  font: 17px/1.35 var(--okit-font);
}
main#okit-main { max-width: 44rem; margin: 0 auto; padding: 0 1rem 1rem; }
/* The fixed tab bar never covers the end of the page, nor what keyboard focus scrolls to. */
html:has(.okit-tabs) { scroll-padding-bottom: 5rem; }
main#okit-main:has(~ .okit-tabs) { padding-bottom: 4.5rem; }
a { color: var(--okit-tint-color); }
h1 { font-size: 2rem; font-weight: 700; margin: .5rem 0 .25rem; overflow-wrap: anywhere; }
h2 {
  font-size: .8rem; font-weight: 400; text-transform: uppercase; letter-spacing: .02em;
  color: var(--okit-detail-text-color); margin: 1.25rem 1rem .4rem;
}
/* A list's section titles as written: "Ё" and "ё" are two sections (web.md). */
h2.okit-group-title { text-transform: none; }
.okit-subtitle, .okit-prompt, .okit-footer, .okit-count { color: var(--okit-detail-text-color); }
.okit-subtitle, .okit-prompt { margin: 0 0 .75rem; }
.okit-footer { font-size: .8rem; margin: .4rem 1rem 0; }
.okit-subheader { font-size: .8rem; color: var(--okit-detail-text-color); margin: -.25rem 1rem .4rem; }
.okit-list-footer { margin: 0 1rem 1.25rem; }
.okit-visually-hidden {
  position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
}
.okit-js .okit-auto .okit-nojs { display: none; }

/* The bar: back link, breadcrumb, buttons. */
.okit-bar {
  position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .5rem;
  margin: 0 -1rem; padding: .5rem 1rem; background: var(--okit-bar-background-color);
  border-bottom: 1px solid var(--okit-separator-color);
}
.okit-bar-left { display: flex; gap: .5rem; align-items: center; }
.okit-bar-buttons { display: flex; gap: .25rem; margin-inline-start: auto; flex-wrap: wrap; }
.okit-back { text-decoration: none; }
/* The chevrons ‹ › are mirrored characters: in right-to-left text the browser shows them the other way round, so on
   a right-to-left page the back chevron points right and the disclosure chevrons left, as the page reads. */
.okit-back::before { content: "‹ "; font-size: 1.3em; line-height: 1; }
.okit-breadcrumb ol { display: flex; flex-wrap: wrap; list-style: none; margin: 0; padding: 0; font-size: .85rem; }
.okit-breadcrumb li + li::before { content: "›"; padding: 0 .35rem; color: var(--okit-detail-text-color); }
.okit-breadcrumb a { text-decoration: none; }

/* Buttons: plain tinted text, as in a navigation bar. */
.okit-inline { display: inline; margin: 0; }
.okit-button, .okit-bar button {
  font: inherit; color: var(--okit-tint-color); background: none; border: 0; border-radius: 8px;
  padding: .35rem .6rem; cursor: pointer; text-decoration: none; display: inline-block;
}
.okit-button:hover, .okit-button:focus-visible { background: var(--okit-selected-color); }
.okit-button:disabled { color: var(--okit-detail-text-color); cursor: default; background: none; }
.okit-default { font-weight: 600; }
.okit-add { font-size: 1.5rem; line-height: 1; padding: .1rem .6rem; }
.okit-delete { color: var(--okit-destructive-color); }
:focus-visible { outline: 2px solid var(--okit-tint-color); outline-offset: 2px; }

/* Messages. */
.okit-notice, .okit-error { margin: .5rem 0; padding: .6rem 1rem; border-radius: var(--okit-radius); }
.okit-notice { background: var(--okit-cell-background-color); border-inline-start: 4px solid var(--okit-tint-color); }
.okit-error { background: var(--okit-cell-background-color); border-inline-start: 4px solid var(--okit-destructive-color); }
.okit-invalid { flex-basis: 100%; margin: .25rem 0 0; color: var(--okit-destructive-color); font-size: .9em; }
.okit-help { margin: .5rem 0; padding: .6rem 1rem; background: var(--okit-cell-background-color); border-radius: var(--okit-radius); }
.okit-help summary { cursor: pointer; color: var(--okit-tint-color); }

/* Search. */
.okit-search { margin: .5rem 0; }
.okit-search input[type=search] {
  width: 100%; font: inherit; padding: .45rem .75rem; border: 0; border-radius: var(--okit-radius);
  background: var(--okit-selected-color); color: var(--okit-text-color);
}

/* Grouped tables. */
.okit-section { margin: 0 0 1.25rem; }
.okit-rows {
  list-style: none; margin: 0; padding: 0; background: var(--okit-cell-background-color);
  border-radius: var(--okit-radius); overflow: hidden;
}
.okit-row {
  display: flex; flex-wrap: wrap; align-items: center; gap: 0 .5rem; min-height: 2.75rem; padding: 0; padding-inline-end: .5rem;
  border-bottom: 1px solid var(--okit-separator-color); margin-inline-start: 1rem;
}
.okit-row:last-child { border-bottom: 0; }
.okit-row-form { flex: 1 1 12rem; margin: 0; min-width: 0; }
.okit-row-main {
  flex: 1 1 12rem; display: flex; align-items: center; gap: .75rem; min-width: 0; width: 100%; min-height: 2.75rem;
  padding: .5rem 0; font: inherit; color: inherit; background: none; border: 0; text-align: start; text-decoration: none;
}
button.okit-row-main { cursor: pointer; }
.okit-text { flex: 1; overflow-wrap: anywhere; }
.okit-detail { color: var(--okit-detail-text-color); text-align: end; overflow-wrap: anywhere; }
.okit-disclosure::after { content: "›"; color: var(--okit-separator-color); font-size: 1.4em; line-height: 1; }
.okit-row-image { width: 2.25rem; height: 2.25rem; object-fit: cover; border-radius: 6px; }
.okit-row-actions { display: flex; flex-wrap: wrap; gap: .15rem; align-items: center; margin-inline-start: auto; }
.okit-row-actions .okit-button { font-size: .9rem; padding: .25rem .45rem; }
.okit-checked .okit-check::after, .okit-checkmark { content: "✓"; color: var(--okit-tint-color); font-weight: 600; }
.okit-ribbon { box-shadow: inset 4px 0 0 var(--okit-tint-color); }
[dir=rtl] .okit-ribbon { box-shadow: inset -4px 0 0 var(--okit-tint-color); }
/* A row's menu: what OKit keeps behind a swipe (quick action, More, Delete outside edit mode), opened by its ⋯. */
.okit-row-menu { margin-inline-start: auto; }
.okit-row-menu > summary {
  list-style: none; cursor: pointer; padding: .2rem .6rem; border-radius: 8px; font-size: 1.2rem; line-height: 1;
  color: var(--okit-tint-color); text-align: end;
}
.okit-row-menu > summary::-webkit-details-marker { display: none; }
.okit-row-menu > summary:hover, .okit-row-menu[open] > summary { background: var(--okit-selected-color); }
.okit-row-menu[open] { flex-basis: 100%; }
.okit-row-menu-items { display: flex; flex-wrap: wrap; justify-content: flex-end; gap: .15rem; padding: .25rem 0 .4rem; }
.okit-row-menu-items .okit-button { font-size: .9rem; padding: .25rem .55rem; }
.okit-index ol { display: flex; flex-wrap: wrap; gap: .1rem .35rem; list-style: none; margin: .25rem 0; padding: 0; font-size: .8rem; font-weight: 600; }
.okit-index a { text-decoration: none; }
.okit-more-rows { text-align: center; }

/* Detail cells and their controls. */
.okit-cell { flex-wrap: wrap; }
.okit-control { flex: 1; display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; margin: 0; padding: .45rem 0; min-width: 0; }
.okit-control > label, .okit-segments legend { flex: 1 1 8rem; }
.okit-control input[type=text], .okit-control input[type=password], .okit-control input[type=number],
.okit-control input[type=datetime-local], .okit-control input[type=date], .okit-control select, .okit-control textarea {
  flex: 2 1 12rem; font: inherit; color: var(--okit-text-color); background: transparent;
  border: 1px solid var(--okit-separator-color); border-radius: 8px; padding: .3rem .5rem; min-width: 0;
}
.okit-control textarea { min-height: 5rem; width: 100%; }
.okit-control input[type=range] { flex: 2 1 10rem; accent-color: var(--okit-tint-color); }
.okit-control progress { flex: 2 1 10rem; accent-color: var(--okit-tint-color); }
.okit-control input:disabled, .okit-control select:disabled, .okit-control textarea:disabled { border-color: transparent; opacity: 1; }
/* A date cell: its title and the engine's text for the date; opened, the date input (never wider than the cell). */
.okit-date { flex: 1 1 100%; min-width: 0; }
.okit-date > summary { list-style: none; cursor: pointer; }
.okit-date > summary::-webkit-details-marker { display: none; }
.okit-date > summary::after { content: "›"; color: var(--okit-separator-color); font-size: 1.4em; line-height: 1; transition: transform .2s; }
.okit-date[open] > summary::after { transform: rotate(90deg); }
.okit-date .okit-control { padding-top: 0; }
.okit-control input[type=datetime-local] { max-width: 100%; }
.okit-image img { max-width: 100%; border-radius: 6px; }
.okit-image, .okit-web { margin: 0; }
.okit-web iframe { width: 100%; min-height: 12rem; border: 0; }
.okit-stepper { display: flex; border: 1px solid var(--okit-separator-color); border-radius: 8px; }
.okit-stepper .okit-button { min-width: 2.5rem; font-size: 1.2rem; }

/* A switch: a checkbox drawn as a track with a knob. */
input.okit-switch {
  appearance: none; -webkit-appearance: none; position: relative; flex: 0 0 auto;
  width: 3.1rem; height: 1.9rem; margin: 0; border-radius: 1rem; cursor: pointer;
  background: var(--okit-selected-color); transition: background .2s;
}
input.okit-switch::before {
  content: ""; position: absolute; top: .15rem; inset-inline-start: .15rem; width: 1.6rem; height: 1.6rem; border-radius: 50%;
  background: #fff; box-shadow: 0 1px 3px rgba(0, 0, 0, .3); transition: transform .2s;
}
input.okit-switch:checked { background: var(--okit-switch-on-color); }
input.okit-switch:checked::before { transform: translateX(1.2rem); }
[dir=rtl] input.okit-switch:checked::before { transform: translateX(-1.2rem); }
input.okit-switch:disabled { cursor: default; opacity: .6; }

/* Segments and scopes: a segmented control. */
.okit-segments { display: flex; flex-wrap: wrap; align-items: center; border: 0; margin: 0; padding: 0; gap: 0; }
.okit-segment input { position: absolute; opacity: 0; width: 1px; height: 1px; }
.okit-segment label {
  display: inline-block; padding: .25rem .75rem; border: 1px solid var(--okit-tint-color); margin-inline-start: -1px;
  color: var(--okit-tint-color); cursor: pointer; font-size: .9rem;
}
.okit-segment:first-of-type label { border-start-start-radius: 8px; border-end-start-radius: 8px; }
.okit-segment:last-of-type label { border-start-end-radius: 8px; border-end-end-radius: 8px; }
.okit-segment input:checked + label { background: var(--okit-tint-color); color: var(--okit-cell-background-color); }
.okit-segment input:focus-visible + label { outline: 2px solid var(--okit-tint-color); outline-offset: 2px; }

/* Dialogs: alerts, sheets and prompts. */
dialog.okit-alert {
  position: fixed; inset: 0; z-index: 10; margin: auto; width: min(20rem, calc(100% - 2rem)); height: fit-content;
  border: 0; border-radius: 14px; padding: 1rem; text-align: center;
  background: var(--okit-cell-background-color); color: var(--okit-text-color);
  box-shadow: 0 0 0 100vmax rgba(0, 0, 0, .4);
}
dialog.okit-sheet { top: auto; bottom: 1rem; }
dialog.okit-alert h2 { font-size: 1.05rem; font-weight: 600; text-transform: none; color: inherit; margin: 0 0 .25rem; letter-spacing: 0; }
.okit-alert-message { margin: 0 0 .75rem; font-size: .9rem; }
.okit-field { margin: .4rem 0; display: flex; flex-direction: column; gap: .2rem; text-align: start; }
.okit-field input {
  font: inherit; padding: .4rem .5rem; border: 1px solid var(--okit-separator-color); border-radius: 8px;
  color: var(--okit-text-color); background: var(--okit-background-color);
}
.okit-field label { font-size: .8rem; color: var(--okit-detail-text-color); }
.okit-actions { display: flex; flex-wrap: wrap; justify-content: center; gap: .25rem; margin: .75rem 0 0; }
.okit-actions .okit-button { flex: 1 1 auto; }

/* Presented screens, the menu drawer, the cover, the backups screen. */
.okit-modal { margin: .75rem 0; padding: 0 1rem 1rem; border-radius: 14px; background: var(--okit-background-color); box-shadow: 0 4px 24px rgba(0, 0, 0, .25); }
.okit-modal .okit-bar { margin: 0 -1rem; border-radius: 14px 14px 0 0; }
.okit-menu { border-inline-start: 4px solid var(--okit-tint-color); padding-inline-start: .5rem; }
.okit-cover { text-align: center; padding-top: 15vh; }
.okit-cover-image { max-width: 8rem; border-radius: 20px; }
.okit-cover-form { max-width: 20rem; margin: 1rem auto; }
.okit-backup .okit-row-actions { gap: .4rem; }
.okit-restore { display: flex; flex-wrap: wrap; align-items: center; gap: .3rem; margin: 0; }
.okit-restore input { font: inherit; width: 8rem; padding: .2rem .4rem; border: 1px solid var(--okit-separator-color); border-radius: 6px; background: transparent; color: inherit; }
.okit-restore label { font-size: .8rem; color: var(--okit-detail-text-color); }
.okit-backup-create form, .okit-backup-upload form { background: var(--okit-cell-background-color); border-radius: var(--okit-radius); padding: .5rem 1rem; }

/* The tab bar, fixed at the bottom. */
.okit-tabs {
  position: fixed; inset-inline: 0; bottom: 0; z-index: 3; background: var(--okit-bar-background-color);
  border-top: 1px solid var(--okit-separator-color); padding-bottom: env(safe-area-inset-bottom);
}
.okit-tabs ul { display: flex; justify-content: space-around; list-style: none; margin: 0 auto; padding: 0; max-width: 44rem; }
.okit-tabs li { flex: 1; }
.okit-tabs a {
  display: block; padding: .75rem .25rem; text-align: center; font-size: .8rem; text-decoration: none;
  color: var(--okit-detail-text-color);
}
.okit-tabs a[aria-current=page] { color: var(--okit-tint-color); font-weight: 600; }

@media (min-width: 48rem) {
  main#okit-main { padding: 0 2rem 2rem; }
  main#okit-main:has(~ .okit-tabs) { padding-bottom: 5rem; }
  .okit-bar { margin: 0 -2rem; padding: .5rem 2rem; }
  h1 { font-size: 2.25rem; }
}
"""#
}
