"""index.html's "Paste your text" box: the reader's own text estimated on every production
tokenizer from the run's calibration table, and priced on the shortlist's models, in the browser.

The estimate is `results/calibration.py`'s `estimate_tokens(..., per="char")`: the text's code
points times the tokens per character of one entry, the chosen language's (the select), else the
text's script's (detected from the characters' Unicode script), or that script's one measured
language when the run measured only one, else 'all'. Each shows the entry's held-out error: the
90th percentile of |estimate - tokens| / tokens over the checked split's sentences. The chosen
language is kept in the fragment (PageState key `paste`); the text never leaves the box (not in
the URL, shown back only as counts). Exact counts: `python -m benchmark cost --file FILE`.

`paste_data` builds the one JSON block the script reads (a columnar table, so 204 languages x 15
tokenizers stay small):

    {"tokenizers": [ids], "per": "char", "error": "char_sentence_error_p90",
     "groups": {group: [fit_n_chars, [fit_n_tokens per tokenizer, null: no entry],
                        [error in percent, rounded to 0.1, per tokenizer]]},
     "scripts": {script: {"name": ..., "unicode": [Unicode Script aliases], "languages": [codes]}},
     "models": [{"vendor", "model", "tokenizer", "seller", "usd_per_mtok"}], "prices": [sources]}

The script divides fit_n_tokens by fit_n_chars, the very division that made `tokens_per_char`, so
its estimate is Python's to the last bit; a group where that would not hold carries the ratios
themselves, with null in place of fit_n_chars. Without JavaScript the section says where the
exact counts come from, and the box stays hidden.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmark.corpora.languages import SCRIPT_NAMES, script_of
from benchmark.plumbing.escaping import json_script
from benchmark.pricing.prices.book import price_book
from benchmark.report.facts.by_language import contenders
from benchmark.report.view import ReportView

BLOCK_ID = "paste-data"
STATE_KEY = "paste"  # PageState's key of the chosen language
TITLE = "Paste your text"
COMMAND = "python -m benchmark cost --file FILE"

# ISO 15924 codes that are not one Unicode Script value: the values whose letters they are written in.
UNICODE_SCRIPTS = {"Jpan": ("Hira", "Kana", "Hani"), "Hans": ("Hani",), "Hant": ("Hani",), "Kore": ("Hang", "Hani")}

CSS = """
#paste-box { display: none; margin: 10px 0 0; }
#paste-box textarea { font: inherit; width: 100%; min-height: 7em; padding: 7px 9px; border: 1px solid var(--line);
                      border-radius: 5px; }
#paste-box select { font: inherit; padding: 3px 6px; max-width: 32em; }
#paste-box .paste-controls { margin: 8px 0; }
#paste-box table { width: auto; margin: 8px 0 14px; }
"""

BOX = f"""<h2 id="paste">{TITLE}</h2>
<p>Paste a text to estimate its tokens on every vendor's tokenizer without running one: its characters times the
tokens per character the run fitted for its language (or its script, or all languages), each beside that
estimate's held-out error, then what it costs on the shortlist's models at their list input price. The text stays in
this page (it is not put in the link). Exact counts: <code>{COMMAND}</code>.</p>
<noscript><p class="note">The box needs JavaScript; without it, count a file exactly with <code>{COMMAND}</code>.</p></noscript>
<div id="paste-box">
<textarea id="paste-text" placeholder="Paste or type a text" spellcheck="false" aria-label="your text"></textarea>
<p class="paste-controls"><label>Language: <select id="paste-language"><option value="">guess from the text's script</option>
</select></label></p>
<p class="note" id="paste-status"></p>
<table id="paste-estimates"><thead><tr><th>tokenizer</th><th class="num">estimated tokens</th><th>entry used</th>
<th class="num">held-out error (90% of sentences within)</th></tr></thead><tbody></tbody></table>
<table id="paste-prices"><thead><tr><th>model (cheapest first)</th><th>vendor (seller)</th><th>tokenizer</th>
<th class="num">input price / M tokens</th><th class="num">this text</th></tr></thead><tbody></tbody></table>
<p class="note" id="paste-sources"></p>
</div>"""

# subtle: characters are counted as code points (Array.from), as Python's len() counts them, not
# as UTF-16 units (text.length), and the text is not normalized (nor is it in Python).
SCRIPT = """
(function () {
  var box = document.getElementById("paste-box"), block = document.getElementById("paste-data");
  if (!box || !block) return;
  var data = JSON.parse(block.textContent), input = document.getElementById("paste-text");
  var select = document.getElementById("paste-language"), names = {};
  var named = document.getElementById("language-data");
  if (named) { var attributes = JSON.parse(named.textContent);
    Object.keys(attributes).forEach(function (code) { names[code] = attributes[code].name; }); }
  function label(group) {
    if (group === "all") return "all languages";
    if (data.scripts[group]) return data.scripts[group].name + " script (" + group + ")";
    return (names[group] && names[group] !== group ? names[group] + " (" + group + ")" : group);
  }
  var scriptOf = {}, detectors = [];
  Object.keys(data.scripts).forEach(function (script) {
    var tests = [];
    data.scripts[script].unicode.forEach(function (alias) {
      try { tests.push(new RegExp("\\\\p{Script=" + alias + "}", "gu")); } catch (e) { /* a browser without it */ }
    });
    detectors.push({script: script, tests: tests, size: data.scripts[script].unicode.length});
    data.scripts[script].languages.forEach(function (code) { scriptOf[code] = script; });
  });
  Object.keys(scriptOf).sort(function (a, b) { return label(a) < label(b) ? -1 : label(a) > label(b) ? 1 : 0; })
    .forEach(function (code) {
      var option = document.createElement("option"); option.value = code; option.textContent = label(code);
      select.appendChild(option);
    });
  // The script most of the letters are written in; on a tie the narrower one (Han alone: Hans, not Jpan).
  function detect(text) {
    var best = null, most = 0;
    detectors.forEach(function (d) {
      var n = 0;
      d.tests.forEach(function (re) { var found = text.match(re); n += found ? found.length : 0; });
      if (n > most || (n === most && n > 0 && d.size < best.size)) { best = d; most = n; }
    });
    return best ? {script: best.script, n: most} : null;
  }
  function usd(value) {  // pricing/formats.py's fmt_usd
    if (value >= 100) return "$" + Math.round(value).toLocaleString("en-US");
    if (value >= 1) return "$" + value.toLocaleString("en-US", {minimumFractionDigits: 2, maximumFractionDigits: 2});
    if (value === 0) return "$0";
    return "$" + value.toFixed(Math.max(2, 1 - Math.floor(Math.log10(value))));
  }
  function cell(row, text, numeric) {
    var td = document.createElement("td"); td.textContent = text; if (numeric) td.className = "num";
    row.appendChild(td); return td;
  }
  // The entry of the first group of `groups` that has one for tokenizer i.
  function entry(groups, i) {
    for (var g = 0; g < groups.length; g++) {
      var found = data.groups[groups[g]];
      if (found && found[1][i] !== null) {
        return {group: groups[g], ratio: found[0] === null ? found[1][i] : found[1][i] / found[0], error: found[2][i]};
      }
    }
    return null;
  }
  function render() {
    var text = input.value, n = Array.from(text).length, chosen = select.value, found = detect(text);
    var estimates = document.querySelector("#paste-estimates tbody"), prices = document.querySelector("#paste-prices tbody");
    estimates.textContent = ""; prices.textContent = "";
    var status = document.getElementById("paste-status");
    if (!n) { status.textContent = "Paste a text above."; return; }
    var groups, said = n + " characters";
    if (found) said += "; script: " + data.scripts[found.script].name + ", " + found.n + " of its letters";
    if (chosen) {
      groups = [chosen, scriptOf[chosen], "all"];
      if (found && found.script !== scriptOf[chosen]) said += "; the language chosen is written in another script";
    } else if (found) {
      var measured = data.scripts[found.script].languages;
      groups = measured.length === 1 ? [measured[0], found.script, "all"] : [found.script, "all"];
      said += measured.length === 1 ? "; its one measured language: " + label(measured[0]) :
        "; " + measured.length + " measured languages are written in it: choose yours for a closer estimate";
    } else {
      groups = ["all"]; said += "; no script the run measured: the estimate over all languages";
    }
    status.textContent = said + ".";
    var by = {};
    data.tokenizers.forEach(function (tokenizer, i) {
      var used = entry(groups, i);
      if (!used) return;
      var tokens = used.ratio * n, row = document.createElement("tr");
      by[tokenizer] = tokens;
      row.setAttribute("data-tokenizer", tokenizer); row.setAttribute("data-group", used.group);
      row.setAttribute("data-tokens", String(tokens));
      cell(row, tokenizer); cell(row, Math.round(tokens).toLocaleString("en-US"), true);
      cell(row, label(used.group)); cell(row, "\\u00b1" + used.error.toFixed(1) + "%", true);
      estimates.appendChild(row);
    });
    data.models.filter(function (m) { return m.tokenizer in by; })
      .map(function (m) { return {model: m, usd: by[m.tokenizer] * m.usd_per_mtok / 1e6}; })
      .sort(function (a, b) { return a.usd - b.usd || (a.model.model < b.model.model ? -1 : 1); })
      .forEach(function (priced) {
        var m = priced.model, row = document.createElement("tr");
        row.setAttribute("data-model", m.model); row.setAttribute("data-usd", String(priced.usd));
        cell(row, m.model); cell(row, m.vendor + (m.seller === m.vendor ? "" : " (" + m.seller + ")"));
        cell(row, m.tokenizer);
        cell(row, usd(m.usd_per_mtok), true); cell(row, usd(priced.usd), true);
        prices.appendChild(row);
      });
  }
  box.style.display = "block";
  document.getElementById("paste-sources").textContent = "Estimates per character from the run's " +
    "calibration table (calibration.json); prices: " + data.prices.join("; ") + ".";
  var kept = PageState.get("paste");
  if (kept && scriptOf[kept]) select.value = kept;
  input.addEventListener("input", render);
  select.addEventListener("change", function () { PageState.set("paste", select.value); render(); });
  render();
})();
"""


def unicode_scripts(script: str) -> tuple[str, ...]:
    """The Unicode Script values (short aliases, as JavaScript's \\p{Script=...} takes them) whose
    letters an ISO 15924 script code covers: 'Deva' -> ('Deva',), 'Jpan' -> ('Hira', 'Kana', 'Hani')."""
    return UNICODE_SCRIPTS.get(script, (script,))


def paste_data(results: ReportView, *, prices: Path | None = None) -> dict[str, Any] | None:
    """What the box's script reads (module doc); None when the run has no calibration table."""
    tokenizers = [t for t in results.production if any(e.tokenizer == t for e in results.calibration)]
    tokenizers += sorted({e.tokenizer for e in results.calibration} - set(tokenizers))
    if not tokenizers:
        return None
    column = {tokenizer: i for i, tokenizer in enumerate(tokenizers)}
    by_group: dict[str, list] = {}
    for entry in results.calibration:
        chars, ratios, errors = by_group.setdefault(entry.group, [set(), [None] * len(tokenizers),
                                                                  [None] * len(tokenizers)])
        chars.add(entry.fit_n_chars if entry.fit_n_tokens / entry.fit_n_chars == entry.tokens_per_char else None)
        ratios[column[entry.tokenizer]] = entry
        # f"{x:.1%}" formats x * 100 as .1f: the page's "12.3%" is the Python one.
        errors[column[entry.tokenizer]] = float(f"{entry.char_sentence_error_p90 * 100:.1f}")
    groups = {}
    for group, (chars, entries, errors) in by_group.items():
        shared = next(iter(chars)) if len(chars) == 1 else None
        groups[group] = [shared, [None if e is None else e.fit_n_tokens if shared is not None else e.tokens_per_char
                                  for e in entries], errors]
    languages = sorted(e.group for e in results.calibration if e.level == "language")
    scripts = {}
    for script in sorted(e.group for e in results.calibration if e.level == "script"):
        scripts[script] = {"name": SCRIPT_NAMES.get(script, script), "unicode": list(unicode_scripts(script)),
                           "languages": sorted({code for code in languages if script_of(code) == script})}
    book = price_book(results, prices=prices)
    models = [{"vendor": f.vendor, "model": f.model, "tokenizer": f.tokenizer, "seller": book.listings[f.model].seller,
               "usd_per_mtok": book.listings[f.model].input_usd_per_mtok}
              for f in contenders(results) if f.model in book.listings and book.listings[f.model].priced
              and f.tokenizer in column]
    return {"tokenizers": tokenizers, "per": "char", "error": "char_sentence_error_p90", "groups": groups,
            "scripts": scripts, "models": models,
            "prices": sorted({book.listings[m["model"]].source for m in models})}


def paste_data_block(data: dict[str, Any]) -> str:
    """The `<script type="application/json">` element holding `data`; '<', '>' and '&' are JSON
    escapes, so no model's or seller's name can close the element."""
    return json_script(BLOCK_ID, data, allow_nan=False)


def paste_box(results: ReportView, *, prices: Path | None = None) -> str:
    """The section (heading, box and its data block) for index.html; '' without a calibration table."""
    data = paste_data(results, prices=prices)
    return "" if data is None else f"{BOX}\n{paste_data_block(data)}"
