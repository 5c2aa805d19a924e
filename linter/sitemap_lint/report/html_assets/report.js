// sitemap-lint HTML report: sorting, filtering, the file tree and the rule dialog. The
// page reads complete without it; nothing here loads anything from the network.
//
// Fast on 10,000 rows: every row's values are read once from its attributes and cells
// (never from the layout); a sort orders row numbers by precomputed keys, kept per
// column, empties the table body in one step and puts the rows back in one step, so
// the browser lays the table out once; a filter touches only the rows whose
// visibility changes.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var table = document.getElementById("findings-table");
  var form = document.getElementById("filters");
  var shown = document.getElementById("shown-count");
  var tbody = table ? table.tBodies[0] : null;
  var rows = tbody ? Array.prototype.slice.call(tbody.rows) : []; // page order, kept
  var count = rows.length;
  var rank = { error: 0, warning: 1, info: 2 };
  var severities = new Array(count), codes = new Array(count), files = new Array(count);
  for (var i = 0; i < count; i++) {
    var d = rows[i].dataset;
    severities[i] = d.severity; codes[i] = d.code; files[i] = d.file;
  }
  var visible = new Uint8Array(count).fill(1);
  var texts = null; // each row's text in lower case, read on the first search
  var fields = {};
  ["severity", "rule", "file", "text"].forEach(function (name) {
    fields[name] = document.getElementById("filter-" + name);
  });

  // The file tree: the selected file's node is marked.
  var nodes = Array.prototype.slice.call(document.querySelectorAll("li.tree-node"));
  var marked = [];
  function markTree(file) {
    marked.forEach(function (node) { node.classList.remove("selected"); });
    marked = file ? nodes.filter(function (node) { return node.dataset.file === file; }) : [];
    marked.forEach(function (node) { node.classList.add("selected"); });
  }

  function apply() {
    var severity = fields.severity.value, rule = fields.rule.value, file = fields.file.value;
    var words = fields.text.value.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length && texts === null) {
      texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
    }
    var total = 0;
    for (var i = 0; i < count; i++) {
      var ok = (!severity || severities[i] === severity) && (!rule || codes[i] === rule) &&
        (!file || files[i] === file);
      for (var w = 0; ok && w < words.length; w++) ok = texts[i].indexOf(words[w]) >= 0;
      if (ok) total++;
      if (visible[i] !== (ok ? 1 : 0)) { // write only what changes; read nothing back
        visible[i] = ok ? 1 : 0;
        rows[i].hidden = !ok;
      }
    }
    shown.textContent = total.toLocaleString("en") + " of " + count.toLocaleString("en") +
      " shown" + (data.total > data.shown ? " (" + data.total.toLocaleString("en") + " in the run)" : "");
    markTree(file);
  }

  var pending = 0;
  function applySoon() { // typing: once the keys pause
    clearTimeout(pending);
    pending = setTimeout(apply, 120);
  }

  if (form && table) {
    form.hidden = false;
    fields.text.addEventListener("input", applySoon);
    form.addEventListener("change", function () { clearTimeout(pending); apply(); });
    form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
    apply();
  }

  // Sorting: click a column heading; click again to reverse. The row numbers in
  // ascending order are computed once per column from keys read once.
  var ascending = {};
  function keys(column) {
    var out = new Array(count), cell = { line: 3, column: 4, message: 5 }[column];
    for (var i = 0; i < count; i++) {
      switch (column) {
        case "severity": out[i] = rank[severities[i]]; break;
        case "code": out[i] = codes[i]; break;
        case "file": out[i] = files[i]; break;
        case "line": case "column": out[i] = +rows[i].cells[cell].textContent; break;
        default: out[i] = rows[i].cells[cell].textContent.toLowerCase();
      }
    }
    return out;
  }
  function orderBy(column) {
    if (!ascending[column]) {
      var key = keys(column), order = new Array(count);
      for (var i = 0; i < count; i++) order[i] = i;
      order.sort(function (a, b) {
        var x = key[a], y = key[b];
        return x < y ? -1 : x > y ? 1 : a - b; // ties keep the page's order
      });
      ascending[column] = order;
    }
    return ascending[column];
  }
  function sortBy(column, up) {
    var order = orderBy(column), sorted = new Array(count);
    for (var i = 0; i < count; i++) sorted[i] = rows[order[up ? i : count - 1 - i]];
    // Emptied in one step and filled in one step: never 10,000 single removals.
    tbody.replaceChildren();
    tbody.append.apply(tbody, sorted);
  }
  if (table) {
    // Each heading's text in a button: a sort can be reached and started from the keyboard.
    Array.prototype.forEach.call(table.tHead.querySelectorAll("th[data-sort]"), function (th) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      button.append.apply(button, Array.prototype.slice.call(th.childNodes));
      th.appendChild(button);
    });
    table.tHead.addEventListener("click", function (event) {
      var th = event.target.closest("th[data-sort]");
      if (!th) return;
      var up = th.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (cell) { cell.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      sortBy(th.dataset.sort, up);
    });
  }

  // A file's name (in the tree): show its findings.
  document.addEventListener("click", function (event) {
    var link = event.target.closest("a.file-link");
    if (!link || !table) return;
    event.preventDefault();
    fields.severity.value = ""; fields.rule.value = ""; fields.text.value = "";
    fields.file.value = link.dataset.file;
    if (fields.file.value !== link.dataset.file) fields.file.value = "";
    apply();
    document.getElementById("findings").scrollIntoView();
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
    body.querySelector("h3").id = "rule-dialog-title"; // the dialog's name
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
