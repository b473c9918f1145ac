// The failures view of the selected activation: its dead letters grouped by failure, a search, a body download, and
// a redelivery of a group or a selection at a limited rate, with progress and cancel. Uses console.js's call, el,
// path, status, operator and selected.
'use strict';

const failures = {shown: null, after: 0, chosen: new Set(), polling: null};
const FOUND_PAGE = 50;

function failuresPath(rest) { return path(selected, 'failures/' + rest); }

function rate() { return Number(document.getElementById('redeliver-rate').value); }

async function refreshFailureGroups() {
  const groups = await call('GET', failuresPath('groups?scan=10000'));
  const body = document.querySelector('#failure-groups tbody');
  body.replaceChildren();
  for (const g of groups) {
    const tr = el('tr');
    const act = el('td');
    const again = el('button', 'Redeliver group', 'act');
    again.disabled = !operator;
    again.addEventListener('click', () => startRedelivery({group: g.key, perSecond: rate()}));
    const show = el('button', 'Show');
    show.addEventListener('click', () => {
      document.getElementById('failure-text').value = g.exceptionClass || g.exampleError || '';
      failures.after = 0;
      searchFailures().catch(e => status(e.message));
    });
    act.append(again, ' ', show);
    tr.append(el('td', g.key, 'key'), el('td', g.count), el('td', g.firstSeen), el('td', g.lastSeen),
      el('td', g.exampleError), act);
    body.append(tr);
  }
  document.getElementById('failure-groups-note').textContent = groups.length + ' group(s)';
}

async function searchFailures() {
  const text = document.getElementById('failure-text').value;
  const found = await call('GET', failuresPath('search?text=' + encodeURIComponent(text) + '&after='
    + failures.after + '&max=' + FOUND_PAGE));
  const body = document.querySelector('#failure-results tbody');
  body.replaceChildren();
  for (const l of found) {
    const tr = el('tr');
    const pickCell = pickCellFor(failures.chosen, l.id);
    const download = el('td');
    if (operator) {
      const a = el('a', 'Download');
      a.href = API + failuresPath('dead-letters/' + l.id + '/body');
      a.download = 'dead-letter-' + l.id + '.bin';
      download.append(a);
    }
    const text = el('td');
    text.append(el('pre', l.body, 'body'));
    tr.append(pickCell, el('td', l.id), el('td', l.messageType), el('td', l.lastError), text,
      el('td', l.deadLetteredAt), download);
    body.append(tr);
  }
  const next = document.getElementById('failure-next');
  next.dataset.last = found.length === FOUND_PAGE ? found[found.length - 1].id : '';
  document.getElementById('failure-results-note').textContent = found.length + ' found after id ' + failures.after;
}

// A result row's checkbox cell (operators only): ticking it adds the key to the chosen set, unticking removes it.
// Set-aside rows use it too.
function pickCellFor(chosen, key) {
  const pick = el('input');
  pick.type = 'checkbox';
  pick.disabled = !operator;
  pick.checked = chosen.has(key);
  pick.addEventListener('change', () => pick.checked ? chosen.add(key) : chosen.delete(key));
  const cell = el('td');
  cell.append(pick);
  return cell;
}

async function startRedelivery(what) {
  try {
    await call('POST', failuresPath('redeliveries'), what);
    pollJob();
  } catch (e) {
    status(e.message);
  }
}

// Shows a throttled job's progress in its box (children of classes job-text, job-progress, job-cancel) and returns
// whether it runs; words name what a job's counts mean, e.g. ['redelivered', 'failed again']. Set-aside rows use it too.
function renderJob(job, box, words) {
  box.hidden = !job;
  if (!job) return false;
  box.querySelector('.job-text').textContent = job.description + ': ' + (job.redelivered + job.failed) + ' / '
    + job.total + ' (' + job.redelivered + ' ' + words[0] + ', ' + job.failed + ' ' + words[1] + ') at '
    + job.messagesPerSecond + '/s, ' + job.state + (job.error ? ': ' + job.error : '');
  box.dataset.state = job.state;
  const bar = box.querySelector('.job-progress');
  bar.max = Math.max(1, job.total);
  bar.value = job.redelivered + job.failed;
  box.querySelector('.job-cancel').disabled = !operator || job.state !== 'RUNNING';
  return job.state === 'RUNNING';
}

// Follows a job until it ends: show() reads and shows it, answering whether it runs; ended() is called once a job
// seen running has ended. holder.polling keeps the timer, so that a new follow replaces the last.
function followJob(holder, show, ended) {
  clearInterval(holder.polling);
  let seenRunning = false;
  const tick = () => show().then(running => {
    if (running) {
      seenRunning = true;
    } else {
      clearInterval(holder.polling);
      if (seenRunning) ended().catch(e => status(e.message));
    }
  }).catch(e => status(e.message));
  holder.polling = setInterval(tick, 500);
  tick();
}

async function showJob() {
  const job = await call('GET', failuresPath('redeliveries/current'));
  return renderJob(job, document.getElementById('redelivery-job'), ['redelivered', 'failed again']);
}

// Follows the job until it ends; the groups are read again once a job seen running has ended.
function pollJob() {
  followJob(failures, showJob, refreshFailureGroups);
}

// Follows the page's selection: a newly selected activation gets its groups and its job shown.
function followSelection() {
  const section = document.getElementById('failures');
  section.hidden = !selected;
  document.getElementById('failure-redeliver-selected').disabled = !operator;
  if (!selected || failures.shown === selected) return;
  failures.shown = selected;
  failures.after = 0;
  failures.chosen.clear();
  document.getElementById('failures-title').textContent = 'Failures of ' + selected;
  document.querySelector('#failure-results tbody').replaceChildren();
  refreshFailureGroups().then(pollJob).catch(e => status(e.message));
}

function startFailures() {
  document.getElementById('failure-groups-refresh').addEventListener('click',
    () => refreshFailureGroups().catch(e => status(e.message)));
  document.getElementById('failure-search').addEventListener('click', () => {
    failures.after = 0;
    searchFailures().catch(e => status(e.message));
  });
  document.getElementById('failure-next').addEventListener('click', ev => {
    if (ev.target.dataset.last) {
      failures.after = Number(ev.target.dataset.last);
      searchFailures().catch(e => status(e.message));
    }
  });
  const some = document.getElementById('failure-redeliver-selected');
  some.disabled = !operator;
  some.addEventListener('click', () => {
    if (failures.chosen.size) startRedelivery({ids: [...failures.chosen], perSecond: rate()});
    failures.chosen.clear();
  });
  document.getElementById('job-cancel').addEventListener('click',
    () => call('POST', failuresPath('redeliveries/current/cancel')).then(pollJob).catch(e => status(e.message)));
  setInterval(followSelection, 500);
}

// console.js learns who the user is first; the buttons follow the role it found.
window.addEventListener('load', () => setTimeout(startFailures, 0));
