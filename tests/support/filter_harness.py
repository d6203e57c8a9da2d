"""The page's filter box runs in QuickJS on these stand-ins for the DOM: tables made of cells, the
box, the note and the window's hash and history (page_state.py's PageState, which the harness
carries, runs on them); `type(text)` types a query, `state()` says what is shown."""

from benchmark.report.pages.page_state import SCRIPT as PAGE_STATE

FILTER_HARNESS = """
function cell(text, language) { return { textContent: text, hidden: false,
  getAttribute: function (name) { return name === "data-language" ? (language === undefined ? null : language) : null; } }; }
function makeTable(how, headers, rows, languageHeaders) {
  var head = { cells: headers.map(function (h, i) { return cell(h, languageHeaders ? languageHeaders[i] : undefined); }) };
  var body = rows.map(function (r) { return { hidden: false, cells: r.map(function (t) { return cell(t); }) }; });
  return { how: how, tHead: { rows: [head] }, tBodies: [{ rows: body }], rows: [head].concat(body),
           getAttribute: function () { return how; } };
}
var box = { value: "", listeners: {}, addEventListener: function (t, f) { this.listeners[t] = f; } };
var others = { "language-filter-box": { style: {} }, "language-filter-note": { textContent: "" } };
var window = { location: { hash: HASH, href: "index.html" + HASH }, addEventListener: function () {},
               history: { replaceState: function (s, t, url) {
                 window.location.href = url; window.location.hash = url.indexOf("#") < 0 ? "" : url.slice(url.indexOf("#")); } } };
var document = { getElementById: function (id) { return id === "language-filter" ? box : others[id]; },
                 querySelectorAll: function () { return TABLES; } };
PAGE_STATE
function type(text) { box.value = text; box.listeners.input(); return state(); }
function state() { return JSON.stringify(TABLES.map(function (t) {
  return t.how === "columns" ? t.rows[0].cells.map(function (c) { return !c.hidden; })
                             : t.tBodies[0].rows.map(function (r) { return !r.hidden; }); })); }
""".replace("PAGE_STATE", PAGE_STATE)
