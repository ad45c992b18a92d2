// Spieltafel's one browser module: game-agnostic, no build step.
// It speaks the WebSocket protocol of docs/protocol.md: the server sends {"type": "state", ...} (with
// "board": the SVG, "legal" with labels, "texts": the events in words, added for ?board=svg&lang=..),
// the page sends {"type": "move", "seq", "action"}; refusals come back as {"type": "error", "code"}.
// Board elements with data-action="<i>" are one move; data-target + data-actions="<i> <j>" open a chooser.
// data-gestures="<k> <l>" stand for the state's gestures[k] (several actions in a row, e.g. Niagara's canoe to
// its destination): one is sent at once as {"type": "move", "seq", "actions": [...]}, several open the chooser.
// Chat: {"type": "chat", "messages": [...]} comes in (all on connect, then each new one), the page sends
// {"type": "chat", "text"}; messages are shown as text only (textContent), never as markup.
// Clocks: "clocks" in a state gives each seat's remaining_ms at the server's now_ms; running ones tick here.
// Hints (casual games and games against bots): the Hint button or the key H posts /api/tables/ID/hint with
// the seq shown; the answer's best move is marked on the board (class "hint", the board's data-highlight)
// and in the move list, with one line of words; the seat's count in the players' list goes up.

import { Chooser, fillButtons, numbers } from "./chooser.js";

const $ = (id) => document.getElementById(id);
const CHAT_CODES = new Set(["too-fast", "too-long", "empty", "bad-text"]);
const CLOSE_SIGNED_OUT = 4401; // the session or token of the socket ended (docs/protocol.md)

function readConfig() {
  const node = $("table-config");
  if (!node) return null;
  try { return JSON.parse(node.textContent); } catch (e) { return null; }
}

function format(template, values) {
  return template.replace(/%\((\w+)\)[sd]/g, (_, key) => (key in values ? String(values[key]) : ""));
}

// -- an open table: wait until it starts --------------------------------------------------------------
function pollOpenTable(node) {
  const id = node.dataset.table;
  const check = async () => {
    try {
      const response = await fetch(`/api/tables/${id}`, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.ok) {
        const table = await response.json();
        const free = (table.seats || []).filter((s) => s.kind === "open").length;
        if (table.status !== node.dataset.pollStatus || String(free) !== node.dataset.free) {
          window.location.reload();
          return;
        }
      }
    } catch (e) { /* try again */ }
    window.setTimeout(check, 2000);
  };
  window.setTimeout(check, 2000);
}

// -- a finished table: a player sees the rematch as soon as somebody asks for it -------------------------
function pollRematch(node) {
  const check = async () => {
    try {
      const response = await fetch(`/api/tables/${node.dataset.table}`, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.ok && (await response.json()).rematch) {
        window.location.reload();
        return;
      }
    } catch (e) { /* try again */ }
    window.setTimeout(check, 5000);
  };
  window.setTimeout(check, 5000);
}

// -- a running table ----------------------------------------------------------------------------------
const CONFIRM_KEY = "spieltafel.confirm-moves";

// A choice the player made at the table, remembered in this browser (null when none or unavailable).
function readChoice(key) {
  try { return window.localStorage.getItem(key); } catch (e) { return null; }
}

function storeChoice(key, value) {
  try { window.localStorage.setItem(key, value); } catch (e) { /* private mode: the choice lasts this page */ }
}

class TablePage {
  constructor(config) {
    this.config = config;
    this.texts = config.texts || {};
    this.seq = config.seq;
    this.seat = config.seat;
    this.legal = new Map();
    this.gestures = config.gestures || [];
    this.toAct = [];
    this.busy = false;
    this.socket = null;
    this.retry = 0;
    this.pending = null;
    this.returnFocus = null;
    this.baseTitle = document.title;
    this.board = $("board");
    this.clocks = null;
    this.clocksAt = 0;
    this.sound = new TurnSound(this.config.pace === "live" && this.seat !== null && this.seat !== undefined, this.texts);
    this.wasMyTurn = null;
    this.undoCount = $("undo-button") && !$("undo-button").hidden ? 1 : 0;
    // Off by default: a move can be taken back (docs/play.md). A signed-in player's choice is on the account
    // (config.confirm, the same on every device); a guest's is remembered in this browser.
    this.askFirst = typeof config.confirm === "boolean" ? config.confirm : readChoice(CONFIRM_KEY) === "on";
    this.focusIndex = 0;
    this.hinting = false;
    this.hintShown = null;
    // an entry of the chooser: confirmed too where the player asks first
    this.chooser = new Chooser((kind, value) => (kind === "gesture" ? this.askGesture(value) : this.ask(value)),
      () => this.cancel());
    this.readInitialLegal();
    this.bind();
    this.bindChat();
    this.setClocks(config.clocks);
    if ($("turn-banner").classList.contains("mine")) this.restoreFocus();  // a keyboard player starts on the board, not 20 Tabs away
    window.setInterval(() => this.tick(), 250);
    this.connect();
  }

  // A bot took over a seat, or this person left or ran out of time: the page is drawn anew.
  seatsChanged(state) {
    if (state.seat !== undefined && state.seat !== this.seat) return true;
    const gone = (state.seats || []).map((s) => s.gone || null);
    const known = (this.config.gone || []).map((g) => g || null);
    return gone.length > 0 && gone.join("|") !== known.join("|");
  }

  // -- clocks --------------------------------------------------------------------------------------
  setClocks(clocks) {
    this.clocks = clocks || null;
    this.clocksAt = Date.now();
    this.tick();
  }

  tick() {
    if (!this.clocks) return;
    const elapsed = Date.now() - this.clocksAt;
    for (const item of this.clocks.seats || []) {
      const node = document.querySelector(`#seat-list [data-clock="${item.seat}"]`);
      if (!node) continue;
      if (item.remaining_ms === null || item.remaining_ms === undefined) {
        node.textContent = "";
        node.classList.remove("running", "low");
        continue;
      }
      const left = Math.max(0, item.remaining_ms - (item.running ? elapsed : 0));
      node.textContent = clockText(left, this.texts);
      node.classList.toggle("running", Boolean(item.running));
      node.classList.toggle("low", Boolean(item.running) && left < 10000);
    }
  }

  readInitialLegal() {
    for (const button of document.querySelectorAll("#move-list [data-action]")) {
      this.legal.set(Number(button.dataset.action), button.textContent.trim());
    }
  }

  bind() {
    const activate = (event) => {
      const target = event.target.closest("[data-action], [data-actions], [data-gestures]");
      if (!target || !(this.board.contains(target) || $("move-list").contains(target))) return false;
      event.preventDefault();
      this.choose(target);
      return true;
    };
    this.board.addEventListener("click", activate);
    $("move-list").addEventListener("click", activate);
    const keys = (event) => {
      if (event.key === "Enter" || event.key === " " || event.key === "Spacebar") activate(event);
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      if (step) { event.preventDefault(); this.moveFocus(step); }
    };
    this.board.addEventListener("keydown", keys);
    const leave = document.querySelector(".leave-box form");
    if (leave) leave.addEventListener("submit", () => { this.leaving = true; });
    $("confirm-yes").addEventListener("click", () => this.confirm());
    $("confirm-no").addEventListener("click", () => this.cancel());
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !$("confirm-bar").hidden) this.cancel();  // the chooser's Escape: chooser.js
      const typing = event.target.closest && event.target.closest("input, textarea, select, [contenteditable]");
      if (typing || event.altKey || event.metaKey) return;
      const undoKey = (event.key === "u" || event.key === "U") && !event.ctrlKey;
      if (undoKey || (event.ctrlKey && (event.key === "z" || event.key === "Z"))) {
        event.preventDefault();
        this.undo();
      }
      if ((event.key === "h" || event.key === "H") && !event.ctrlKey && $("hint-button")) {
        event.preventDefault();
        this.hint();
      }
    });
    const hintButton = $("hint-button");
    if (hintButton) hintButton.addEventListener("click", () => this.hint());
    const undoButton = $("undo-button");
    if (undoButton) undoButton.addEventListener("click", () => this.undo());
    const toggle = $("confirm-toggle");
    if (toggle) {
      toggle.checked = this.askFirst;
      toggle.addEventListener("change", () => {
        this.askFirst = toggle.checked;
        storeChoice(CONFIRM_KEY, toggle.checked ? "on" : "off");
        if (typeof this.config.confirm === "boolean") this.saveConfirm(toggle.checked);
      });
    }
  }

  label(action) {
    return this.legal.get(action) || String(action);
  }

  // The account remembers "Ask before each move" (POST /account/confirm-moves, the page's session).
  async saveConfirm(on) {
    const body = new URLSearchParams({ confirm_moves: on ? "on" : "off" });
    try {
      const response = await fetch("/account/confirm-moves", {
        method: "POST", body, credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRF-Token": this.config.csrf || "" },
      });
      document.body.dataset.confirmSaved = response.ok ? "yes" : "no";
    } catch (e) {
      document.body.dataset.confirmSaved = "no";  // kept in this browser meanwhile
    }
  }

  openChooser(entries, target) {
    $("confirm-bar").hidden = true;
    this.chooser.open(entries, target);
  }

  choose(target) {
    if (this.busy) return;
    this.hideError();
    this.clearSelection();
    this.returnFocus = target;
    const index = this.targets().indexOf(target);
    if (index >= 0) this.focusIndex = index;
    target.classList.add("selected");
    if (target.hasAttribute("data-gestures")) {
      const found = numbers(target, "data-gestures").filter((k) => this.gestures[k]);
      if (found.length === 1) return this.askGesture(found[0]);
      if (found.length === 0) return;
      return this.openChooser(found.map((k) => ["gesture", k, this.gestures[k].label || this.gestures[k].notation]), target);
    }
    if (target.hasAttribute("data-actions")) {
      const actions = numbers(target, "data-actions").filter((a) => this.legal.has(a));
      if (actions.length === 1) return this.ask(actions[0]);
      if (actions.length === 0) return;
      return this.openChooser(actions.map((a) => ["choice", a, this.label(a)]), target);
    }
    const action = Number(target.getAttribute("data-action"));
    if (this.legal.has(action)) this.ask(action);
  }

  // The board's targets in document order; arrows move between them, the focus comes back after a move.
  targets() {
    return [...this.board.querySelectorAll("[data-action], [data-actions], [data-gestures]")];
  }

  moveFocus(step) {
    const all = this.targets();
    if (!all.length) return;
    const at = all.indexOf(document.activeElement);
    const next = at < 0 ? 0 : (at + step + all.length) % all.length;
    this.focusIndex = next;
    all[next].focus();
  }

  restoreFocus(options = undefined) {
    const all = this.targets();
    const active = document.activeElement;
    const hidden = active && active.closest && active.closest("[hidden]");  // e.g. the chooser's entry just used
    const lost = !active || active === document.body || !document.contains(active) || this.board.contains(active)
      || Boolean(hidden);
    if (!all.length || !lost) return;
    all[Math.min(this.focusIndex, all.length - 1)].focus(options);
  }

  undo() {
    if (!this.undoCount || this.busy) return;
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
      this.showError(this.texts.reconnecting);
      return;
    }
    this.cancelQuietly();
    this.busy = true;
    document.body.classList.add("busy");
    this.setConnection(this.texts.sending);
    // Right after this page's gesture, one U takes back all its steps (as far as the turn allows).
    const gesture = this.gestureUndo && this.gestureUndo.seq === this.seq ? this.gestureUndo.steps : 1;
    this.socket.send(JSON.stringify({ type: "undo", seq: this.seq, steps: Math.max(1, Math.min(gesture, this.undoCount)) }));
  }

  // -- hints ---------------------------------------------------------------------------------------
  async hint() {
    const button = $("hint-button");
    if (!button || this.hinting || !this.legal.size) return;
    this.hinting = true;
    const asked = this.seq;
    button.disabled = true;
    $("hint-thinking").hidden = false;
    $("hint-line").hidden = true;
    try {
      const ask = (unratedOk) => fetch(`/api/tables/${this.config.table}/hint`, {
        method: "POST", credentials: "same-origin",
        headers: { Accept: "application/json", "Content-Type": "application/json" },
        body: JSON.stringify(unratedOk ? { seq: asked, unrated_ok: true } : { seq: asked }),
      });
      let response = await ask(false);
      let data = await response.json().catch(() => null);
      // the first hint of a rated game makes it unrated: the page asks once before it is given
      if (response.status === 409 && data && data.detail && data.detail.code === "hint-unrates") {
        if (!window.confirm(this.texts.hint_unrates || data.detail.message)) return;
        response = await ask(true);
        data = await response.json().catch(() => null);
      }
      // a hint the server gave stands for the seq it names (it checked that this seat's own position did not
      // change while the search ran, e.g. another seat's hidden choice); a refusal for an old position is dropped
      if (response.ok ? !data || data.seq < this.seq : this.seq !== asked) return;
      if (!response.ok) {
        const detail = (data && data.detail) || {};
        // a hint's own words for each refusal (a move's "stale" or "not-your-turn" say something else)
        const reason = this.texts[`hint:${detail.code}`] || this.texts[detail.code] || detail.message
          || String(response.status);
        this.showHintLine(format(this.texts.hint_failed || "%(reason)s", { reason }), true);
        return;
      }
      this.showHint(data);
    } catch (error) {
      this.showHintLine(format(this.texts.hint_failed || "%(reason)s", { reason: this.texts.reconnecting }), true);
    } finally {
      this.hinting = false;
      $("hint-thinking").hidden = true;
      button.disabled = !this.legal.size;
    }
  }

  percent(chance) {
    const lang = this.config.lang || document.documentElement.lang || "en";
    try {
      return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(chance / 100);
    } catch (e) { return `${Math.round(chance)}%`; }
  }

  showHint(data) {
    const moves = data.moves || [];
    if (!moves.length) return;
    const best = moves[0];
    const name = (move) => this.label(Number(move.action));
    let line;
    if (best.chance === null || best.chance === undefined) {
      line = format(this.texts.hint_forced, { move: name(best) });
    } else if (moves.length > 1 && moves[1].chance !== null && moves[1].chance !== undefined) {
      line = format(this.texts.hint_best, { move: name(best), chance: this.percent(best.chance),
                                            next: name(moves[1]), next_chance: this.percent(moves[1].chance) });
    } else {
      line = format(this.texts.hint_best_only, { move: name(best), chance: this.percent(best.chance) });
    }
    this.hintShown = { seq: data.seq, action: Number(best.action) };
    this.markHint();
    this.showHintLine(line, false);
    const count = document.querySelector(`#seat-list [data-hints="${Number(data.seat)}"]`);
    if (count) count.textContent = format(this.texts.hint_count || "%(num)d", { num: Number(data.hints) });
  }

  showHintLine(text, failed) {
    const node = $("hint-line");
    if (!node) return;
    node.textContent = text;
    node.classList.toggle("error", Boolean(failed));
    node.hidden = !text;
  }

  // The hinted move on the board (every element that carries it) and in the move list.
  markHint() {
    this.clearHintMarks();
    if (!this.hintShown || this.hintShown.seq !== this.seq) return;
    const action = String(this.hintShown.action);
    this.board.dataset.highlight = action;
    const selector = `[data-action="${action}"], [data-actions~="${action}"]`;
    for (const node of [...this.board.querySelectorAll(selector), ...$("move-list").querySelectorAll(selector)]) {
      node.classList.add("hint");
    }
  }

  clearHintMarks() {
    delete this.board.dataset.highlight;
    for (const node of document.querySelectorAll(".hint[data-action], .hint[data-actions]")) node.classList.remove("hint");
  }

  setUndo(count) {
    this.undoCount = Number(count) || 0;
    const button = $("undo-button");
    if (button) button.hidden = this.undoCount === 0;
  }

  ask(action) {
    this.askMove({ action }, this.label(action));
  }

  askGesture(index) {
    const gesture = this.gestures[index];
    if (gesture) this.askMove({ actions: gesture.actions.map(Number) }, gesture.label || gesture.notation);
  }

  // move: {action} (one) or {actions} (a gesture's steps, all or none)
  askMove(move, text) {
    if (!this.askFirst) { this.send(move); return; }  // one click per move unless the player asks first
    this.pending = move;
    this.chooser.close();
    $("confirm-text").textContent = `${text} — ${this.texts.confirm_question || ""}`;
    $("confirm-bar").hidden = false;
    $("confirm-yes").focus();
  }

  confirm() {
    if (this.pending !== null) this.send(this.pending);
  }

  cancel() {
    this.pending = null;
    $("confirm-bar").hidden = true;
    this.chooser.close();
    this.clearSelection();
    if (this.returnFocus && document.contains(this.returnFocus)) this.returnFocus.focus();
  }

  clearSelection() {
    for (const node of this.board.querySelectorAll(".selected")) node.classList.remove("selected");
  }

  send(move) {
    if (typeof move === "number") move = { action: move };
    if (document.body.classList.contains("offline")) {
      this.offlineAgain();
      return;
    }
    this.pending = null;
    $("confirm-bar").hidden = true;
    this.chooser.close();
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
      this.showError(this.texts.reconnecting);
      return;
    }
    this.busy = true;
    document.body.classList.add("busy");
    this.setConnection(this.texts.sending);
    this.sentGesture = move.actions ? { from: this.seq, steps: move.actions.length } : null;
    this.socket.send(JSON.stringify({ type: "move", seq: this.seq, ...move }));
  }

  // -- the connection ------------------------------------------------------------------------------
  connect() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const lang = encodeURIComponent(this.config.lang || document.documentElement.lang || "en");
    const url = `${scheme}://${window.location.host}/ws/tables/${this.config.table}?board=svg&chat=1&lang=${lang}`;
    this.setConnection(this.retry ? this.texts.reconnecting : this.texts.connecting);
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retry = 0;
      this.setConnection(this.texts.connected, true);
      this.setOffline(false);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "state") this.update(message);
      else if (message.type === "chat") this.showChat(message.messages || []);
      else if (message.type === "error" && CHAT_CODES.has(message.code)) this.showChatError(this.texts[message.code]);
      else if (message.type === "error") this.refused(message);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      if (this.busy) this.showError(this.texts.not_confirmed);  // nothing is dropped silently
      this.setOffline(true);
      this.busy = false;
      document.body.classList.remove("busy");
      if (event.code === CLOSE_SIGNED_OUT) {  // the sign-in ended: reconnecting would only watch
        this.setConnection(this.texts["signed-out"]);
        this.showError(this.texts["signed-out"]);
        return;
      }
      this.retry += 1;
      this.setConnection(this.texts.reconnecting);
      window.setTimeout(() => this.connect(), Math.min(10000, 500 * 2 ** Math.min(this.retry, 5)));
    });
  }

  // While the socket is down a banner lies over the board and the board takes no moves.
  setOffline(offline) {
    const banner = $("offline-banner");
    if (banner) banner.hidden = !offline;
    document.body.classList.toggle("offline", offline);
    if (offline) {  // no "Your turn" while no move can be sent; the next state message sets the banner again
      const turn = $("turn-banner");
      turn.classList.remove("mine");
      turn.textContent = this.texts.reconnecting || "";
      this.wasMyTurn = null;
    }
    this.board.setAttribute("aria-disabled", offline ? "true" : "false");
  }

  // A move tried while the socket is down: the banner over the board says so again (read aloud, role=alert,
  // and drawn once more), rather than a fourth line saying "Reconnecting…".
  offlineAgain() {
    const banner = $("offline-banner");
    if (!banner) { this.showError(this.texts.reconnecting); return; }
    const text = banner.textContent;
    banner.textContent = "";
    banner.classList.remove("again");
    window.requestAnimationFrame(() => { banner.textContent = text; banner.classList.add("again"); });
  }

  setConnection(text, live = false) {
    const node = $("connection");
    if (!node) return;
    node.textContent = text || "";
    node.classList.toggle("live", live);
  }

  refused(message) {
    this.busy = false;
    document.body.classList.remove("busy");
    this.setConnection(this.texts.connected, true);
    this.clearSelection();
    this.showError(this.texts[message.code] || this.texts.error);
    document.body.dataset.refused = String(message.code);
    this.chooser.close();
    this.restoreFocus();  // back on the board (the chooser's entry just used is hidden now), never <body>
  }

  showError(text) {
    const node = $("move-error");
    node.textContent = text || "";
    node.hidden = !text;
  }

  hideError() { this.showError(""); }

  update(state) {
    const newSeq = state.seq !== this.seq;
    const sent = this.sentGesture;
    if (newSeq) this.gestureUndo = sent && state.seq === sent.from + sent.steps ? { seq: state.seq, steps: sent.steps } : null;
    if (newSeq) this.sentGesture = null;
    this.seq = state.seq;
    this.busy = false;
    document.body.classList.remove("busy");
    this.setConnection(this.texts.connected, true);
    if (this.leaving) return;  // the form's answer takes this person to the lobby
    if (state.result || this.seatsChanged(state)) {
      window.location.reload();
      return;
    }
    if (newSeq) { this.hideError(); this.cancelQuietly(); }
    this.legal = new Map((state.legal || []).map((item) => [Number(item.action), item.label || item.notation]));
    this.gestures = state.gestures || [];
    const focusOnBoard = this.board.contains(document.activeElement);
    if (focusOnBoard) this.focusIndex = Math.max(0, this.targets().indexOf(document.activeElement));
    if (typeof state.board === "string") {
      this.board.innerHTML = state.board;
    }
    this.updateMoveList(state.legal || []);
    if (newSeq) { this.hintShown = null; this.showHintLine("", false); }
    for (const seat of state.seats || []) {
      const count = document.querySelector(`#seat-list [data-hints="${Number(seat.seat)}"]`);
      if (count && seat.hints !== undefined) count.textContent = format(this.texts.hint_count || "%(num)d", { num: Number(seat.hints) });
    }
    this.markHint();  // the board was drawn anew: the hint stays marked while its position stands
    const hintButton = $("hint-button");
    if (hintButton && !this.hinting) hintButton.disabled = !this.legal.size;
    this.setUndo(state.undo);
    this.updateEvents(state.texts || []);
    this.updatePlayers(state.to_act || [], state.chosen || []);
    this.setClocks(state.clocks);
    if (newSeq || focusOnBoard) this.restoreFocus();  // the board was drawn anew: the focus stays on it
    // The turn is this player's and the focus was lost (on <body>: e.g. a state after a reconnect, with no new
    // move): back on the board, without scrolling a player who reads elsewhere on the page.
    else if (this.wasMyTurn) this.restoreFocus({ preventScroll: true });
    // A forced move (the only legal action, e.g. Iquazú's "end" when nothing else is left) plays itself,
    // unless a takeback is still open (then the player may want to take back first) or the player asks first.
    const legal = state.legal || [];
    if (this.wasMyTurn && legal.length === 1 && !this.undoCount && !this.askFirst && this.autoplayed !== this.seq) {
      this.autoplayed = this.seq;  // once per position, also for the state that comes on (re)connect
      this.send(Number(legal[0].action));
    }
  }

  // -- chat ----------------------------------------------------------------------------------------
  bindChat() {
    const form = $("chat-form");
    if (!form) return;
    form.addEventListener("submit", (event) => {
      const input = $("chat-text");
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return; // the form posts instead
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      this.showChatError("");
      this.socket.send(JSON.stringify({ type: "chat", text }));
      input.value = "";
    });
  }

  showChat(messages) {
    const list = $("chat-list");
    if (!list) return;
    for (const message of messages) {
      if (list.querySelector(`[data-id="${Number(message.id)}"]`)) continue;
      const empty = list.querySelector(".chat-empty");
      if (empty) empty.remove();
      list.append(this.chatItem(message));
    }
    list.scrollTop = list.scrollHeight;
  }

  chatItem(message) {
    const item = document.createElement("li");
    item.className = `chat-message channel-${message.channel === "spectators" ? "spectators" : "players"}`;
    item.dataset.id = String(Number(message.id));
    const name = document.createElement("span");
    name.className = "chat-name";
    name.textContent = message.name;
    item.append(name);
    if (message.program) {
      const badge = document.createElement("span");
      badge.className = "badge program";
      badge.textContent = this.texts.program || "";
      item.append(" ", badge);
    }
    if (message.channel === "spectators") {
      const channel = document.createElement("span");
      channel.className = "chat-channel";
      channel.textContent = ` (${this.texts.chat_spectator || ""})`;
      item.append(channel);
    }
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = message.text;
    item.append(": ", text);
    const template = $("mute-template");
    if (template && message.name !== this.config.me) {
      const form = template.content.firstElementChild.cloneNode(true);
      form.querySelector("input[name=name]").value = message.name;
      item.append(" ", form);
    }
    return item;
  }

  showChatError(text) {
    const node = $("chat-error");
    if (!node) return;
    node.textContent = text || "";
    node.hidden = !text;
  }

  cancelQuietly() {
    this.pending = null;
    $("confirm-bar").hidden = true;
    this.chooser.close();
  }

  updateMoveList(legal) {
    fillButtons($("move-list"), legal.map((item) => ["action", item.action, item.label || item.notation]));
  }

  updateEvents(texts) {
    const list = $("event-list");
    list.replaceChildren();
    if (!texts.length) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = this.texts.no_moves_yet || "";
      list.append(li);
      return;
    }
    texts.forEach((text, index) => {
      const li = document.createElement("li");
      li.textContent = text;
      if (index === texts.length - 1) li.className = "latest";
      list.append(li);
    });
    list.scrollTop = list.scrollHeight;
  }

  updatePlayers(toAct, chosen) {
    this.toAct = toAct;
    const names = [];
    for (const item of document.querySelectorAll("#seat-list [data-seat]")) {
      const seat = Number(item.dataset.seat);
      const acting = toAct.includes(seat);
      const hasChosen = chosen.includes(seat);
      item.classList.toggle("to-act", acting && !hasChosen);
      item.classList.toggle("has-chosen", hasChosen);
      const state = item.querySelector(".seat-state");
      if (state) state.textContent = hasChosen ? state.dataset.chosenText : acting ? state.dataset.turnText : "";
      if (acting && !hasChosen && seat !== this.seat) names.push((this.config.seats || {})[String(seat)] || String(seat + 1));
    }
    const banner = $("turn-banner");
    const mine = this.seat !== null && this.seat !== undefined && toAct.includes(this.seat) && !chosen.includes(this.seat);
    banner.classList.toggle("mine", mine);
    if (mine && this.wasMyTurn === false) this.sound.play();
    this.wasMyTurn = mine;
    if (mine) {
      banner.textContent = this.texts.choose;
      document.title = `▶ ${this.texts.your_turn} · ${this.baseTitle}`;
    } else {
      const key = this.seat !== null && chosen.includes(this.seat) ? "chosen_waiting" : "waiting_for";
      banner.textContent = format(this.texts[key] || "", { names: names.join(", ") });
      document.title = this.baseTitle;
    }
  }
}

// Time left as a clock shows it: 4:05, 1:02:03, or days and hours / hours and minutes when long.
function clockText(ms, texts) {
  let seconds = Math.floor(ms / 1000);
  const days = Math.floor(seconds / 86400);
  seconds -= days * 86400;
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  const two = (n) => String(n).padStart(2, "0");
  if (days) return format(texts.days_hours || "%(days)s d %(hours)s h", { days, hours });
  if (hours >= 2) return format(texts.hours_minutes || "%(hours)s h %(minutes)s min", { hours, minutes });
  if (hours) return `${hours}:${two(minutes)}:${two(seconds)}`;
  return `${minutes}:${two(seconds)}`;
}

// A short tone when it becomes your turn in a live game; the button mutes it (remembered in this browser).
class TurnSound {
  constructor(enabled, texts) {
    this.button = $("sound-toggle");
    this.texts = texts;
    this.context = null;
    this.enabled = enabled;
    this.muted = window.localStorage.getItem("spieltafel-sound") === "off";
    this.plays = 0;
    if (!this.button) return;
    this.show();
    this.button.addEventListener("click", () => {
      this.muted = !this.muted;
      window.localStorage.setItem("spieltafel-sound", this.muted ? "off" : "on");
      this.show();
    });
  }

  show() {
    this.button.setAttribute("aria-pressed", String(!this.muted));
    this.button.textContent = this.muted ? this.texts.sound_off : this.texts.sound_on;
  }

  play() {
    if (!this.enabled || this.muted) return;
    this.plays += 1;
    document.body.dataset.turnSounds = String(this.plays);
    try {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      this.context = this.context || new Context();
      const tone = this.context.createOscillator();
      const volume = this.context.createGain();
      tone.frequency.value = 880;
      volume.gain.setValueAtTime(0.15, this.context.currentTime);
      volume.gain.exponentialRampToValueAtTime(0.001, this.context.currentTime + 0.4);
      tone.connect(volume).connect(this.context.destination);
      tone.start();
      tone.stop(this.context.currentTime + 0.4);
    } catch (e) { /* no sound here: the banner and the title still say it */ }
  }
}

function start() {
  const open = document.getElementById("open-table");
  if (open && open.dataset.pollStatus) pollOpenTable(open);
  const finished = document.querySelector("#table-page[data-poll-rematch]");
  if (finished) pollRematch(finished);
  const config = readConfig();
  if (config && document.getElementById("board")) window.spieltafelTable = new TablePage(config);
}

start();
