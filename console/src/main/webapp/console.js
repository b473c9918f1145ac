// The ssb-jca console: everything it shows comes from the JSON API (api/...), which reads the adapter's MXBeans.
// Every value is put into the page as text (textContent), never as HTML.
'use strict';

// The API beside this page; built from the origin so that an address holding credentials (user:password@) still
// gives fetch() a URL without them.
const API = location.origin + location.pathname.replace(/[^/]*$/, '') + 'api/';
const HEADER = {'X-SSB-Console': '1'};
let operator = false;
let selected = null;
let dragged = null;
const PAGE = 50;
let pageAfter = 0;          // dead letters are listed after this id (keyset paging)
const chosen = new Set();   // dead letters selected for redelivery

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

async function call(method, path, body) {
  const init = {method, headers: Object.assign({'Accept': 'application/json'}, method === 'GET' ? {} : HEADER)};
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const r = await fetch(API + path, init);
  const json = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(json.error || (r.status + ' ' + r.statusText));
  return json;
}

function status(text) { document.getElementById('status').textContent = text || ''; }

function button(label, action) {
  const b = el('button', label, 'act');
  b.disabled = !operator;
  b.addEventListener('click', () => action().then(refresh).catch(e => status(e.message)));
  return b;
}

function name(a) { return a.name; }

async function refreshActivations() {
  const activations = await call('GET', 'activations');
  const body = document.querySelector('#activations tbody');
  body.replaceChildren();
  for (const a of activations) {
    const tr = el('tr');
    const [stateClass, stateText] = stateOf(a);
    tr.className = 'state-' + stateClass + (selected === name(a) ? ' selected' : '');
    const link = el('a', a.name);
    link.href = '#';
    link.addEventListener('click', ev => { ev.preventDefault(); selected = name(a); refresh(); });
    const first = el('td'); first.append(link);
    tr.append(first, el('td', a.backend),
      el('td', a.activeReaders + ' / ' + a.maxReaders + ', ' + a.parkedReaders + ' parked'
        + (a.waitingReaders ? ', ' + a.waitingReaders + ' waiting for a thread' : '')),
      stateCell(stateClass, stateText), el('td', a.queueDepth), el('td', a.delivered),
      el('td', a.rolledBack), el('td', a.deadLettered),
      el('td', (a.meanDeliveryMillis ?? 0).toFixed(2) + ' / ' + (a.p99DeliveryMillis ?? 0).toFixed(2)),
      el('td', a.lastError || ''));
    const actions = el('td');
    const max = el('input'); max.type = 'number'; max.min = 1; max.max = 256; max.value = a.maxReaders;
    max.disabled = !operator; max.title = 'MaxReaders';
    actions.append(a.paused ? button('Resume', () => call('POST', path(a, 'resume')))
        : button('Pause', () => call('POST', path(a, 'pause'))), max,
      button('Set readers', () => call('PUT', path(a, 'max-readers'), {value: Number(max.value)})));
    actions.append(...doctorActions(a));
    tr.append(actions);
    body.append(tr);
  }
  if (selected && !activations.some(a => name(a) === selected)) selected = null;
}

// An activation's state at a glance: the first that holds of queue disabled, breaker open (or probing with one
// message), readers reconnecting, paused, running; the class names the colour (console.css).
function stateOf(a) {
  if (a.queueDisabled) return ['queue-disabled', 'queue disabled'];
  if (a.breakerState === 'OPEN') return ['breaker-open', 'breaker open'];
  if (a.breakerState === 'PROBING') return ['breaker-probing', 'breaker probing'];
  if (a.reconnectingReaders > 0) return ['reconnecting', a.reconnectingReaders + ' reconnecting'];
  if (a.paused) return ['paused', 'paused'];
  return ['running', 'running'];
}

function stateCell(cls, text) {
  const td = el('td');
  td.append(el('span', text, 'state ' + cls));
  return td;
}

// The broker doctor: an activation whose queue is disabled (on SQL Server by poison detection) shows so, and an
// operator enables it (ALTER QUEUE ... WITH STATUS = ON through the MXBean's enableQueue).
function doctorActions(a) {
  if (!a.queueDisabled) return [];
  const b = button('Enable queue', () => call('POST', path(a, 'enable-queue')));
  b.className = 'act queue-disabled';
  b.title = 'queue ' + a.queue + ' disabled since ' + a.queueDisabledSince
    + '; see lastFailedDelivery (docs/operations/broker-doctor.md) first';
  return [el('span', 'queue disabled', 'queue-disabled'), b];
}

// The table activations: their counts and, for an operator, the set-aside rows' redelivery and purge.
async function refreshTables() {
  const tables = await call('GET', 'tables');
  document.getElementById('tables-section').hidden = tables.length === 0;
  const body = document.querySelector('#tables tbody');
  body.replaceChildren();
  for (const t of tables) {
    const tr = el('tr');
    const at = rest => 'tables/' + encodeURIComponent(t.name) + '/' + rest;
    tr.append(el('td', t.name), el('td', t.mode), el('td', t.readerCount), el('td', t.availableRows),
      el('td', t.waitingRows), el('td', t.leasedRows), el('td', t.setAsideRows),
      el('td', t.oldestAvailableAgeSeconds < 0 ? '' : t.oldestAvailableAgeSeconds), el('td', t.deliveredRows),
      el('td', t.failedDeliveries), el('td', t.leasesLost),
      el('td', (t.failingSince ? 'failing since ' + t.failingSince + ': '
        : t.deliveriesFailingSince ? 'deliveries failing since ' + t.deliveriesFailingSince + ': ' : '')
        + (t.lastError || '')));
    const actions = el('td');
    const failuresButton = el('button', 'Failures');
    failuresButton.addEventListener('click', () => showSetAside(t.name));
    actions.append(failuresButton, ' ', button('Redeliver set-aside', () => call('POST', at('set-aside/redeliver'))),
      button('Purge set-aside', () => confirm('Delete the set-aside rows of ' + t.name + '?')
        ? call('DELETE', at('set-aside')) : Promise.resolve()));
    tr.append(actions);
    body.append(tr);
  }
}

function path(a, rest) { return 'activations/' + encodeURIComponent(typeof a === 'string' ? a : name(a)) + '/' + rest; }

async function refreshDetail() {
  const detail = document.getElementById('detail');
  detail.hidden = !selected;
  if (!selected) return;
  document.getElementById('detail-title').textContent = selected;
  const [groups, inflight, letters] = await Promise.all([call('GET', path(selected, 'groups')),
    call('GET', path(selected, 'in-flight')),
    call('GET', path(selected, 'dead-letters?max=' + PAGE + '&after=' + pageAfter))]);
  document.getElementById('page').textContent = 'dead letters after id ' + pageAfter + ', ' + PAGE + ' a page';
  document.getElementById('next-page').dataset.last = letters.length === PAGE ? letters[letters.length - 1].id : '';
  const busy = new Set(inflight.map(d => d.conversationGroup));
  const list = document.getElementById('groups');
  list.replaceChildren();
  for (const g of groups) {
    const li = el('li', null, busy.has(g.groupId) ? 'busy' : '');
    li.dataset.group = g.groupId;
    li.draggable = operator;
    li.append(el('span', g.groupId + ': ' + g.messages + ' message(s), oldest ' + (g.oldestMessage || '?')
      + (busy.has(g.groupId) ? ', in delivery' : '') + ', priority '));
    const p = el('input'); p.type = 'number'; p.min = 0; p.max = 255; p.value = g.priority ?? '';
    p.disabled = !operator;
    p.addEventListener('change', () => call('PUT', path(selected, 'groups/' + encodeURIComponent(g.groupId)
      + '/priority'), {priority: Number(p.value)}).then(refresh).catch(e => status(e.message)));
    li.append(p);
    li.addEventListener('dragstart', () => { dragged = li; });
    li.addEventListener('dragover', ev => { ev.preventDefault(); li.classList.add('over'); });
    li.addEventListener('dragleave', () => li.classList.remove('over'));
    li.addEventListener('drop', ev => {
      ev.preventDefault();
      li.classList.remove('over');
      if (dragged && dragged !== li) {
        list.insertBefore(dragged, li);
        const order = [...list.children].map(x => x.dataset.group).slice(0, 255);
        call('PUT', path(selected, 'groups/order'), order).then(refresh).catch(e => status(e.message));
      }
    });
    list.append(li);
  }
  const ib = document.querySelector('#inflight tbody');
  ib.replaceChildren();
  for (const d of inflight) {
    const tr = el('tr');
    tr.append(el('td', d.reader), el('td', d.conversationGroup), el('td', d.messages), el('td', d.runningMillis));
    ib.append(tr);
  }
  const db = document.querySelector('#deadletters tbody');
  db.replaceChildren();
  for (const l of letters) {
    const tr = el('tr');
    const body = el('td'); body.append(el('pre', l.body, 'body'));
    const act = el('td');
    act.append(button('Redeliver', () => call('POST', path(selected, 'dead-letters/' + l.id + '/redeliver'))));
    const pick = el('input');
    pick.type = 'checkbox';
    pick.disabled = !operator;
    pick.checked = chosen.has(l.id);
    pick.addEventListener('change', () => pick.checked ? chosen.add(l.id) : chosen.delete(l.id));
    const pickCell = el('td');
    pickCell.append(pick);
    tr.append(pickCell, el('td', l.id), el('td', l.messageType), el('td', l.attempts), el('td', l.lastError), body,
      el('td', l.deadLetteredAt), act);
    db.append(tr);
  }
}

// The conversations listed last, for the selected activation's database; listed on request (a query per listing).
async function listConversations() {
  const age = Number(document.getElementById('conversation-age').value);
  const rows = await call('GET', path(selected, 'conversations?olderThanMinutes=' + age));
  const body = document.querySelector('#conversations tbody');
  body.replaceChildren();
  for (const c of rows) {
    const tr = el('tr');
    const act = el('td');
    if (c.state !== 'CD') {
      const end = el('button', 'End WITH CLEANUP', 'act');
      end.disabled = !operator;
      end.addEventListener('click', () => {
        if (confirm('End ' + c.count + ' conversation endpoint(s) of ' + c.service + ' in state ' + c.state
            + ' WITH CLEANUP? Nothing is sent to the other side; their waiting messages are deleted.')) {
          call('POST', path(selected, 'conversations/end'), {service: c.service, state: c.state,
            olderThanMinutes: age, max: c.count})
            .then(r => { status('ended ' + r.ended); return listConversations(); })
            .catch(e => status(e.message));
        }
      });
      act.append(end);
    }
    tr.append(el('td', c.service), el('td', c.state), el('td', c.count), el('td', c.oldestBegun || '?'), act);
    body.append(tr);
  }
}

async function refresh() {
  try {
    await refreshActivations();
    await refreshTables();
    await refreshDetail();
    status('');
  } catch (e) {
    status(e.message);
  }
}

async function start() {
  const me = await call('GET', 'me');
  operator = me.operator;
  document.getElementById('user').textContent = me.user + (operator ? ' (operator)' : ' (viewer)');
  const all = document.getElementById('redeliver-all');
  all.disabled = !operator;
  all.addEventListener('click', () => call('POST', path(selected, 'dead-letters/redeliver')).then(refresh)
    .catch(e => status(e.message)));
  const some = document.getElementById('redeliver-selected');
  some.disabled = !operator;
  some.addEventListener('click', async () => {
    try {
      for (const id of [...chosen]) {
        await call('POST', path(selected, 'dead-letters/' + id + '/redeliver'));
        chosen.delete(id);
      }
    } catch (e) {
      status(e.message);
    }
    refresh();
  });
  document.getElementById('list-conversations').addEventListener('click',
    () => listConversations().catch(e => status(e.message)));
  document.getElementById('first-page').addEventListener('click', () => { pageAfter = 0; refresh(); });
  document.getElementById('next-page').addEventListener('click', ev => {
    if (ev.target.dataset.last) { pageAfter = Number(ev.target.dataset.last); refresh(); }
  });
  const purge = document.getElementById('purge');
  purge.disabled = !operator;
  purge.addEventListener('click', () => {
    if (confirm('Delete every dead letter of ' + selected + '?')) {
      call('DELETE', path(selected, 'dead-letters')).then(refresh).catch(e => status(e.message));
    }
  });
  await refresh();
  setInterval(() => { if (!dragged || !document.querySelector('#groups li.over')) refresh(); }, 2000);
  document.addEventListener('dragend', () => { dragged = null; });
}

// Live: dead letters, disabled queues and reconnects as they happen (server-sent events from the MXBeans'
// notifications); the newest first, at most 50.
function listen() {
  const events = new EventSource(API + 'events');
  const show = ev => {
    const n = JSON.parse(ev.data);
    const list = document.getElementById('notifications');
    list.prepend(el('li', n.time + ' ' + n.activation + ': ' + n.message));
    while (list.children.length > 50) list.lastChild.remove();
    refresh();
  };
  for (const type of ['org.ssbjca.message.deadLettered', 'org.ssbjca.queue.disabled',
    'org.ssbjca.reader.reconnecting']) {
    events.addEventListener(type, show);
  }
}

start().then(listen).catch(e => status(e.message));
