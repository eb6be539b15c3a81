// The catalog's search (home page, catalog/_search.html): filters the cards as one types,
// without a reload, as the server does for the form without JavaScript
// (marquoir/catalog/search.py): the query folded the same way (case, accents and punctuation
// ignored), found at the start of one of the keys each card carries (data-keys, the server's
// search_keys), or each of its words found at the start of a key, within a typo or two
// (search.found), the players, minutes and category compared the same way. Keeps the address in
// step (history.replaceState) and says how many games are left in the live region (its
// sentences, one per count, come from the server: data-counts).
(function () {
  "use strict";
  var form = document.getElementById("catalog-search");
  var count = document.getElementById("catalog-count");
  if (!form || !count || !window.history || !window.history.replaceState || !String.prototype.normalize) {
    return;
  }
  var QUERY_MAX_LENGTH = 100;
  var DEBOUNCE_MS = 150;
  var counts = JSON.parse(count.getAttribute("data-counts") || "[]");
  var cards = Array.prototype.slice.call(document.querySelectorAll(".card[data-keys]"));
  var sections = Array.prototype.slice.call(document.querySelectorAll("[data-category-section]"));
  var played = document.getElementById("catalog-played");
  var clear = document.getElementById("catalog-clear");
  var empty = document.getElementById("catalog-empty");
  var timer = null;

  // search.fold: decomposed, casefolded, decomposed again, letters and digits only. Python's
  // casefold also turns ß into ss, a final sigma into σ and the Greek iota subscript into ι,
  // which toLowerCase does not.
  function fold(text) {
    return text
      .normalize("NFKD")
      .toLowerCase()
      .replace(/\u00df/g, "ss")
      .replace(/\u03c2/g, "\u03c3")
      .replace(/\u0345/g, "\u03b9")
      .normalize("NFKD")
      .replace(/[^\p{L}\p{N}]/gu, "");
  }

  // search._words: split at spaces and dashes, each folded, empty ones dropped.
  function words(text) {
    return text.split(/[\s\p{Pd}]+/u).map(fold).filter(Boolean);
  }

  // search.TYPO_MIN_LENGTH, TWO_TYPOS_MIN_LENGTH, TYPO_MAX_LENGTH.
  // A word's length in code points, as Python's len counts it.
  function typosAllowed(length) {
    if (length < 4 || length > 24) { return 0; }
    return length < 8 ? 1 : 2;
  }

  // The optimal string alignment distance (rapidfuzz's OSA, as the server computes it): a
  // letter added, dropped or changed, or two side by side swapped, each one edit. Compared by
  // code point, as Python compares a string's characters.
  function distance(a, b) {
    a = Array.from(a);
    b = Array.from(b);
    var rows = [];
    for (var i = 0; i <= a.length; i++) {
      rows.push([i]);
      for (var j = 1; j <= b.length; j++) {
        if (i === 0) { rows[0].push(j); continue; }
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        var best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
          best = Math.min(best, rows[i - 2][j - 2] + 1);
        }
        rows[i].push(best);
      }
    }
    return rows[a.length][b.length];
  }

  function wordFound(word, keys) {
    if (keys.some(function (key) { return key.indexOf(word) === 0; })) { return true; }
    var length = Array.from(word).length;
    var typos = typosAllowed(length);
    if (!typos) { return false; }
    return keys.some(function (key) {
      var letters = Array.from(key);
      for (var n = Math.max(1, length - typos); n <= Math.min(letters.length, length + typos); n++) {
        if (distance(word, letters.slice(0, n).join("")) <= typos) { return true; }
      }
      return false;
    });
  }

  // search.found: the whole query begins a key, or each of its words (split once a pass) is found.
  function found(query, queryWords, keys) {
    if (!query || keys.some(function (key) { return key.indexOf(query) === 0; })) { return true; }
    return queryWords.every(function (word) { return wordFound(word, keys); });
  }

  function value(name) {
    var field = form.elements.namedItem(name);
    return field ? String(field.value || "") : "";
  }

  function keeps(card, query, queryWords, players, minutes, category) {
    var range = card.getAttribute("data-players").split(" ");
    var keys = card.getAttribute("data-keys").split(" ");
    return (
      found(query, queryWords, keys) &&
      (!players || (Number(range[0]) <= players && players <= Number(range[1]))) &&
      (!minutes || Number(card.getAttribute("data-minutes")) <= minutes) &&
      (!category || card.getAttribute("data-category") === category)
    );
  }

  function address(text, players, minutes, category) {
    var params = new URLSearchParams();
    if (text) { params.set("q", text); }
    if (players) { params.set("players", String(players)); }
    if (minutes) { params.set("minutes", String(minutes)); }
    if (category) { params.set("category", category); }
    var query = params.toString();
    return window.location.pathname + (query ? "?" + query : "") + window.location.hash;
  }

  // Only what changes is touched: the first pass, on a page as served, changes nothing.
  function show(element, shown) {
    if (element && element.hidden === shown) { element.hidden = !shown; }
  }

  function apply() {
    timer = null;
    var text = value("q").slice(0, QUERY_MAX_LENGTH).trim();
    var query = fold(text);
    var queryWords = words(text);
    var players = Number(value("players")) || 0;
    var minutes = Number(value("minutes")) || 0;
    var category = value("category");
    var shown = 0;
    cards.forEach(function (card) {
      var kept = keeps(card, query, queryWords, players, minutes, category);
      if (card.hidden === kept) { card.hidden = !kept; }
      shown += kept ? 1 : 0;
    });
    sections.forEach(function (section) {
      show(section, section.querySelector(".card[data-keys]:not([hidden])") !== null);
    });
    var active = Boolean(query || players || minutes || category);
    show(played, !active);
    show(clear, active);
    show(empty, shown === 0);
    var sentence = counts[shown] || String(shown);
    if (count.textContent !== sentence) { count.textContent = sentence; }
    var next = address(text, players, minutes, category);
    if (next !== window.location.pathname + window.location.search + window.location.hash) {
      window.history.replaceState(window.history.state, "", next);
    }
  }

  function later() {
    if (timer !== null) { window.clearTimeout(timer); }
    timer = window.setTimeout(apply, DEBOUNCE_MS);
  }

  function now() {
    if (timer !== null) { window.clearTimeout(timer); }
    apply();
  }

  form.addEventListener("input", later);
  form.addEventListener("change", later);
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    now();
  });
  if (clear) {
    clear.addEventListener("click", function (event) {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
        return;
      }
      event.preventDefault();
      form.elements.namedItem("q").value = "";
      form.elements.namedItem("players").value = "";
      Array.prototype.forEach.call(form.querySelectorAll("input[type=radio][value='']"), function (radio) {
        radio.checked = true;
      });
      now();
      form.elements.namedItem("q").focus();
    });
  }
  // The form as the browser restored it (back, forward) may differ from the page as served.
  window.addEventListener("pageshow", now);
})();
