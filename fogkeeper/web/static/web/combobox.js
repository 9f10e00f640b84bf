// A choice among thousands of records (fogkeeper/web/common/lookups.py) made a combobox: one
// types part of a name, address or code, the agency's matching records are asked of the
// field's endpoint and listed, and one picks one with the mouse or the keyboard (up, down,
// enter, escape). The form then sends the record's id in a hidden input of the field's name;
// until one is picked it sends what was typed, which the server takes as a code. Without this
// script the field stays the text input of the code it is rendered as.
(function () {
  "use strict";

  var WAIT_MS = 200; // after the last key, before asking: one request per pause, not per key

  function enhance(input, n) {
    var wrapper = document.createElement("div");
    wrapper.className = "lookup";
    input.parentNode.insertBefore(wrapper, input);
    wrapper.appendChild(input);

    var hidden = document.createElement("input");
    hidden.type = "hidden";
    hidden.name = input.name;
    hidden.value = input.dataset.lookupId || input.value;
    input.removeAttribute("name");
    wrapper.appendChild(hidden);
    if (input.dataset.lookupLabel) input.value = input.dataset.lookupLabel;

    var list = document.createElement("ul");
    list.id = (input.id || "lookup-" + n) + "-list";
    list.className = "usa-combo-box__list";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "Matches");
    list.hidden = true;
    wrapper.appendChild(list);

    var status = document.createElement("div");
    status.className = "usa-sr-only";
    status.setAttribute("role", "status");
    wrapper.appendChild(status);

    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", list.id);

    var results = [];
    var active = -1;
    var timer = null;
    var asked = 0;

    function close() {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      active = -1;
    }

    function show(index) {
      var options = list.querySelectorAll("[role=option]");
      options.forEach(function (o, i) {
        var on = i === index;
        o.classList.toggle("usa-combo-box__list-option--focused", on);
        o.setAttribute("aria-selected", on ? "true" : "false");
      });
      active = index;
      if (index >= 0 && options[index]) {
        input.setAttribute("aria-activedescendant", options[index].id);
        options[index].scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }

    function pick(index) {
      var r = results[index];
      if (!r) return;
      input.value = r.label;
      hidden.value = String(r.id);
      status.textContent = r.label + " chosen";
      close();
    }

    function render(rows, text) {
      results = rows;
      list.textContent = "";
      rows.forEach(function (r, i) {
        var li = document.createElement("li");
        li.id = list.id + "-" + i;
        li.className = "usa-combo-box__list-option";
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", "false");
        li.textContent = r.label;
        li.addEventListener("mousedown", function (e) {
          e.preventDefault(); // keep the focus in the input
          pick(i);
        });
        list.appendChild(li);
      });
      if (!rows.length) {
        var none = document.createElement("li");
        none.className = "usa-combo-box__list-option--no-results";
        none.textContent = "Nothing matches “" + text + "”";
        list.appendChild(none);
      }
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
      status.textContent = rows.length ? rows.length + " matches" : "No matches";
      show(-1);
    }

    function ask() {
      var text = input.value.trim();
      if (!text) {
        close();
        return;
      }
      var mine = ++asked;
      var url = input.dataset.lookup + "?q=" + encodeURIComponent(text);
      fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (r) {
          return r.ok ? r.json() : { results: [] };
        })
        .then(function (data) {
          if (mine === asked && document.activeElement === input) render(data.results, text);
        })
        .catch(function () {
          status.textContent = "The matches could not be loaded; type the code instead.";
        });
    }

    input.addEventListener("input", function () {
      hidden.value = input.value.trim(); // a typed code, until one is picked
      clearTimeout(timer);
      timer = setTimeout(ask, WAIT_MS);
    });
    input.addEventListener("keydown", function (e) {
      var open = !list.hidden && results.length;
      if (e.key === "ArrowDown") {
        e.preventDefault();
        if (!open) ask();
        else show(Math.min(active + 1, results.length - 1));
      } else if (e.key === "ArrowUp") {
        e.preventDefault();
        if (open) show(Math.max(active - 1, 0));
      } else if (e.key === "Enter" && open && active >= 0) {
        e.preventDefault(); // choose, do not send the form
        pick(active);
      } else if (e.key === "Escape" && !list.hidden) {
        e.preventDefault();
        close();
      }
    });
    input.addEventListener("blur", close);
  }

  function start() {
    document.querySelectorAll("input[data-lookup]").forEach(enhance);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
