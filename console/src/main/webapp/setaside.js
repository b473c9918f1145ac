// The set-aside rows of a table activation grouped by failure (the shape of its errorColumn's text), and the
// re-queue of a group. Uses console.js's call, el, button and status.
'use strict';

const setAside = {shown: null};

function setAsidePath(rest) { return 'tables/' + encodeURIComponent(setAside.shown) + '/set-aside/' + rest; }

async function refreshSetAsideGroups() {
  const section = document.getElementById('set-aside-section');
  section.hidden = !setAside.shown;
  if (!setAside.shown) return;
  document.getElementById('set-aside-title').textContent = 'Set-aside rows of ' + setAside.shown;
  const groups = await call('GET', setAsidePath('groups?scan=10000'));
  const body = document.querySelector('#set-aside-groups tbody');
  body.replaceChildren();
  for (const g of groups) {
    const tr = el('tr');
    const act = el('td');
    act.append(button('Re-queue group', () => call('POST', setAsidePath('groups/redeliver'), {group: g.key})
      .then(refreshSetAsideGroups)));
    tr.append(el('td', g.key, 'key'), el('td', g.count), el('td', (g.sampleKeys || []).join(', ')),
      el('td', g.exampleError), act);
    body.append(tr);
  }
  document.getElementById('set-aside-note').textContent = groups.length + ' group(s)';
}

// A table row's "Failures" button shows that activation's groups.
function showSetAside(table) {
  setAside.shown = table;
  refreshSetAsideGroups().catch(e => status(e.message));
}
