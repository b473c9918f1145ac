// The console's charts: the last hour of all activations and of the selected one, from api/history (the console's
// sampler reads the MXBeans every few seconds and keeps an hour in memory), drawn with uPlot (bundled in the WAR).
'use strict';

const CHARTS = [
  {title: 'messages per second', series: [
    {key: 'delivered', label: 'delivered', stroke: '#2a7d3f'},
    {key: 'rolledBack', label: 'failed (rolled back)', stroke: '#c0262d'},
    {key: 'redelivered', label: 'redelivered', stroke: '#d9822b'},
    {key: 'deadLettered', label: 'dead-lettered', stroke: '#7a1fa2'}]},
  {title: 'delivery time, ms', series: [
    {key: 'meanDeliveryMillis', label: 'mean of the interval', stroke: '#1f5fbf'},
    {key: 'p99DeliveryMillis', label: 'p99 of the latest 1024', stroke: '#c2185b'}]},
  {title: 'queue depth, messages', series: [{key: 'queueDepth', label: 'queue depth', stroke: '#1f5fbf'}]},
  {title: 'oldest message age, s', series: [
    {key: 'oldestMessageAgeSeconds', label: 'oldest message', stroke: '#b58900'}]}];

const MIN_SPAN = 120;  // seconds
const drawn = {};   // by container id: {key, plots}

// The time axis spans the points, at least the last two minutes: a few points are not spread over years.
function timeRange(min, max) {
  const now = Date.now() / 1000;
  const hi = max === null || max === undefined ? now : max;
  const lo = min === null || min === undefined ? hi - MIN_SPAN : Math.min(min, hi - MIN_SPAN);
  return [lo, hi];
}

// A tick of the time axis: the time of day, to the second, in the browser's zone.
function clock(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString([], {hour: '2-digit', minute: '2-digit', second: '2-digit'});
}

function columns(history, chart) {
  return [history.time || [], ...chart.series.map(s => history[s.key] || [])];
}

// Draws a history into a container: builds the charts when the container shows another series than before (the
// first time, or another activation), otherwise gives them the new data.
function draw(id, key, history) {
  const box = document.getElementById(id);
  let d = drawn[id];
  if (!d || d.key !== key) {
    if (d) d.plots.forEach(p => p.destroy());
    box.replaceChildren();
    const width = Math.min(660, Math.max(320, Math.floor(document.body.clientWidth / 2) - 40));
    d = drawn[id] = {key, plots: []};
    for (const chart of CHARTS) {
      const cell = el('div', null, 'chart');
      cell.append(el('h4', chart.title));
      box.append(cell);
      d.plots.push(new uPlot({width, height: 160, legend: {live: false},
        scales: {x: {time: true, range: (u, min, max) => timeRange(min, max)}},
        axes: [{space: 80, values: (u, ticks) => ticks.map(clock)}, {size: 55}],
        series: [{}, ...chart.series.map(s => ({label: s.label, stroke: s.stroke, width: 2}))]},
      columns(history, chart), cell));
    }
    d.note = el('p', '', 'empty');
    box.append(d.note);
  } else {
    d.plots.forEach((p, i) => p.setData(columns(history, CHARTS[i])));
  }
  const points = (history.time || []).length;
  d.note.textContent = points ? '' : 'no points yet: the first comes two samplings after the console or the'
    + ' activation started';
  box.dataset.points = points;
}

async function refreshCharts() {
  try {
    const all = await call('GET', 'history');
    document.querySelectorAll('.period').forEach(p => { p.textContent = all.periodSeconds; });
    draw('charts-overall', 'overall', all.overall);
    if (selected) {
      const one = all.activations.includes(selected)
        ? await call('GET', 'history/' + encodeURIComponent(selected)) : {};
      draw('charts-activation', selected, one);
    }
  } catch (e) {
    status(e.message);
  }
}

let chartsShow = null;
setInterval(refreshCharts, 5000);
setInterval(() => { if (selected && selected !== chartsShow) { chartsShow = selected; refreshCharts(); } }, 500);
refreshCharts();
