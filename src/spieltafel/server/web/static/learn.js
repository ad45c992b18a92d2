// The interactive tutorial (/learn/GAME, issue 27): game-agnostic, no build step, nothing stored on the server.
// The board is the game's own SVG (the same targets as the table page: data-action="<i>" is one move,
// data-actions="<i> <j>" opens a chooser). A move is sent as GET /learn/GAME/step?n=<step>&move=<i>; the answer
// is the next step (text, board, highlighted moves) or the step's hint. The step is kept in the address
// (?step=N), so a reload or a change of language stays on it.
import { Chooser, numbers } from "./chooser.js";

const $ = (id) => document.getElementById(id);

class Lesson {
  constructor(config) {
    this.game = config.game;
    this.texts = config.texts || {};
    this.board = $("board");
    this.busy = false;
    this.chooser = new Chooser((_kind, action) => this.send(action));
    this.show(config.payload, false);
    this.bind();
  }

  show(step, drawn = true) {
    this.step = step;
    this.legal = new Map((step.legal || []).map((item) => [Number(item.action), item.label]));
    if (drawn) {
      this.board.innerHTML = step.board || "";
      $("learn-text").textContent = step.text;
      const list = $("learn-events");
      list.replaceChildren();
      (step.texts || []).forEach((text, index, all) => {
        const li = document.createElement("li");
        li.textContent = text;
        if (index === all.length - 1) li.className = "latest";
        list.append(li);
      });
    }
    const counter = (this.texts.step || "").replace("%(step)d", String(step.step + 1)).replace("%(steps)d", String(step.steps));
    $("learn-counter").textContent = counter;
    $("learn-progress").value = step.step + 1;
    $("learn-next").hidden = step.asks;
    $("learn-hint").hidden = true;
    this.chooser.close();
    document.body.dataset.step = String(step.step);
    document.body.dataset.made = String(step.made || 0);
    this.highlight(step.highlight || []);
    this.remember(step.step);
  }

  // The targets that carry this step's move: marked, described by the step's text, focused first.
  highlight(actions) {
    const wanted = new Set(actions.map(Number));
    let first = null;
    for (const node of this.board.querySelectorAll("[data-action], [data-actions]")) {
      const own = node.hasAttribute("data-action") ? [Number(node.dataset.action)] : numbers(node, "data-actions");
      if (own.some((a) => wanted.has(a))) {
        node.classList.add("learn-target");
        node.setAttribute("aria-describedby", "learn-text");
        this.ring(node);
        first = first || node;
      }
    }
    this.focusTarget = first;
  }

  // A ring drawn around the target in the board's own coordinates: every game's targets look different, the
  // ring is the same (hidden from screen readers, lets clicks through).
  ring(node) {
    const svg = node.ownerSVGElement;
    if (!svg || !node.getBBox) return;
    let box;
    let matrix;
    try {
      box = node.getBBox();
      matrix = svg.getScreenCTM().inverse().multiply(node.getScreenCTM());
    } catch (e) { return; }
    const corners = [[box.x, box.y], [box.x + box.width, box.y], [box.x, box.y + box.height],
      [box.x + box.width, box.y + box.height]].map(([x, y]) => [matrix.a * x + matrix.c * y + matrix.e,
      matrix.b * x + matrix.d * y + matrix.f]);
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    const pad = 5;
    const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    const values = { x: Math.min(...xs) - pad, y: Math.min(...ys) - pad, rx: 8,
      width: Math.max(...xs) - Math.min(...xs) + 2 * pad, height: Math.max(...ys) - Math.min(...ys) + 2 * pad };
    for (const [name, value] of Object.entries(values)) rect.setAttribute(name, String(Math.round(value * 10) / 10));
    rect.setAttribute("class", "learn-ring");
    rect.setAttribute("aria-hidden", "true");
    rect.setAttribute("pointer-events", "none");
    svg.append(rect);
  }

  remember(number) {
    const address = number ? `${window.location.pathname}?step=${number + 1}` : window.location.pathname;
    try { window.history.replaceState(null, "", address); } catch (e) { /* the address stays */ }
    const next = document.querySelector(".language-switch input[name=next]");
    if (next) next.value = address;
  }

  bind() {
    const activate = (event) => {
      const target = event.target.closest("[data-action], [data-actions]");
      if (!target || !this.board.contains(target)) return;
      event.preventDefault();
      this.choose(target);
    };
    this.board.addEventListener("click", activate);
    this.board.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " " || event.key === "Spacebar") activate(event);
    });
    $("learn-next").addEventListener("click", () => this.send("next"));
  }

  choose(target) {
    if (this.busy) return;
    if (target.hasAttribute("data-action")) { this.send(Number(target.dataset.action)); return; }
    const actions = numbers(target, "data-actions").filter((a) => this.legal.has(a));
    if (actions.length === 1) { this.send(actions[0]); return; }
    this.chooser.open(actions.map((a) => ["choice", a, this.legal.get(a) || String(a)]), target);
  }

  async send(move) {
    if (this.busy) return;
    this.busy = true;
    this.chooser.close();
    try {
      const url = `/learn/${encodeURIComponent(this.game)}/step?n=${this.step.step}&made=${this.step.made || 0}`
        + `&move=${encodeURIComponent(String(move))}`;
      const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      const answer = await response.json();
      if (!response.ok) { this.hint(answer.error || this.texts.failed); return; }
      if (!answer.right) { this.hint(answer.hint); return; }
      $("learn-praise").textContent = this.texts.right || "";
      if (answer.done) { this.finish(); return; }
      this.show(answer.next);
      const focus = this.focusTarget || (answer.next.asks ? null : $("learn-next"));
      if (focus) focus.focus();
    } catch (e) {
      this.hint(this.texts.failed);
    } finally {
      this.busy = false;
    }
  }

  hint(text) {
    $("learn-praise").textContent = "";
    const node = $("learn-hint");
    node.textContent = text || "";
    node.hidden = !text;
    document.body.dataset.hints = String(Number(document.body.dataset.hints || 0) + 1);
  }

  finish() {
    $("learn-next").hidden = true;
    $("learn-hint").hidden = true;
    for (const node of this.board.querySelectorAll("[data-action], [data-actions]")) {
      node.removeAttribute("tabindex");
      node.classList.remove("target", "learn-target");
    }
    $("learn-done").hidden = false;
    document.body.dataset.done = "true";
    $("learn-play").focus();
  }
}

const node = $("learn-config");
if (node) {
  try { window.spieltafelLesson = new Lesson(JSON.parse(node.textContent)); } catch (e) { /* the page stays readable */ }
}
