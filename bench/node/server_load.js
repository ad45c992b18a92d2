'use strict';
// Issue 13's load driver in Node.js: the boardgame.io anchor's workload (../shared/anchors/bgio/README.md)
// against Spieltafel server processes, measured as the anchor's own driver (load.js) measures boardgame.io:
// same phases, same latency points, same CPU probes, one Node process. bench/server_load.py is the Python
// driver of the same workload; this one runs in the anchor driver's language, so that the two servers are
// compared with drivers that cost the same (docs/performance.md, issue 13).
//
//   node server_load.js --url http://127.0.0.1:8000[,http://127.0.0.1:8001] --tables 1000
//        [--groups 50] [--pids 123,456] [--play-limit 120] [--out result.json]
//
// The servers must run with the game registered (`python bench/hidden_hand.py serve ...`) and rate limits
// that allow the load (bench/side_by_side.sh sets them).
//
// Phases:
//   1. accounts: 3·G accounts (G groups of 3; each account signs in and makes a token), 8 at a time
//   2. create  : N tables through the API (the first seat's account makes the table, the other two join),
//                16 tables in flight at most; table n is played by group n % G
//   3. connect : one WebSocket per seat (3N), 64 connecting at a time, each with its seat's token;
//                wait until every seat has its first state
//   4. play    : every seat plays as soon as a state says it may (the anchor's policy: the smallest card
//                higher than the pile's top card, else the smallest), until every game is over or
//                --play-limit seconds have passed
// Latency of a move = time from sending it to the same seat receiving the first state with a higher seq.
// moves/s = acknowledged moves / (start of play to the moment the last game was over), as the anchor's.
// Errors: HTTP failures in the setup, seats not connected in time, sockets closed during play, error
// messages from the server, moves not acknowledged within --move-timeout, hidden information seen (another
// seat's hand, the deck), a malformed own hand, games not over in time, seats that did not see the end.
const { performance } = require('perf_hooks');
const fs = require('fs');
const { execSync } = require('child_process');
const WebSocket = require('ws');

const SEATS = 3;
const HAND = 5;
const MOVES = 40;
const PASSWORD = 'bench password 1';

function parseArgs(argv) {
  const o = {
    url: 'http://127.0.0.1:8000', tables: 10, groups: 1, playLimit: 60, setupLimit: 120, moveTimeout: 10,
    pids: [], out: null, quiet: false, createConcurrency: 16, connectConcurrency: 64,
  };
  for (let i = 2; i < argv.length; i++) {
    const k = argv[i];
    const v = argv[i + 1];
    const num = () => { i++; const n = Number(v); if (!Number.isFinite(n) || n < 0) throw new Error(`bad ${k}: ${v}`); return n; };
    switch (k) {
      case '--url': o.url = v; i++; break;
      case '--tables': o.tables = num(); break;
      case '--groups': o.groups = Math.max(1, num()); break;
      case '--play-limit': o.playLimit = num(); break;
      case '--setup-limit': o.setupLimit = num(); break;
      case '--move-timeout': o.moveTimeout = num(); break;
      case '--pids': o.pids = v.split(',').filter(Boolean).map(Number); i++; break;
      case '--out': o.out = v; i++; break;
      case '--quiet': o.quiet = true; break;
      default: throw new Error(`unknown option ${k} (see the head of server_load.js)`);
    }
  }
  o.urls = o.url.split(',').filter(Boolean);
  for (const url of o.urls) {
    if (!/^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/.test(url)) {
      throw new Error(`refusing ${url}: only http://127.x.x.x:PORT (loopback) is accepted`);
    }
  }
  o.playLimit = Math.min(o.playLimit, 120);
  return o;
}

const opt = parseArgs(process.argv);
const log = (...a) => { if (!opt.quiet) console.error(`[load ${new Date().toISOString()}]`, ...a); };

// ---------------------------------------------------------------- CPU probes (as the anchor's load.js)
let CLK_TCK = 100;
try { CLK_TCK = Number(execSync('getconf CLK_TCK').toString().trim()) || 100; } catch (_) { /* default */ }

function serverTicks() {
  let total = 0;
  for (const pid of opt.pids) {
    try {
      const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      total += Number(f[11]) + Number(f[12]);
    } catch (_) { /* gone */ }
  }
  return opt.pids.length ? total : null;
}
function machineTicks() {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq] = f;
    return user + nice + system + irq + softirq;
  } catch (_) { return null; }
}
function probe() {
  const cu = process.cpuUsage();
  return { t: performance.now(), srv: serverTicks(), drvUs: cu.user + cu.system, mach: machineTicks() };
}
function cpuBetween(a, b, moves) {
  const wall = (b.t - a.t) / 1000;
  const driver = (b.drvUs - a.drvUs) / 1e6;
  const r = { wall_s: +wall.toFixed(3), driver_cpu_pct: +((driver / wall) * 100).toFixed(1) };
  if (a.srv !== null && b.srv !== null) {
    const s = (b.srv - a.srv) / CLK_TCK;
    r.servers_cpu_s = +s.toFixed(2);
    r.servers_cpu_pct = +((s / wall) * 100).toFixed(1);
    if (moves) r.servers_cpu_ms_per_move = +((1000 * s) / moves).toFixed(3);
    if (a.mach !== null && b.mach !== null) {
      const other = (b.mach - a.mach) / CLK_TCK - s - driver;
      r.other_cpu_pct = +((Math.max(0, other) / wall) * 100).toFixed(1);
    }
  }
  if (moves) r.driver_cpu_ms_per_move = +((1000 * driver) / moves).toFixed(3);
  return r;
}

// ---------------------------------------------------------------- helpers
const errors = {
  http: 0, connect: 0, closed_during_play: 0, server_error: 0, move_timeout: 0, hidden_info_leak: 0,
  bad_state: 0, end_not_seen: 0, unfinished_games: 0,
};
const errorSamples = [];
function err(kind, detail) {
  errors[kind]++;
  if (errorSamples.length < 20) errorSamples.push(`${kind}: ${detail}`);
}

async function pool(items, limit, fn) {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) { const i = next++; await fn(items[i], i); }
  });
  await Promise.all(workers);
}

async function post(path, body, headers = {}) {
  const res = await fetch(opt.urls[0] + path, {
    method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path} -> HTTP ${res.status} ${await res.text()}`);
  return { body: res.status === 204 ? null : await res.json(), res };
}

function pct(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))];
}
function summarize(values) {
  const s = Float64Array.from(values).sort();
  const r = (x) => (x === null ? null : +x.toFixed(1));
  return { n: s.length, p50: r(pct(s, 50)), p95: r(pct(s, 95)), p99: r(pct(s, 99)), max: r(s.length ? s[s.length - 1] : null) };
}

// The anchor's driver policy (game.js chooseCard), on our view.
function chooseCard(view) {
  const top = view.pile.length ? view.pile[view.pile.length - 1] : 0;
  let best = -1;
  let lowest = 0;
  for (let i = 0; i < view.hand.length; i++) {
    const card = view.hand[i];
    if (card > top && (best < 0 || card < view.hand[best])) best = i;
    if (card < view.hand[lowest]) lowest = i;
  }
  return best >= 0 ? best : lowest;
}

// ---------------------------------------------------------------- phases
async function makeAccount(number) {
  const name = `n${number}_${Math.random().toString(16).slice(2, 10)}`;
  await post('/api/accounts', { name, password: PASSWORD });
  const { res } = await post('/api/session', { name, password: PASSWORD });
  const cookie = (res.headers.getSetCookie ? res.headers.getSetCookie() : [res.headers.get('set-cookie')])
    .map((c) => c.split(';')[0]).join('; ');
  const { body } = await post('/api/tokens', {}, { cookie });
  return { Authorization: `Bearer ${body.token}` };
}

async function openTable(people) {
  const seats = [{ kind: 'me' }, ...Array(SEATS - 1).fill({ kind: 'open' })];
  const { body } = await post('/api/tables', { game: 'hidden-hand', players: SEATS, seats }, people[0]);
  for (let seat = 1; seat < SEATS; seat++) await post(`/api/tables/${body.id}/join`, { seat }, people[seat]);
  return body.id;
}

const tables = []; // { id, seats: [seat], done, endT }
const latencies = [];
const lastMoveLatencies = [];
let playing = false;
let tPlayStart = 0;
let gamesDone = 0;
let movesSent = 0;
let movesAcked = 0;
let finishPlay = null;

function checkView(seat, message) {
  const view = message.view;
  if (!view) return;
  if (view.hands !== undefined || view.deck !== undefined) err('hidden_info_leak', `table ${seat.table.id} seat ${seat.number}`);
  if (!Array.isArray(view.hand) || (view.hand.length !== HAND && view.deck_count > 0)) {
    err('bad_state', `table ${seat.table.id} seat ${seat.number} hand ${JSON.stringify(view.hand)}`);
  }
}

function onMessage(seat, raw) {
  const now = performance.now();
  const message = JSON.parse(raw);
  if (message.type === 'error') {
    err('server_error', `table ${seat.table.id} seat ${seat.number}: ${message.code} ${message.message}`);
    seat.pending = null;
    seat.socket.send('{"type":"state"}');
    return;
  }
  if (message.type !== 'state') return;
  if (!seat.synced) { seat.synced = true; seat.resolveSync(); }
  checkView(seat, message);
  seat.state = message;
  if (seat.pending && message.seq > seat.pending.seq) {
    const latency = now - seat.pending.t0;
    latencies.push(latency);
    if (message.result !== null) lastMoveLatencies.push(latency);
    seat.pending = null;
    movesAcked++;
  }
  if (message.result !== null) {
    seat.sawEnd = true;
    const table = seat.table;
    if (!table.done) {
      table.done = true;
      table.endT = now;
      gamesDone++;
      if (gamesDone === tables.length && finishPlay) finishPlay('all games over');
    }
    return;
  }
  if (playing && message.legal.length && !seat.pending && !seat.scheduled) {
    seat.scheduled = true;
    setImmediate(() => tryMove(seat));
  }
}

function tryMove(seat) {
  seat.scheduled = false;
  const message = seat.state;
  if (!playing || seat.pending || !message || message.result !== null || !message.legal.length) return;
  const index = chooseCard(message.view);
  seat.pending = { t0: performance.now(), seq: message.seq };
  movesSent++;
  seat.socket.send(JSON.stringify({ type: 'move', seq: message.seq, action: index }));
}

async function connectSeats() {
  const seats = tables.flatMap((table) => table.seats);
  const wsUrls = opt.urls.map((url) => url.replace('http', 'ws'));
  await pool(seats, opt.connectConcurrency, async (seat, i) => {
    const synced = new Promise((resolve) => { seat.resolveSync = resolve; });
    const url = `${wsUrls[(seat.table.index + seat.number) % wsUrls.length]}/ws/tables/${seat.table.id}`;
    const socket = new WebSocket(url, { headers: seat.headers, perMessageDeflate: false, maxPayload: 1 << 22 });
    seat.socket = socket;
    socket.on('message', (data) => onMessage(seat, data));
    socket.on('error', (e) => err('connect', `${url}: ${e.message}`));
    socket.on('close', () => { if (playing && !seat.sawEnd) err('closed_during_play', `table ${seat.table.id} seat ${seat.number}`); });
    let timer;
    const limit = new Promise((resolve) => { timer = setTimeout(() => resolve('timeout'), opt.setupLimit * 1000); });
    if ((await Promise.race([synced, limit])) === 'timeout') err('connect', `seat ${i}: no state in ${opt.setupLimit} s`);
    clearTimeout(timer);
  });
}

async function play() {
  const done = new Promise((resolve) => { finishPlay = resolve; });
  playing = true;
  tPlayStart = performance.now();
  if (tables.length === 0) finishPlay('no tables');
  for (const table of tables) {
    for (const seat of table.seats) {
      if (seat.state && seat.state.legal.length && !seat.scheduled) { seat.scheduled = true; setImmediate(() => tryMove(seat)); }
    }
  }
  const deadline = tPlayStart + opt.playLimit * 1000;
  const ticker = setInterval(() => {
    const now = performance.now();
    for (const table of tables) {
      for (const seat of table.seats) {
        if (seat.pending && !seat.pending.timedOut && now - seat.pending.t0 > opt.moveTimeout * 1000) {
          seat.pending.timedOut = true;
          err('move_timeout', `table ${table.id} seat ${seat.number} seq ${seat.pending.seq}`);
        }
      }
    }
    if (now >= deadline) finishPlay('play time limit');
  }, 250);
  const reason = await done;
  playing = false;
  clearInterval(ticker);
  return { reason, tEnd: performance.now() };
}

async function main() {
  const hardStop = setTimeout(() => { console.error('[load] hard stop: overall time bound exceeded'); process.exit(3); },
    (3 * opt.setupLimit + opt.playLimit + 30) * 1000);
  hardStop.unref();
  log(`${SEATS * opt.groups} accounts, ${opt.tables} tables at ${opt.urls.join(', ')}`);
  const numbers = Array.from({ length: SEATS * opt.groups }, (_, i) => i);
  const accounts = new Array(numbers.length);
  await pool(numbers, 8, async (n) => {
    try { accounts[n] = await makeAccount(n); } catch (e) { err('http', e.message); }
  });
  if (errors.http) throw new Error(`accounts: ${errorSamples.join('; ')}`);
  const indices = Array.from({ length: opt.tables }, (_, i) => i);
  await pool(indices, opt.createConcurrency, async (index) => {
    const people = accounts.slice(SEATS * (index % opt.groups), SEATS * (index % opt.groups) + SEATS);
    try {
      const id = await openTable(people);
      const table = { index, id, seats: [], done: false, endT: null };
      for (let number = 0; number < SEATS; number++) {
        table.seats.push({ table, number, headers: people[number], pending: null, scheduled: false, synced: false, sawEnd: false, state: null });
      }
      tables.push(table);
    } catch (e) {
      err('http', e.message);
    }
  });
  const p1 = probe();
  log(`made ${tables.length} tables; connecting ${SEATS * tables.length} seats`);
  await connectSeats();
  const p2 = probe();
  log(`play starts: ${SEATS * tables.length} seats connected`);
  const { reason, tEnd } = await play();
  const p3 = probe();
  log(`play ended: ${reason}`);
  const graceEnd = performance.now() + 2000;
  while (performance.now() < graceEnd && tables.some((t) => t.done && t.seats.some((s) => !s.sawEnd))) {
    await new Promise((r) => setTimeout(r, 20));
  }
  for (const table of tables) {
    if (!table.done) errors.unfinished_games++;
    else for (const seat of table.seats) if (!seat.sawEnd) err('end_not_seen', `table ${table.id} seat ${seat.number}`);
  }
  for (const table of tables) for (const seat of table.seats) seat.socket.close();
  const lastEnd = tables.reduce((a, t) => (t.endT !== null && t.endT > a ? t.endT : a), tPlayStart);
  const playWall = ((gamesDone === tables.length ? lastEnd : tEnd) - tPlayStart) / 1000;
  const totalErrors = Object.values(errors).reduce((a, b) => a + b, 0);
  const result = {
    date: new Date().toISOString(), driver: `node ${process.version}, ws ${require('ws/package.json').version}`,
    url: opt.url, tables: opt.tables, groups: opt.groups, end_reason: reason,
    tables_made: tables.length, games_finished: gamesDone, moves_sent: movesSent, moves: movesAcked,
    expected_moves: MOVES * opt.tables, seconds: +playWall.toFixed(3), moves_per_s: +(movesAcked / playWall).toFixed(1),
    latency_ms: summarize(latencies), last_move_latency_ms: summarize(lastMoveLatencies),
    phases: { connect: cpuBetween(p1, p2, 0), play: cpuBetween(p2, p3, movesAcked) },
    errors, total_errors: totalErrors, error_samples: errorSamples,
  };
  const json = JSON.stringify(result, null, 1);
  if (opt.out) fs.writeFileSync(opt.out, json + '\n');
  console.log(json);
  const L = result.latency_ms;
  log(`N=${opt.tables} moves/s=${result.moves_per_s} p50=${L.p50} p95=${L.p95} p99=${L.p99} max=${L.max} ms errors=${totalErrors}`);
  setTimeout(() => process.exit(totalErrors > 0 ? 1 : 0), 300);
}

main().catch((e) => { console.error(e); process.exit(2); });
