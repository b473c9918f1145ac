// The set-aside rows of a table activation grouped by failure (the shape of its errorColumn's text), a search by the
// error, and the re-queue of a group or a selection at a limited rate with progress and cancel. Uses console.js's
// call, el, status and operator, and failures.js's renderJob, followJob and pickCellFor.
'use strict';

const setAside = {shown: null, chosen: new Set(), polling: null};

function setAsidePath(rest) { return 'tables/' + encodeURIComponent(setAside.shown) + '/set-aside/' + rest; }

function setAsideRate() { return Number(document.getElementById('set-aside-rate').value); }

async function refreshSetAsideGroups() {
  const section = document.getElementById('set-aside-section');
  section.hidden = !setAside.shown;
  if (!setAside.shown) return;
  document.getElementById('set-aside-title').textContent = 'Set-aside rows of ' + setAside.shown;
  document.getElementById('set-aside-requeue-selected').disabled = !operator;
  const groups = await call('GET', setAsidePath('groups?scan=10000'));
  const body = document.querySelector('#set-aside-groups tbody');
  body.replaceChildren();
  for (const g of groups) {
    const tr = el('tr');
    const act = el('td');
    const again = el('button', 'Re-queue group', 'act');
    again.disabled = !operator;
    again.addEventListener('click', () => startRequeue({group: g.key, perSecond: setAsideRate()}));
    act.append(again);
    tr.append(el('td', g.key, 'key'), el('td', g.count), el('td', g.firstSeen), el('td', g.lastSeen),
      el('td', (g.sampleKeys || []).join(', ')), el('td', g.exampleError), act);
    body.append(tr);
  }
  document.getElementById('set-aside-note').textContent = groups.length + ' group(s)';
}

async function searchSetAside() {
  const text = document.getElementById('set-aside-text').value;
  const found = await call('GET', setAsidePath('search?scan=10000&text=' + encodeURIComponent(text)));
  const body = document.querySelector('#set-aside-results tbody');
  body.replaceChildren();
  for (const r of found) {
    const tr = el('tr');
    tr.append(pickCellFor(setAside.chosen, r.key), el('td', r.key), el('td', r.error));
    body.append(tr);
  }
  document.getElementById('set-aside-results-note').textContent = found.length + ' found';
}

async function startRequeue(what) {
  try {
    await call('POST', setAsidePath('requeues'), what);
    pollRequeue();
  } catch (e) {
    status(e.message);
  }
}

async function showRequeue() {
  const job = await call('GET', setAsidePath('requeues/current'));
  return renderJob(job, document.getElementById('set-aside-job'), ['re-queued', 'no longer set aside']);
}

// Follows the re-queue until it ends; the groups are read again once a job seen running has ended.
function pollRequeue() {
  followJob(setAside, showRequeue, refreshSetAsideGroups);
}

// A table row's "Failures" button shows that activation's groups and its re-queue.
function showSetAside(table) {
  if (setAside.shown !== table) {
    setAside.chosen.clear();
    document.querySelector('#set-aside-results tbody').replaceChildren();
  }
  setAside.shown = table;
  refreshSetAsideGroups().then(pollRequeue).catch(e => status(e.message));
}

function startSetAside() {
  document.getElementById('set-aside-search').addEventListener('click',
    () => searchSetAside().catch(e => status(e.message)));
  document.getElementById('set-aside-requeue-selected').addEventListener('click', () => {
    if (setAside.chosen.size) startRequeue({keys: [...setAside.chosen], perSecond: setAsideRate()});
    setAside.chosen.clear();
  });
  document.getElementById('set-aside-job-cancel').addEventListener('click',
    () => call('POST', setAsidePath('requeues/current/cancel')).then(pollRequeue).catch(e => status(e.message)));
}

// console.js learns who the user is first; the buttons follow the role it found.
window.addEventListener('load', () => setTimeout(startSetAside, 0));
