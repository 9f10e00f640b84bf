// The map page: draws /map/data.json with Leaflet. Works without a tile server.
(function () {
  "use strict";
  var COLOURS = { compliant: "#2e7d32", non_compliant: "#a4262c", overflow: "#6a1b9a" };
  var OTHER = "#8a8f94";
  // A segment's colour by the state of its cleaning (web/reports/map.py SEGMENT_COLOURS); the legend
  // names each state in words, and a late segment is also drawn dashed.
  var SEGMENT = { late: "#a4262c", due_soon: "#b35c00", current: "#2e7d32", unscheduled: OTHER };

  function text(value) {
    var div = document.createElement("div");
    div.textContent = value == null ? "" : String(value);
    return div.innerHTML;
  }

  function start() {
    var el = document.getElementById("map");
    if (!el || !window.L) return;
    var map = L.map(el, { preferCanvas: false });
    if (el.dataset.tiles) {
      L.tileLayer(el.dataset.tiles, { maxZoom: 19, attribution: el.dataset.attribution || "" }).addTo(map);
    }
    map.setView([34.0, -117.0], 8);
    fetch(el.dataset.url, { credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (data) { draw(map, data); });
  }

  function draw(map, data) {
    var counts = { establishment: 0, segment: 0, overflow: 0 };
    var layer = L.geoJSON(data, {
      style: function (f) {
        var p = f.properties;
        if (p.kind !== "segment") return {};  // the markers style themselves (pointToLayer)
        return {
          color: SEGMENT[p.state] || OTHER, weight: p.prone_to_blockage ? 6 : 4,
          dashArray: p.state === "late" ? "10 6" : null,
          className: "segment-" + (p.state || "unscheduled") +
            " code-" + String(p.code).replace(/[^A-Za-z0-9_-]/g, "_"),
        };
      },
      pointToLayer: function (f, latlng) {
        var p = f.properties;
        var colour = p.kind === "overflow" ? COLOURS.overflow : COLOURS[p.status] || OTHER;
        return L.circleMarker(latlng, {
          radius: p.kind === "overflow" ? 6 : 8,
          color: "#fff", weight: 2, fillColor: colour, fillOpacity: 0.9,
          className: "marker-" + p.kind + " status-" + (p.status || p.kind) +
            " code-" + String(p.code).replace(/[^A-Za-z0-9_-]/g, "_"),
        });
      },
      onEachFeature: function (f, l) {
        var p = f.properties;
        counts[p.kind] = (counts[p.kind] || 0) + 1;
        if (p.kind === "establishment") {
          l.bindTooltip(text(p.name) + " (" + text(p.code) + ")");
          l.on("click", function () { window.location.href = p.url; });
        } else if (p.kind === "segment") {
          l.bindTooltip("Segment " + text(p.code) + ": " + text(p.state_word));
          l.bindPopup(
            '<a href="' + text(p.url) + '">Segment ' + text(p.code) + "</a><br>" +
            text(p.state_word) + (p.due_on ? ", due " + text(p.due_on) : "") +
            (p.frequency_review ? "<br>Listed for a frequency review" : "") +
            (p.establishments.length ? "<br>Fed by " + text(p.establishments.join(", ")) : "")
          );
        } else {
          l.bindTooltip("Overflow " + text(p.code) + " on " + text(p.date) +
            (p.gallons != null ? ", " + text(p.gallons) + " gal" : ""));
        }
      },
    }).addTo(map);
    var bounds = layer.getBounds();
    if (bounds.isValid()) map.fitBounds(bounds, { padding: [20, 20], maxZoom: 17 });
    document.getElementById("map-summary").textContent =
      counts.establishment + " establishments, " + counts.segment + " sewer segments, " +
      counts.overflow + " overflows with a location.";
    document.getElementById("map").dataset.loaded = "true";
  }

  document.addEventListener("DOMContentLoaded", start);
})();
