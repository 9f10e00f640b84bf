/* Tables on every page, in one place rather than in each template:
   - a table wrapper that scrolls sideways can be reached and scrolled with the keyboard
     (tabindex, and a region named after the table), as axe-core asks;
   - on the portals (body.portal), each cell is labelled with its column's heading
     (data-label) and the table marked `cards`: fogkeeper.css stacks each row as a card on a
     phone, so no column is off-screen. The roles keep it a table to a screen reader once
     its display is no longer a table's. */
(function () {
  "use strict";

  function tableName(table) {
    const caption = table.querySelector("caption");
    if (caption && caption.textContent.trim()) return caption.textContent.trim();
    let node = table.closest(".table-wrap") || table;
    while (node && node !== document.body) {
      let prev = node.previousElementSibling;
      while (prev) {
        if (/^H[1-6]$/.test(prev.tagName)) return prev.textContent.trim();
        prev = prev.previousElementSibling;
      }
      node = node.parentElement;
    }
    return "Table";
  }

  function reachable(wrap) {
    const table = wrap.querySelector("table");
    if (!table || wrap.scrollWidth <= wrap.clientWidth) {
      if (wrap.dataset.scrolls) {
        wrap.removeAttribute("tabindex");
        wrap.removeAttribute("role");
        wrap.removeAttribute("aria-label");
        delete wrap.dataset.scrolls;
      }
      return;
    }
    if (wrap.hasAttribute("tabindex")) return;
    wrap.dataset.scrolls = "true";
    wrap.setAttribute("tabindex", "0");
    wrap.setAttribute("role", "region");
    wrap.setAttribute("aria-label", tableName(table) + " (scrolls sideways)");
  }

  function cards(table) {
    const heads = Array.from(table.querySelectorAll("thead th")).map((th) => th.textContent.trim());
    if (!heads.length || table.classList.contains("cards")) return;
    table.setAttribute("role", "table");
    table.querySelectorAll("thead, tbody, tfoot").forEach((g) => g.setAttribute("role", "rowgroup"));
    table.querySelectorAll("tr").forEach((row) => {
      row.setAttribute("role", "row");
      let column = 0;
      for (const cell of row.cells) {
        const inHead = row.parentElement.tagName === "THEAD";
        cell.setAttribute("role", inHead ? "columnheader" : cell.tagName === "TH" ? "rowheader" : "cell");
        if (!inHead && heads[column] && !cell.hasAttribute("data-label")) cell.dataset.label = heads[column];
        column += cell.colSpan || 1;
      }
    });
    table.classList.add("cards");
  }

  const WRAPS = ".table-wrap, .usa-table-container--scrollable";

  function apply(root) {
    if (document.body.classList.contains("portal")) root.querySelectorAll("main table").forEach(cards);
    document.querySelectorAll(WRAPS).forEach(reachable);
  }

  document.addEventListener("DOMContentLoaded", () => apply(document));
  document.addEventListener("htmx:afterSettle", () => apply(document));
  window.addEventListener("resize", () => document.querySelectorAll(WRAPS).forEach(reachable));
})();
