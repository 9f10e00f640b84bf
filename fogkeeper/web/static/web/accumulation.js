// The establishment page's accumulation charts: for each device, FOG plus solids as a
// percentage of its depth at each reading, on a time axis, with the pack's limit as a line.
// The data is the JSON the page embeds; the table under each chart gives the same readings.
document.addEventListener("DOMContentLoaded", function () {
  var source = document.getElementById("accumulation-data");
  if (!source || typeof Chart === "undefined") return;
  var DAY = 86400000;
  function time(iso) { return Date.parse(iso + "T00:00:00Z"); }
  function iso(ms) { return new Date(ms).toISOString().slice(0, 10); }

  JSON.parse(source.textContent).forEach(function (chart) {
    var canvas = document.getElementById(chart.id);
    if (!canvas) return;
    var points = chart.points.map(function (p) {
      return { x: time(p.date), y: p.percent, source: p.source };
    });
    var first = points[0].x - 15 * DAY, last = points[points.length - 1].x + 15 * DAY;
    var top = Math.max.apply(null, points.map(function (p) { return p.y; }));
    var datasets = [{
      label: chart.device + ": FOG + solids (% of depth)", data: points,
      borderColor: "#1f6f8b", backgroundColor: "#1f6f8b", tension: 0, pointRadius: 4
    }];
    if (chart.limit !== null) {
      top = Math.max(top, chart.limit);
      datasets.push({
        label: "Limit " + chart.limit + "% (" + chart.citation + ")",
        data: [{ x: first, y: chart.limit }, { x: last, y: chart.limit }],
        borderColor: "#a4262c", backgroundColor: "#a4262c", borderDash: [6, 4], pointRadius: 0
      });
    }
    new Chart(canvas, {
      type: "line",
      data: { datasets: datasets },
      options: {
        maintainAspectRatio: false,
        animation: false,
        scales: {
          x: { type: "linear", min: first, max: last,
               ticks: { callback: function (v) { return iso(v); }, maxTicksLimit: 6 } },
          y: { min: 0, suggestedMax: Math.ceil((top + 5) / 10) * 10,
               title: { display: true, text: "% of design depth" } }
        },
        plugins: {
          tooltip: { callbacks: {
            title: function (items) { return iso(items[0].parsed.x); },
            label: function (item) {
              var p = item.raw;
              return p.source ? p.source + ": " + p.y + "%" : item.dataset.label;
            }
          } }
        }
      }
    });
    canvas.dataset.drawn = "true";
  });
});
