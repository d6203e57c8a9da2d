"""The page's filter box: typing the start of a language's name or code ("hin", "Hindi", "zho_Hans";
any word of the name: "Chinese" finds Yue Chinese) narrows every table that has languages to the
ones that match; a query that names no language narrows the tokenizers instead (part of an id:
"llama", "sp-v7"), rows where tokenizers are down, columns where they are across; a link may carry it
(index.html#language=Hindi; page_state.py keeps it in the fragment). Without JavaScript the box is
hidden and every table reads whole.

A table opts in with `filter_attributes`: languages down (a column of language labels) hides
rows, languages across (one column per language) hides columns. Any renderer can use it: it
needs the table's headers and the run's language labels, nothing of the report's layout.
"""

from __future__ import annotations

import html
from collections.abc import Collection, Sequence

CSS = """
.language-filter { display: none; margin: 14px 0 0; }
.language-filter input { font: inherit; padding: 5px 9px; width: 22em; border: 1px solid var(--line); border-radius: 5px; }
.language-filter span { color: var(--muted); font-size: 0.88rem; margin-left: 10px; }
"""

BOX = ('<p class="language-filter" id="language-filter-box"><label>Language or tokenizer: <input id="language-filter" '
       'type="search" placeholder="e.g. Hindi, zho_Hans or llama" autocomplete="off"></label><span id="language-filter-note">'
       '</span></p>')

SCRIPT = """
(function () {
  var box = document.getElementById("language-filter");
  if (!box) return;
  document.getElementById("language-filter-box").style.display = "block";
  // A match starts a word of the label: "hin" finds Hindi and hin_Deva, not Chinese.
  function has(text, query) {
    var label = text.toLowerCase().trim(), words = label.split(/[\\s()]+/);
    if (label.indexOf(query) === 0) return true;
    for (var i = 0; i < words.length; i++) if (words[i].indexOf(query) === 0) return true;
    return false;
  }
  // A tokenizer matches where the query is part of its id ("llama", "sp-v7", "tiktoken/o200k").
  function hasTokenizer(text, query) { return text.toLowerCase().indexOf(query) >= 0; }
  function head(table) { return table.tHead.rows[0].cells; }
  function anyLanguage(tables, query) {
    for (var t = 0; t < tables.length; t++) {
      var how = tables[t].getAttribute("data-filter"), cells = head(tables[t]);
      if (how === "tokenizers") continue;  // no languages in it
      if (how === "columns") {
        for (var i = 0; i < cells.length; i++) {
          var language = cells[i].getAttribute("data-language");
          if (language !== null && has(language, query)) return true;
        }
      } else {
        var rows = tables[t].tBodies[0].rows, column = parseInt(how, 10);
        for (var r = 0; r < rows.length; r++) if (has(rows[r].cells[column].textContent, query)) return true;
      }
    }
    return false;
  }
  function byTokenizer(table, how, query) {
    var cells = head(table), rows = table.tBodies[0].rows;
    if (cells[0].textContent.trim() === "tokenizer") {  // tokenizers down: rows
      Array.prototype.forEach.call(rows, function (row) { row.hidden = !hasTokenizer(row.cells[0].textContent, query); });
    } else if (how !== "columns") {  // languages down, tokenizers across: columns
      var keep = [];
      for (var i = 0; i < cells.length; i++) {
        // A tokenizer's column is headed by its id alone ("llama/llama4"), not "tokens / sentence".
        var text = cells[i].textContent.trim(), isTokenizer = /^[^\s\/]+\/\S+$/.test(text);
        keep.push(i === parseInt(how, 10) || !isTokenizer || hasTokenizer(text, query));
      }
      Array.prototype.forEach.call(table.rows, function (row) {
        for (var j = 0; j < row.cells.length; j++) row.cells[j].hidden = !keep[j];
      });
    }
  }
  function apply() {
    var query = box.value.trim().toLowerCase(), tables = 0;
    var all = Array.prototype.slice.call(document.querySelectorAll("table[data-filter]"));
    all.forEach(function (table) {  // start from every row and column shown
      Array.prototype.forEach.call(table.rows, function (row) {
        row.hidden = false;
        for (var j = 0; j < row.cells.length; j++) row.cells[j].hidden = false;
      });
    });
    // A query that names no language is read as a tokenizer's id.
    var languages = !query || anyLanguage(all, query);
    all.forEach(function (table) {
      var how = table.getAttribute("data-filter");
      if (!languages) {
        byTokenizer(table, how, query);
      } else if (how === "tokenizers") {
        return;  // a table of tokenizers alone: a language query leaves it whole
      } else if (how === "columns") {
        var head = table.tHead.rows[0].cells, keep = [];
        for (var i = 0; i < head.length; i++) {
          var language = head[i].getAttribute("data-language");
          keep.push(!query || language === null || has(language, query));
        }
        Array.prototype.forEach.call(table.rows, function (row) {
          for (var j = 0; j < row.cells.length; j++) row.cells[j].hidden = !keep[j];
        });
      } else {
        var column = parseInt(how, 10);
        Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
          row.hidden = query !== "" && !has(row.cells[column].textContent, query);
        });
      }
      tables += 1;
    });
    document.getElementById("language-filter-note").textContent = !query ? "" :
      "showing " + (languages ? "languages" : "tokenizers") + " matching \u201c" + box.value.trim() + "\u201d in " +
      tables + " tables";
  }
  box.addEventListener("input", function () { PageState.set("language", box.value.trim()); apply(); });
  if (PageState.get("language")) { box.value = PageState.get("language"); apply(); }
})();
"""


def filter_attributes(headers: Sequence[str], language_labels: Collection[str]) -> str:
    """The `<table>` attribute that opts a table in: ' data-filter="N"' when column N holds the
    language labels (languages down), ' data-filter="columns"' when headers are languages; '' else."""
    for index, header in enumerate(headers):
        if header == "language":
            return f' data-filter="{index}"'
    if any(header in language_labels for header in headers):
        return ' data-filter="columns"'
    return ""


def tokenizer_filter_attributes(headers: Sequence[str]) -> str:
    """The `<table>` attribute of a table with tokenizers down and no languages (the tokenizer
    table, fairness): ' data-filter="tokenizers"', so a tokenizer query narrows it too."""
    return ' data-filter="tokenizers"' if headers and headers[0] == "tokenizer" else ""


def header_attributes(header: str, language_labels: Collection[str]) -> str:
    """A language column's `<th>` attribute: ' data-language="Hindi (hin_Deva)"'."""
    return f' data-language="{html.escape(header)}"' if header in language_labels else ""
