"""index.html's "premium over: [English]" switch: choosing another base language the run computed
(`run --bases`, results/bases.py) rewrites in place every premium figure the page shows per
language and tokenizer, with the run's own intervals over that base (`ReportView.by_base`), and
renames the base in those tables' titles, notes and premium headers. Its value lives in the
fragment (index.html#base=hin_Deva, page_state.py). Without JavaScript the box is hidden and the
page reads over the reference, as the tables were written.

Which cells: the ones a table lists in `Table.premium_cells` (tables/), written here as
`data-p="T L"` (indices into the block's tokenizers and languages) with the table's
`data-premium` style. The figures come in one JSON block, laid out to stay small on the
204-language page: the languages and tokenizers once, then per base and tokenizer one flat list
[premium, low, high, ...] in that language order, the premium to 4 significant digits and the
interval's ends as thousandths from it (1.514,-92,96 is 1.514 (1.422-1.610)), each chosen so the
page shows the figure Python's formatting does.
The reference's own figures are not repeated: switching back restores the cells as written.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

from benchmark.plumbing.escaping import json_script
from benchmark.report.tables.table import Table
from benchmark.report.view import ReportView

BLOCK_ID = "base-data"

CSS = """
.base-switch { display: none; margin: 10px 0 0; }
.base-switch select { font: inherit; padding: 4px 6px; border: 1px solid var(--line); border-radius: 5px; }
.base-switch span { color: var(--muted); font-size: 0.88rem; margin-left: 10px; }
"""

BOX = ('<p class="base-switch" id="base-switch-box"><label>Premium over: <select id="base-switch"></select></label>'
       '<span id="base-switch-note"></span></p>')

# Figures as the tables write them (naming.fmt_ratio, fmt_ratio_interval; pricing.fmt_interval): a
# language over itself has no interval; the dagger when either side's text was changed.
SCRIPT = """
(function () {
  var data = document.getElementById("base-data"), box = document.getElementById("base-switch");
  if (!data || !box) return;
  var run = JSON.parse(data.textContent), names = {}, reference = run.bases[0][0];
  if (run.bases.length < 2) return;
  run.bases.forEach(function (base) {
    names[base[0]] = base[1];
    var option = document.createElement("option");
    option.value = base[0]; option.textContent = base[1] + " (" + base[0] + ")";
    box.appendChild(option);
  });
  document.getElementById("base-switch-box").style.display = "block";
  var cells = Array.prototype.slice.call(document.querySelectorAll("table[data-premium] td[data-p]"));
  var written = cells.map(function (td) { return td.textContent; });
  var styles = cells.map(function (td) { return td.closest("table").getAttribute("data-premium"); });
  // The text nodes naming the base: the title and note of a table whose title names it (a grid of
  // premiums), else the premium column's header ("premium" becomes "premium over Hindi").
  var texts = [];
  function naming(element, header) {
    if (!element) return;
    var walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT), node;
    while ((node = walker.nextNode())) {
      if (!node.parentNode.closest("a")) texts.push([node, node.nodeValue, header]);
    }
  }
  Array.prototype.forEach.call(document.querySelectorAll("table[data-premium]"), function (table) {
    var scroll = table.closest(".scroll"), first = table.querySelector("td[data-p]");
    var title = scroll.previousElementSibling;
    while (title && title.classList.contains("pager")) title = title.previousElementSibling;  // table_controls.py's
    if (title && title.textContent.indexOf(names[reference]) >= 0) {
      naming(title, false);
      var note = scroll.nextElementSibling;
      if (note && note.classList.contains("note")) naming(note, false);
    } else if (first) {
      naming(table.tHead.rows[0].cells[first.cellIndex], true);
    }
  });
  function fixed(x) { return x.toFixed(2); }
  function figure(style, list, i, own, mark) {
    if (!list || list[i] === null) return "";
    var p = fixed(list[i]), range = fixed(list[i] + list[i + 1] / 1000) + "-" + fixed(list[i] + list[i + 2] / 1000);
    if (style === "plain") return p;
    if (style === "x") return p + "x" + (own ? "" : " (95% CI " + range + ")");
    return p + (own ? "" : " (" + range + ")") + (mark ? " \\u2020" : "");
  }
  function lossy(t, l) { return (run.lossy[t] || []).indexOf(l) >= 0; }
  function show(base) {
    var over = base === reference ? null : run.premiums[base], at = run.languages.indexOf(base);
    cells.forEach(function (td, k) {
      if (!over) { td.textContent = written[k]; return; }
      var key = td.getAttribute("data-p").split(" "), t = +key[0], l = +key[1];
      td.textContent = figure(styles[k], over[t], 3 * l, l === at, lossy(t, l) || lossy(t, at));
    });
    var from = names[reference], to = names[base];
    texts.forEach(function (text) {
      var named = text[1].split(from).join(to);
      text[0].nodeValue = over && named === text[1] && text[2] ? text[1] + " over " + to : named;
    });
    box.value = base;
    document.getElementById("base-switch-note").textContent = (over ? "Rewritten over " + to + ": " :
      "Switch to rewrite ") + "the premiums of " + run.tables + " tables, language by language, with the run's own " +
      "95% intervals over that base; every other figure (groups, scripts, domains, means, costs per word, plots, " +
      "findings) and the CSV buttons stay over " + names[reference] + ", as their headings say.";
  }
  box.addEventListener("change", function () {
    PageState.set("base", box.value === reference ? "" : box.value);
    show(box.value);
  });
  show(names[PageState.get("base")] ? PageState.get("base") : reference);
})();
"""


def _as_shown(value: float) -> str:
    """`value` as the page's script writes it: toFixed(2), a half of the exact value rounded up."""
    return str(Decimal(value).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _number(value: float) -> float | int:
    return int(value) if value == int(value) else value


def compact(value: float) -> float | int:
    """`value` to 4 significant digits, moved by a unit of the 4th where rounding twice would show
    a different figure (1.2349 -> 1.235 -> "1.24"): the page then shows what Python's f"{value:.2f}" does."""
    if value == 0 or not math.isfinite(value):
        return 0 if value == 0 else value
    wanted = f"{value:.2f}"
    nearest = Decimal(f"{value:.4g}")
    unit = Decimal(1).scaleb(math.floor(math.log10(abs(value))) - 3)
    for step in (0, -1, 1, -2, 2):
        candidate = float(nearest + step * unit)
        if _as_shown(candidate) == wanted:
            return _number(candidate)
    return _number(float(wanted))  # from 100 up, 4 significant digits hold no two decimals


def offset(end: float, premium: float | int) -> int:
    """An interval's end as thousandths from the block's `premium`, the one whose sum the script
    computes (premium + offset / 1000, the same doubles as here) shows as f"{end:.2f}" does."""
    wanted, near = f"{end:.2f}", round((end - premium) * 1000)
    for step in (0, -1, 1, -2, 2):
        if _as_shown(premium + (near + step) / 1000) == wanted:
            return near + step
    raise AssertionError(f"no thousandth from {premium!r} near {end!r} shows as {wanted}")


def _flat(by_language: dict[str, list[float]], languages: list[str]) -> list[float | int | None]:
    """[premium, low, high, ...] in `languages` order (low and high as `offset`s), three nulls
    where a language has none."""
    out: list[float | int | None] = []
    for code in languages:
        figures = by_language.get(code)
        if figures is None:
            out += [None] * 3
            continue
        premium = compact(figures[0])
        out += [premium, offset(figures[1], premium), offset(figures[2], premium)]
    return out


def _lossy(results: ReportView, tokenizers: list[str], languages: list[str]) -> list[list[int]]:
    from benchmark.report.facts.analysis import is_lossy

    at = {code: k for k, code in enumerate(languages)}
    out = [[] for _ in tokenizers]
    for k, tokenizer in enumerate(tokenizers):
        out[k] = sorted(at[row.language] for row in results.rows
                        if row.tokenizer == tokenizer and row.ok and row.language in at and is_lossy(row))
    return out


class BaseSwitch:
    """The switch for one run: the block's order of tokenizers and languages, and each table's marks."""

    def __init__(self, results: ReportView) -> None:
        self.results = results
        self.bases = list(results.by_base)
        self.tokenizers = list(results.tokenizers)
        self.languages = list(results.languages)
        self._tokenizer_at = {tid: k for k, tid in enumerate(self.tokenizers)}
        self._language_at = {code: k for k, code in enumerate(self.languages)}
        self.tables = 0  # tables with premium cells seen so far, for the box's note

    @property
    def active(self) -> bool:
        return len(self.bases) > 1

    def table_attribute(self, table: Table) -> str:
        """' data-premium="interval"' on a table whose cells the switch rewrites; '' else."""
        if not self.active or not table.premium_cells:
            return ""
        self.tables += 1
        return f' data-premium="{table.premium_style}"'

    def cell_attributes(self, table: Table) -> dict[tuple[int, int], str]:
        """(row, column) -> ' data-p="T L"' for each premium cell of `table`."""
        if not self.active:
            return {}
        return {(r, c): f' data-p="{self._tokenizer_at[t]} {self._language_at[l]}"'
                for r, c, t, l in table.premium_cells if t in self._tokenizer_at and l in self._language_at}

    def block(self) -> str:
        """The `<script type="application/json">` of the bases' figures ('' for a run of one base);
        '<', '>' and '&' are JSON escapes, so no name can close the element."""
        if not self.active:
            return ""
        names = self.results.record.language_names
        premiums = {}
        for base in self.bases[1:]:
            over = self.results.by_base[base]
            premiums[base] = [_flat(over[tokenizer], self.languages) if tokenizer in over else None
                              for tokenizer in self.tokenizers]
        data = {"bases": [[code, names.get(code) or code] for code in self.bases], "tables": self.tables,
                "tokenizers": self.tokenizers, "languages": self.languages, "premiums": premiums,
                "lossy": _lossy(self.results, self.tokenizers, self.languages)}
        return json_script(BLOCK_ID, data)
