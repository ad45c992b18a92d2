// The lobby stays current without a reload (issue 26): every 10 seconds while the tab is visible, and at
// once when it becomes visible again, the lobby's content is fetched and swapped in when it changed (tables
// opening, filling, starting, games that wait for you). Optional: without it the page is a plain page.

const lobby = document.querySelector("[data-live-lobby]");
const EVERY_MS = 10_000;
let busy = false;

async function refresh() {
  if (!lobby || busy || document.visibilityState !== "visible") return;
  busy = true;
  try {
    const response = await fetch(window.location.pathname, { headers: { Accept: "text/html" }, credentials: "same-origin" });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.querySelector("[data-live-lobby]");
    if (!fresh || fresh.innerHTML === lobby.innerHTML) return;
    if (lobby.contains(document.activeElement) && document.activeElement !== document.body) return; // not under the keyboard's feet
    const nodes = Array.from(fresh.childNodes);
    lobby.replaceChildren(...nodes.map((node) => document.adoptNode(node)));
    lobby.dataset.refreshed = String(Number(lobby.dataset.refreshed || "0") + 1);
  } catch {
    // offline for a moment: the next round tries again
  } finally {
    busy = false;
  }
}

if (lobby) {
  window.setInterval(refresh, EVERY_MS);
  document.addEventListener("visibilitychange", refresh);
}
