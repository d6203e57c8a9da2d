"""The page's state in its URL's fragment, so a view can be shared as a link:
index.html#language=Hindi&family=Atlantic-Congo&base=hin_Deva. Every control of the page (the
filters, the base switch, the paste box's language) reads its key from here when the page opens and
writes it back when the reader changes it; a key nobody set is absent. One script, loaded before
the controls' own, exposes `PageState.get(key)` and `PageState.set(key, value)` ('' removes it).
"""

from __future__ import annotations

# Keys in a fixed order, so the same view always gives the same link; the fragment is rewritten
# with history.replaceState: changing a filter adds no step to the browser's history. A link to a
# section of the page keeps the state: the fragment is written back once the browser has scrolled.
SCRIPT = """
var PageState = (function () {
  function read() {
    var values = {};
    window.location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      var at = part.indexOf("=");
      if (at > 0) values[decodeURIComponent(part.slice(0, at))] = decodeURIComponent(part.slice(at + 1));
    });
    return values;
  }
  var last = read();  // the state the page shows, put back when a link to a section replaces it
  function write(values) {
    last = values;
    var parts = Object.keys(values).sort().map(function (key) {
      return encodeURIComponent(key) + "=" + encodeURIComponent(values[key]);
    });
    var url = window.location.href.split("#")[0] + (parts.length ? "#" + parts.join("&") : "");
    window.history.replaceState(null, "", url);
  }
  // A click on a link to a section (#findings) replaces the fragment: the browser has scrolled
  // there, and the state goes back into the URL, so the link a reader copies still holds the view.
  window.addEventListener("hashchange", function () {
    if (window.location.hash.indexOf("=") < 0 && Object.keys(last).length) write(last);
  });
  return {
    get: function (key) { return last[key] || ""; },
    set: function (key, value) {
      var values = {};
      Object.keys(last).forEach(function (k) { values[k] = last[k]; });
      if (value) values[key] = value; else delete values[key];
      write(values);
    }
  };
})();
"""
