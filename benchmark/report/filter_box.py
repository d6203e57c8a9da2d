"""The page's filter box: typing the start of a language's name or code ("hin", "Hindi", "zho_Hans";
any word of the name: "Chinese" finds Yue Chinese) narrows every table that has languages to the
ones that match; a link may carry it
(index.html#language=Hindi). Without JavaScript the box is hidden and every table reads whole.

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

BOX = ('<p class="language-filter" id="language-filter-box"><label>Language: <input id="language-filter" type="search" '
       'placeholder="a name or code, e.g. Hindi or zho_Hans" autocomplete="off"></label><span id="language-filter-note">'
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
  function apply() {
    var query = box.value.trim().toLowerCase(), tables = 0;
    document.querySelectorAll("table[data-filter]").forEach(function (table) {
      var how = table.getAttribute("data-filter");
      if (how === "columns") {
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
    document.getElementById("language-filter-note").textContent =
      query ? "showing languages matching \\u201c" + box.value.trim() + "\\u201d in " + tables + " tables" : "";
  }
  box.addEventListener("input", apply);
  var hash = window.location.hash;
  if (hash.indexOf("#language=") === 0) { box.value = decodeURIComponent(hash.slice(10)); apply(); }
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


def header_attributes(header: str, language_labels: Collection[str]) -> str:
    """A language column's `<th>` attribute: ' data-language="Hindi (hin_Deva)"'."""
    return f' data-language="{html.escape(header)}"' if header in language_labels else ""
