// sitemap-lint HTML report: sorting, filtering and the rule dialog. The page reads
// complete without it; nothing here loads anything from the network.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var table = document.getElementById("findings-table");
  var form = document.getElementById("filters");
  var shown = document.getElementById("shown-count");
  var rows = table ? Array.prototype.slice.call(table.tBodies[0].rows) : [];
  var rank = { error: 0, warning: 1, info: 2 };
  var fields = {};
  ["severity", "rule", "file", "text"].forEach(function (name) {
    fields[name] = document.getElementById("filter-" + name);
  });
  var texts = rows.map(function (row) { return row.textContent.toLowerCase(); });

  function apply() {
    var severity = fields.severity.value, rule = fields.rule.value, file = fields.file.value;
    var words = fields.text.value.toLowerCase().split(/\s+/).filter(Boolean);
    var count = 0;
    rows.forEach(function (row, i) {
      var ok = (!severity || row.dataset.severity === severity) &&
        (!rule || row.dataset.code === rule) &&
        (!file || row.dataset.file === file) &&
        words.every(function (w) { return texts[i].indexOf(w) >= 0; });
      row.hidden = !ok;
      if (ok) count++;
    });
    shown.textContent = count.toLocaleString("en") + " of " + rows.length.toLocaleString("en") +
      " shown" + (data.total > data.shown ? " (" + data.total.toLocaleString("en") + " in the run)" : "");
  }

  if (form && table) {
    form.hidden = false;
    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    apply();
  }

  // Sorting: click a column heading; click again to reverse.
  function key(row, column) {
    var d = row.dataset, cells = row.cells;
    switch (column) {
      case "severity": return rank[d.severity];
      case "code": return d.code;
      case "file": return d.file;
      case "line": return +cells[3].textContent;
      case "column": return +cells[4].textContent;
      default: return cells[5].textContent;
    }
  }
  if (table) {
    var order = rows.map(function (row, i) { return [row, i, texts[i]]; });
    table.tHead.addEventListener("click", function (event) {
      var th = event.target.closest("th[data-sort]");
      if (!th) return;
      var column = th.dataset.sort;
      var up = th.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (cell) { cell.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      var keyed = order.map(function (item) { return [key(item[0], column), item]; });
      keyed.sort(function (a, b) {
        var x = a[0], y = b[0];
        var c = x < y ? -1 : x > y ? 1 : a[1][1] - b[1][1];
        return up ? c : -c;
      });
      var body = table.tBodies[0], fragment = document.createDocumentFragment();
      rows = []; texts = [];
      keyed.forEach(function (k) { fragment.appendChild(k[1][0]); rows.push(k[1][0]); texts.push(k[1][2]); });
      body.appendChild(fragment);
    });
  }

  // A file in the file list: show its findings.
  document.querySelectorAll("a.file-link").forEach(function (link) {
    link.addEventListener("click", function (event) {
      if (!table) return;
      event.preventDefault();
      fields.severity.value = ""; fields.rule.value = ""; fields.text.value = "";
      fields.file.value = link.dataset.file;
      if (fields.file.value !== link.dataset.file) fields.file.value = "";
      apply();
      document.getElementById("findings").scrollIntoView();
    });
  });

  // A rule code: its documentation in a dialog (the same text as under "Rules").
  var dialog = document.getElementById("rule-dialog");
  var body = document.getElementById("rule-dialog-body");
  document.addEventListener("click", function (event) {
    var link = event.target.closest("a.rule-link");
    if (!link || !dialog.showModal) return;
    var article = document.getElementById("rule-" + link.dataset.code);
    if (!article) return;
    event.preventDefault();
    body.replaceChildren();
    Array.prototype.forEach.call(article.children, function (child) { body.appendChild(child.cloneNode(true)); });
    var filter = document.createElement("button");
    filter.type = "button";
    filter.className = "filter-rule";
    filter.textContent = "Show only " + link.dataset.code + " findings";
    filter.addEventListener("click", function () {
      fields.rule.value = link.dataset.code; apply(); dialog.close();
      document.getElementById("findings").scrollIntoView();
    });
    body.appendChild(filter);
    dialog.showModal();
  });
  dialog.addEventListener("click", function (event) { if (event.target === dialog) dialog.close(); });
})();
