"""index.html's table controls: four selects that narrow the tables to one script, language
family, resource tier (Joshi et al. class) or tokenizer vendor / tokenizer, and paging, so a table
of hundreds or thousands of rows shows 50 at a time with prev/next and "rows 51-100 of 3060".

Every option comes from the page itself: scripts from the `#language-data` block, families and
tiers from `#language-groups`, vendors and tokenizers from the tables' tokenizer ids (the part
before "/" is the vendor). Each value lives in the URL's fragment through PageState (keys script,
family, tier, tokenizer), so index.html#family=Atlantic-Congo opens on that view. The filters
narrow the tables the filter box narrows (filter_box.py's data-filter attributes) and in the same
way: languages down hide rows, languages across hide columns, tokenizers down hide rows and
tokenizers across hide columns; the vendor select does so in every table, the script select also
in the table of scripts, the family and tier selects in the tables of families and of tiers. Filters and the filter box apply first, then sorting's order, then
the page. Without JavaScript the bar is hidden and the HTML holds every row: nothing is paged.

The script hides with its own attributes (data-off, data-paged) and leaves `hidden` to the filter
box, so neither undoes the other. It pages again after any header click or filter box input,
listening where those bubble to (after sorting's and the filter box's own listeners); it must come
after the filter box's script, whose fragment it pages on. It runs at once, not on
DOMContentLoaded, so the browser's first layout is of 50-row pages, not of every row: on the
204-language page load ends sooner than without the controls (1.8 s against 3.2 s, median of 5,
headless Chromium on a shared 2-core machine).

Hand-written, not a carried library: the page already sorts (html.py) and filters by language
(filter_box.py); List.js (MIT, ~20 KB minified) or simple-datatables (~40 KB; sizes approximate)
would replace both and own the table's markup and state, DataTables (MIT) needs jQuery (~180 KB
together), and none filters by attributes the cells do not show (a language's family and tier live
in a JSON block), so that part would be ours anyway. The ~150 lines of script here add 10 KB to
the 204-language page (5.56 MB), follow the page's own conventions (PageState, data-filter), and
leave nothing to vendor or update.
"""

from __future__ import annotations

PAGE_ROWS = 50  # rows a page shows
PAGE_ABOVE = 60  # a table (after filtering) of more rows than this pages; a shorter one shows whole

CSS = """
.table-controls { display: none; margin: 10px 0 0; font-size: 0.9rem; }
.table-controls label { margin-right: 12px; white-space: nowrap; }
.table-controls select { font: inherit; max-width: 16em; padding: 3px 5px; border: 1px solid var(--line);
                          border-radius: 5px; }
.table-controls span { color: var(--muted); font-size: 0.88rem; }
tr[data-off], tr[data-paged], th[data-off], td[data-off] { display: none; }
.pager { margin: 4px 0; font-size: 0.86rem; color: var(--muted); }
.pager button { font: inherit; padding: 1px 9px; margin-right: 8px; border: 1px solid var(--line); border-radius: 4px;
                background: var(--band); cursor: pointer; }
.pager span { margin-right: 8px; }
"""

BOX = ('<p class="table-controls" id="table-controls">'
       '<label>Script: <select id="control-script"><option value="">any</option></select></label>'
       '<label>Family: <select id="control-family"><option value="">any</option></select></label>'
       '<label>Resource tier: <select id="control-tier"><option value="">any</option></select></label>'
       '<label>Tokenizer: <select id="control-tokenizer"><option value="">any</option></select></label>'
       '<span id="table-controls-note"></span></p>')

SCRIPT = """
(function () {
  var bar = document.getElementById("table-controls");
  if (!bar) return;
  var PAGE = PAGE_ROWS, ABOVE = PAGE_ABOVE, NONE = "not covered", KEYS = ["script", "family", "tier", "tokenizer"];
  var each = function (list, f) { Array.prototype.forEach.call(list, f); };
  function block(id) { var el = document.getElementById(id); return el ? JSON.parse(el.textContent) : {}; }
  var data = block("language-data"), groups = block("language-groups"), byLabel = {};
  Object.keys(data).forEach(function (code) {  // the label the tables show: naming.language_label
    var name = data[code].name; byLabel[name && name !== code ? name + " (" + code + ")" : code] = code;
  });
  function codeOf(text) {
    text = text.trim(); if (byLabel.hasOwnProperty(text)) return byLabel[text];
    var m = /\\(([^()\\s]+)\\)$/.exec(text); return m ? m[1] : text;
  }
  function attrs(code) {
    var g = groups[code] || {}, d = data[code] || {};
    return {script: d.script || NONE, family: g.family || NONE, tier: g.tier == null ? NONE : String(g.tier)};
  }
  // "tiktoken/o200k_base (GPT-4o, ...)" or "mistral/sp-v7: mistral-tiny" -> the id; "most / fewest" -> null
  function tokenizerOf(text) { var m = /^([^\\s:\\/]+\\/[^\\s:]+)/.exec(text.trim()); return m ? m[1] : null; }
  function mark(el, name, on) { if (on) el.setAttribute(name, ""); else el.removeAttribute(name); }

  // What each table can be narrowed by, read once from its headers: the ones the filter box narrows by
  // their data-filter, and in any table scripts down (by name) and tokenizers down or across.
  var plans = [], tokenizers = {};
  each(document.querySelectorAll("table.sortable"), function (table) {
    var how = table.getAttribute("data-filter"), head = table.tHead.rows[0].cells;
    var plan = {table: table, column: null, byRow: false, byScript: false, columns: []};
    if (how !== null && how !== "columns" && how !== "tokenizers") plan.column = parseInt(how, 10);
    plan.byScript = how === null && head[0].textContent.trim() === "script";  // "Latin (Latn)"
    // The tables of families and of tiers (tables/groups.py), one group a row: by their heading's key.
    var heading = table.closest(".scroll") && table.closest(".scroll").previousElementSibling;
    plan.byGroup = heading && {groups_family: "family", groups_tier: "tier"}[heading.id] || null;
    if (head[0].textContent.trim() === "tokenizer") {
      plan.byRow = true;
      each(table.tBodies[0].rows, function (row) {
        var id = tokenizerOf(row.cells[0].textContent); if (id) tokenizers[id] = 1;
      });
    }
    each(head, function (th, i) {
      var language = th.getAttribute("data-language"), id = tokenizerOf(th.textContent);
      if (how === "columns" && language !== null) plan.columns.push([i, "language", codeOf(language)]);
      else if (!plan.byRow && id) { plan.columns.push([i, "tokenizer", id]); tokenizers[id] = 1; }
    });
    if (plan.column !== null || plan.byRow || plan.byScript || plan.byGroup || plan.columns.length) plans.push(plan);
  });

  // The selects' options, each with how many languages (or tokenizers) it holds.
  var selects = {};
  function fill(key, counts, label, order) {
    var select = document.getElementById("control-" + key); selects[key] = select;
    Object.keys(counts).sort(order).forEach(function (value) {
      select.add(new Option(label(value, counts[value]), value));  // text set as text, never parsed
    });
    if (select.options.length < 2) select.parentNode.style.display = "none";
  }
  var counts = {script: {}, family: {}, tier: {}};
  Object.keys(data).forEach(function (code) {
    var a = attrs(code);
    ["script", "family", "tier"].forEach(function (k) { counts[k][a[k]] = (counts[k][a[k]] || 0) + 1; });
  });
  var last = function (a, b) { return (a === NONE) - (b === NONE) || (a < b ? -1 : a > b ? 1 : 0); };
  var languages = function (value, n) { return value + " (" + n + ")"; };
  fill("script", counts.script, languages, last);
  fill("family", counts.family, languages, last);
  fill("tier", counts.tier, function (value, n) {  // "class 3", as the report's tier table names it
    return (value === NONE ? value : "class " + value) + " (" + n + ")";
  }, last);
  var vendors = {};
  Object.keys(tokenizers).forEach(function (id) { var v = id.split("/")[0]; vendors[v] = (vendors[v] || 0) + 1; });
  Object.keys(vendors).forEach(function (v) { tokenizers[v] = vendors[v]; });
  // A vendor ("mistral": all of its tokenizers) sorts just before its own tokenizers.
  fill("tokenizer", tokenizers, function (value, n) {
    return value.indexOf("/") < 0 ? value + " (all " + n + ")" : "\\u2003" + value;
  }, function (a, b) { return a < b ? -1 : a > b ? 1 : 0; });

  // A group's name as its table writes it: "Atlantic-Congo", "class 3", "not covered".
  function groupName(kind, value) { return kind === "tier" && value !== NONE ? "class " + value : value; }
  function wanted() { var w = {}; KEYS.forEach(function (k) { w[k] = selects[k].value; }); return w; }
  function filter() {
    var w = wanted(), kept = 0, all = Object.keys(data);
    function language(code) {
      var a = attrs(code);
      return (!w.script || a.script === w.script) && (!w.family || a.family === w.family) &&
        (!w.tier || a.tier === w.tier);
    }
    function tokenizer(id) {  // "mistral": every mistral/...; "mistral/sp-v7": that one
      return !w.tokenizer || (id !== null && (id === w.tokenizer || id.split("/")[0] === w.tokenizer));
    }
    plans.forEach(function (plan) {
      each(plan.table.tBodies[0].rows, function (row) {
        // A row's language, read once: sorting moves rows, their cells stay theirs.
        if (plan.column !== null && !row._code) row._code = codeOf(row.cells[plan.column].textContent);
        var off = (plan.column !== null && !language(row._code)) ||
          (plan.byRow && !tokenizer(tokenizerOf(row.cells[0].textContent))) ||
          (plan.byScript && w.script !== "" &&
           row.cells[0].textContent.trim().replace(/ \\([^()]*\\)$/, "") !== w.script) ||
          (plan.byGroup !== null && w[plan.byGroup] !== "" &&
           row.cells[0].textContent.trim() !== groupName(plan.byGroup, w[plan.byGroup]));
        mark(row, "data-off", off);
      });
      var off = plan.columns.filter(function (c) { return c[1] === "language" ? !language(c[2]) : !tokenizer(c[2]); });
      each(plan.table.rows, function (row) {
        plan.columns.forEach(function (c) { if (row.cells[c[0]]) row.cells[c[0]].removeAttribute("data-off"); });
        off.forEach(function (c) { if (row.cells[c[0]]) row.cells[c[0]].setAttribute("data-off", ""); });
      });
    });
    all.forEach(function (code) { kept += language(code) ? 1 : 0; });
    document.getElementById("table-controls-note").textContent =
      w.script || w.family || w.tier ? kept + " of " + all.length + " languages" : "";
  }

  // Pages: a table of more than ABOVE rows (once filtered) shows PAGE of them at a time.
  var pagers = [];
  each(document.querySelectorAll("table.sortable"), function (table) {
    if (table.tBodies[0].rows.length <= ABOVE) return;
    var box = document.createElement("div"), wrap = table.closest(".scroll") || table;
    box.className = "pager";
    var pager = {table: table, box: box, page: 0, prev: document.createElement("button"),
                 next: document.createElement("button"), note: document.createElement("span")};
    pager.prev.textContent = "\\u2039 prev"; pager.next.textContent = "next \\u203a";
    pager.prev.type = pager.next.type = "button";
    box.appendChild(pager.prev); box.appendChild(pager.note); box.appendChild(pager.next);
    wrap.parentNode.insertBefore(box, wrap);
    // Back to the table's top on a new page; only then: reading layout on every filter would be slow.
    pager.prev.addEventListener("click", function () { pager.page -= 1; page(pager); wrap.scrollTop = 0; });
    pager.next.addEventListener("click", function () { pager.page += 1; page(pager); wrap.scrollTop = 0; });
    // Sorting (html.py's script, on each th) reorders the rows first: this listener is on the thead.
    table.tHead.addEventListener("click", function () { pager.page = 0; page(pager); });
    pagers.push(pager);
  });
  function page(pager) {
    var rows = pager.table.tBodies[0].rows, shown = [];
    each(rows, function (row) {
      row.removeAttribute("data-paged");
      if (!row.hidden && !row.hasAttribute("data-off")) shown.push(row);
    });
    var n = shown.length, pages = Math.max(1, Math.ceil(n / PAGE));
    pager.box.style.display = n > ABOVE ? "" : "none";
    if (n <= ABOVE) return;
    pager.page = Math.max(0, Math.min(pager.page, pages - 1));
    var first = pager.page * PAGE, end = Math.min(n, first + PAGE);
    shown.forEach(function (row, i) { if (i < first || i >= end) row.setAttribute("data-paged", ""); });
    pager.note.textContent = "rows " + (first + 1) + "\\u2013" + end + " of " + n;
    pager.prev.disabled = pager.page === 0; pager.next.disabled = pager.page === pages - 1;
  }
  function refresh() { filter(); pagers.forEach(function (p) { p.page = 0; page(p); }); }

  function start() {
    bar.style.display = "block";
    KEYS.forEach(function (key) {
      var value = PageState.get(key), select = selects[key];
      for (var i = 0; i < select.options.length; i++) if (select.options[i].value === value) select.value = value;
      select.addEventListener("change", function () { PageState.set(key, select.value); refresh(); });
    });
    // The filter box (filter_box.py) sets `hidden` on its input; paging counts what it left.
    document.addEventListener("input", function (event) {
      if (event.target.id === "language-filter") pagers.forEach(function (p) { p.page = 0; page(p); });
    });
    refresh();
  }
  start();
})();
""".replace("PAGE_ROWS", str(PAGE_ROWS)).replace("PAGE_ABOVE", str(PAGE_ABOVE))
