// The dashboard's compliance-rate chart, drawn from the JSON the page embeds.
document.addEventListener("DOMContentLoaded", function () {
  var data = JSON.parse(document.getElementById("compliance-data").textContent);
  var canvas = document.getElementById("compliance-chart");
  if (!canvas || typeof Chart === "undefined") return;
  new Chart(canvas, {
    type: "line",
    data: {
      labels: data.map(function (m) { return m.date.slice(0, 7); }),
      datasets: [{ label: "Compliant (%)", data: data.map(function (m) { return m.rate; }),
                   borderColor: "#1f6f8b", backgroundColor: "#1f6f8b", tension: 0.2 }]
    },
    options: { maintainAspectRatio: false, scales: { y: { min: 0, max: 100 } } }
  });
});
