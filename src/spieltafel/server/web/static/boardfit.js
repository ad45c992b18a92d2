// Boards that fit (issue 25, docs/play.md), for every page that draws a board (.board): game-agnostic.
// On a touch screen each target (an element with data-action or data-actions) gets a transparent hit area of
// at least 44 × 44 CSS px around its drawing, sized anew when the board is drawn or its scale changes. A board
// wider than its frame (a phone: site.css gives it a playable size) scrolls inside the frame, never the page;
// when new targets arrive the frame scrolls to show as many of them as it can.
const MIN_PX = 44;
const SVG_NS = "http://www.w3.org/2000/svg";
const coarse = window.matchMedia("(pointer: coarse)");
const shown = new WeakMap();  // frame → the targets it last scrolled to

function targetsOf(svg) {
  return [...svg.querySelectorAll("[data-action], [data-actions]")];
}

function pad(svg) {
  for (const old of svg.querySelectorAll("rect.hit")) old.remove();
  if (!coarse.matches) return;
  const matrix = svg.getScreenCTM();
  const scale = matrix ? Math.hypot(matrix.a, matrix.b) : 0;
  if (!scale) return;
  const side = (MIN_PX + 1) / scale;  // in the drawing's units; one pixel spare for rounding
  for (const target of targetsOf(svg)) {
    const box = target.getBBox();
    if (box.width >= side && box.height >= side) continue;
    const width = Math.max(box.width, side);
    const height = Math.max(box.height, side);
    const rect = document.createElementNS(SVG_NS, "rect");
    rect.setAttribute("class", "hit");
    rect.setAttribute("x", String(box.x + box.width / 2 - width / 2));
    rect.setAttribute("y", String(box.y + box.height / 2 - height / 2));
    rect.setAttribute("width", String(width));
    rect.setAttribute("height", String(height));
    rect.setAttribute("aria-hidden", "true");
    target.appendChild(rect);
  }
}

// Scroll the frame (not the page) so that it shows as many whole targets as it can, centred; unless it shows
// half as many already (a move within the turn does not make the board jump).
function scrollToTargets(frame, svg) {
  const targets = targetsOf(svg);
  const key = targets.map((t) => t.dataset.action || t.dataset.actions).join("|");
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
  scrollToTargets(frame, svg);
  focusable(frame, svg);
}

function start() {
  const frames = [...document.querySelectorAll(".board")];
  if (!frames.length) return;
  const observer = new MutationObserver((changes) => {
    for (const change of changes) fit(change.target);
  });
  for (const frame of frames) {
    observer.observe(frame, { childList: true });
    fit(frame);
  }
  let pending = 0;
  const again = () => {
    window.cancelAnimationFrame(pending);
    pending = window.requestAnimationFrame(() => frames.forEach((frame) => {
      const svg = frame.querySelector("svg");
      if (svg) { pad(svg); focusable(frame, svg); }
    }));
  };
  window.addEventListener("resize", again);
  coarse.addEventListener("change", again);
}

start();
