// Boards that fit (issue 25, docs/play.md), for every page that draws a board (.board): game-agnostic.
// On a touch screen each target (an element with data-action or data-actions) gets a transparent hit area, an
// ellipse at least 44 × 44 CSS px around its drawing, sized anew when the board is drawn or its scale changes.
// A board wider than its frame (a phone: site.css gives it a playable size) scrolls inside the frame, never the page;
// when new targets arrive the frame scrolls to show as many of them as it can.
//
// On a phone the player also chooses between two views of a board (a button above it, remembered): "whole
// board", scaled to the column's width, and "zoom in", the playable size. A tap on a whole board zooms into the
// place tapped (and plays nothing); keys are not affected. A table where the player moves opens zoomed in
// unless the player chose the whole board; a finished game, a replay or a history opens whole.
const MIN_PX = 44;
const SVG_NS = "http://www.w3.org/2000/svg";
const VIEW_KEY = "spieltafel.board-view";
const coarse = window.matchMedia("(pointer: coarse)");
const small = window.matchMedia("(pointer: coarse), (max-width: 640px)");  // site.css's playable sizes apply
const shown = new WeakMap();  // frame → the targets it last scrolled to

function targetsOf(svg) {
  return [...svg.querySelectorAll("[data-action], [data-actions], [data-gestures]")];
}

function pad(svg) {
  for (const old of svg.querySelectorAll(".hit")) old.remove();
  if (!coarse.matches) return;
  const frame = svg.closest(".board");
  if (frame && frame.classList.contains("whole") && zoomWidth(frame) > frame.clientWidth + 1) return;  // tapped to zoom in first
  const matrix = svg.getScreenCTM();
  const scale = matrix ? Math.hypot(matrix.a, matrix.b) : 0;
  if (!scale) return;
  const side = (MIN_PX + 1) / scale;  // in the drawing's units; one pixel spare for rounding
  for (const target of targetsOf(svg)) {
    const box = target.getBBox();
    if (box.width >= side && box.height >= side) continue;
    const width = Math.max(box.width, side);
    const height = Math.max(box.height, side);
    // an ellipse, not a rectangle: a neighbour drawn diagonally close (Haleakala's two rows of discs on a
    // beach that lies at 45°) stays outside it, where a square's corner would lie over its middle
    const area = document.createElementNS(SVG_NS, "ellipse");
    area.setAttribute("class", "hit");
    area.setAttribute("cx", String(box.x + box.width / 2));
    area.setAttribute("cy", String(box.y + box.height / 2));
    area.setAttribute("rx", String(width / 2));
    area.setAttribute("ry", String(height / 2));
    area.setAttribute("aria-hidden", "true");
    target.appendChild(area);
  }
}

// Scroll the frame (not the page) so that it shows as many whole targets as it can, centred; unless it shows
// half as many already (a move within the turn does not make the board jump).
function scrollToTargets(frame, svg) {
  const targets = targetsOf(svg);
  const key = targets.map((t) => t.dataset.action || t.dataset.actions || `g${t.dataset.gestures}`).join("|");
  if (!targets.length || shown.get(frame) === key) return;
  shown.set(frame, key);
  const view = frame.clientWidth;
  const room = frame.scrollWidth - view;
  if (room <= 1) return;
  const origin = frame.getBoundingClientRect().left - frame.scrollLeft;
  const spans = targets.map((t) => {
    const r = t.getBoundingClientRect();
    return [r.left - origin, r.right - origin];
  });
  const within = (start) => spans.filter(([l, r]) => l >= start && r <= start + view);
  let best = [];
  for (const [left] of spans) {
    const found = within(Math.max(0, Math.min(left - 4, room)));
    if (found.length > best.length) best = found;
  }
  if (!best.length) best = [spans[0]];
  const here = within(frame.scrollLeft).length;
  if (here && here * 2 >= best.length) return;  // half of them in view already: the board does not jump
  const lo = Math.min(...best.map((s) => s[0]));
  const hi = Math.max(...best.map((s) => s[1]));
  frame.scrollLeft = Math.max(0, Math.min((lo + hi) / 2 - view / 2, room));
}

// A frame that scrolls and holds no target takes the focus itself, so that the keyboard can scroll it too.
function focusable(frame, svg) {
  const scrolls = frame.scrollWidth > frame.clientWidth + 1;
  if (scrolls && !targetsOf(svg).length) frame.setAttribute("tabindex", "0");
  else if (frame.getAttribute("tabindex") === "0") frame.removeAttribute("tabindex");
}

function fit(frame) {
  const svg = frame.querySelector("svg");
  if (!svg) return;
  pad(svg);
  if (!frame.classList.contains("whole")) scrollToTargets(frame, svg);
  focusable(frame, svg);
  label(frame);
}

// The playable width of the frame's board (site.css's --zoom-width), 0 where none applies.
function zoomWidth(frame) {
  const svg = frame.querySelector("svg");
  return svg && small.matches ? parseFloat(getComputedStyle(svg).getPropertyValue("--zoom-width")) || 0 : 0;
}

function label(frame) {
  const button = frame.zoomButton;
  if (!button) return;
  const whole = frame.classList.contains("whole");
  button.hidden = !(zoomWidth(frame) > frame.clientWidth + 1);
  button.textContent = whole ? document.body.dataset.zoomIn : document.body.dataset.wholeBoard;
  button.setAttribute("aria-pressed", whole ? "false" : "true");
}

function setWhole(frame, whole, remember) {
  frame.classList.toggle("whole", whole);
  if (remember) {
    try { window.localStorage.setItem(VIEW_KEY, whole ? "whole" : "zoom"); } catch (_) { /* private mode */ }
  }
  const svg = frame.querySelector("svg");
  if (svg) pad(svg);
  label(frame);
}

function chosenView(frame) {
  let stored = null;
  try { stored = window.localStorage.getItem(VIEW_KEY); } catch (_) { /* private mode */ }
  if (frame.dataset.view !== "play") return "whole";
  return stored === "whole" ? "whole" : "zoom";
}

// A tap (not a key) on a whole board zooms into the place tapped instead of playing there.
function zoomOnTap(frame, event) {
  if (!frame.classList.contains("whole") || event.detail === 0) return;
  const width = zoomWidth(frame);
  if (!(width > frame.clientWidth + 1)) return;
  event.preventDefault();
  event.stopPropagation();
  const box = frame.getBoundingClientRect();
  const fx = (event.clientX - box.left) / box.width;
  const fy = (event.clientY - box.top) / box.height;
  setWhole(frame, false, true);
  const after = frame.getBoundingClientRect();
  frame.scrollLeft = Math.max(0, fx * frame.scrollWidth - frame.clientWidth / 2);
  window.scrollBy(0, after.top + fy * after.height - window.innerHeight / 2);
}

function addViewButton(frame) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "board-view";
  button.hidden = true;
  frame.zoomButton = button;
  frame.before(button);
  button.addEventListener("click", () => {
    setWhole(frame, !frame.classList.contains("whole"), true);
    if (!frame.classList.contains("whole")) {
      shown.delete(frame);
      const svg = frame.querySelector("svg");
      if (svg) scrollToTargets(frame, svg);
    }
  });
  frame.addEventListener("click", (event) => zoomOnTap(frame, event), true);
  setWhole(frame, chosenView(frame) === "whole", false);
}

function start() {
  const frames = [...document.querySelectorAll(".board:not(svg)")];  // the frames; a board's svg has the class too
  if (!frames.length) return;
  const observer = new MutationObserver((changes) => {
    for (const change of changes) fit(change.target);
  });
  for (const frame of frames) {
    observer.observe(frame, { childList: true });
    addViewButton(frame);
    fit(frame);
  }
  let pending = 0;
  const again = () => {
    window.cancelAnimationFrame(pending);
    pending = window.requestAnimationFrame(() => frames.forEach((frame) => {
      const svg = frame.querySelector("svg");
      if (svg) { pad(svg); focusable(frame, svg); }
      label(frame);
    }));
  };
  window.addEventListener("resize", again);
  coarse.addEventListener("change", again);
}

start();
