// The analysis page: a chart point, a marked move or a decision button fetches that step's page and swaps
// only the replay beside the chart in (no reload, the charts and the scroll position stay; the address and
// the browser's history follow). Optional: every one of them is a plain link that works without this module.

import { pageSwapper } from "./pageswap.js";

const layout = document.querySelector(".analysis-layout");

const go = pageSwapper({ analysis: true }, (next) => {
  const replay = next.getElementById("analysis-replay");
  const current = document.getElementById("analysis-replay");
  if (!replay || !current) return false;
  current.replaceWith(document.adoptNode(replay));
  const step = replay.dataset.step;
  const seat = replay.dataset.seat;
  for (const point of document.querySelectorAll(".analysis-point")) {
    const link = point.closest("a");
    const chart = point.closest("svg");
    const here = link && chart && link.dataset.analysisStep === step && chart.dataset.seat === seat;
    point.classList.toggle("current", Boolean(here));
  }
  // one column (a phone): the replay is below the marks; bring it into sight
  const box = replay.getBoundingClientRect();
  if (box.top < 0 || box.top > window.innerHeight * 0.6) replay.scrollIntoView({ block: "start" });
  return true;
});

if (layout) {
  layout.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const anchor = target && target.closest("a[data-analysis-step]");
    if (!anchor || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    const href = anchor.getAttribute("href") || anchor.getAttribute("xlink:href");
    if (href) go(new URL(href, window.location.href).href);
  });
  window.addEventListener("popstate", () => go(window.location.href, false));
}
