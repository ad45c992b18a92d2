// Replay and history pages: stepping without reloading the page (the buttons, the move list, the views,
// the slider and the arrow keys fetch the step's page and swap its content in, keeping the scroll
// position and the browser's history), and autoplay at a chosen speed. Game-agnostic and optional: every
// control is a plain link or form that works without this module.
import { pageSwapper } from "./pageswap.js";

const main = document.getElementById("main");
const keys = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
let playing = false;
let speed = 1000;
let timer = null;

const go = pageSwapper({ replay: true }, (next) => {
  const content = next.getElementById("main");
  if (!content) return false;
  const x = window.scrollX;
  const y = window.scrollY;
  const nodes = Array.from(content.childNodes); // a copy: adopting a node takes it out of the live list
  main.replaceChildren(...nodes.map((node) => document.adoptNode(node)));
  document.title = next.title;
  window.scrollTo(x, y);
  setUp();
  return true;
});

function link(name) {
  const found = main.querySelector(`a[data-replay="${name}"]`);
  return found instanceof HTMLAnchorElement ? found : null;
}

function schedule() {
  if (timer) window.clearTimeout(timer);
  timer = null;
  if (!playing) return;
  timer = window.setTimeout(async () => {
    const forward = link("forward");
    if (!forward) {
      playing = false;
      setUp();
      return;
    }
    await go(forward.href);
  }, speed);
}

function setUp() {
  const slider = main.querySelector("form[data-replay-slider] input[type=range]");
  const output = main.querySelector("[data-replay-output]");
  if (slider) {
    slider.addEventListener("input", () => {
      if (output) output.textContent = slider.value;
      slider.setAttribute("aria-valuetext", `${slider.value} / ${slider.max}`);
    });
  }
  const box = main.querySelector("[data-autoplay]");
  if (box) {
    box.hidden = false;
    const toggle = box.querySelector("[data-autoplay-toggle]");
    const select = box.querySelector("[data-autoplay-speed]");
    if (select) select.value = String(speed);
    if (!link("forward")) playing = false;
    if (toggle) {
      toggle.setAttribute("aria-pressed", String(playing));
      toggle.textContent = playing ? toggle.dataset.pause : toggle.dataset.play;
    }
  }
  // keep the current move in sight in a long move list, without moving the page
  const current = main.querySelector(".move-list [aria-current=step]");
  const list = current && current.closest(".move-list");
  if (current && list && list.scrollHeight > list.clientHeight) {
    list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
  }
  schedule();
}

if (main && main.querySelector(".replay-stepper")) {
  main.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    if (target.closest("[data-autoplay-toggle]")) {
      playing = !playing;
      setUp();
      return;
    }
    const anchor = target.closest("a[data-replay], .move-list a, a[data-view]");
    if (anchor instanceof HTMLAnchorElement && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      event.preventDefault();
      playing = false;
      go(anchor.href);
    }
  });
  main.addEventListener("change", (event) => {
    const target = event.target;
    if (target instanceof HTMLSelectElement && target.matches("[data-autoplay-speed]")) {
      speed = Number(target.value) || 1000;
      schedule();
    } else if (target instanceof HTMLInputElement && target.form && target.form.matches("[data-replay-slider]")) {
      const url = new URL(target.form.action, window.location.href);
      url.search = new URLSearchParams(new FormData(target.form)).toString();
      playing = false;
      go(url.href);
    }
  });
  main.addEventListener("submit", (event) => {
    const form = event.target;
    if (form instanceof HTMLFormElement && form.matches("[data-replay-slider]")) {
      event.preventDefault();
      const url = new URL(form.action, window.location.href);
      url.search = new URLSearchParams(new FormData(form)).toString();
      go(url.href);
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target;
    if (target instanceof HTMLElement && target.closest("input, select, textarea, button, [contenteditable]")) return;
    const name = keys[event.key];
    const found = name ? link(name) : null;
    if (found) {
      event.preventDefault();
      playing = false;
      go(found.href);
    }
  });
  window.addEventListener("popstate", () => go(window.location.href, false));
  setUp();
}
