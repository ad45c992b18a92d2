// "Your turn" kept current while a page stays open (issue 14): the header's count of the games waiting for
// you and, outside a table page (whose title shows its own turn), the count in the tab title. The count is
// asked from /api/waiting every 30 seconds while the tab is visible, and at once when it becomes visible.
const slot = document.getElementById("your-turn-slot");
const EVERY_MS = 30000;

function countText(count) {
  const rule = new Intl.PluralRules(document.documentElement.lang || "en").select(count);
  const text = rule === "one" ? slot.dataset.one : slot.dataset.other;
  return text.replace(/\d+/, String(count));
}

function showCount(count) {
  let link = slot.querySelector(".your-turn-count");
  if (count > 0) {
    if (!link) {
      link = document.createElement("a");
      link.className = "your-turn-count";
      link.href = "/#waiting";
      slot.appendChild(link);
    }
    link.textContent = countText(count);
    link.setAttribute("aria-label", link.textContent);  // below 1400 px only the number shows (site.css)
    link.title = link.textContent;
    link.dataset.count = String(count);
  } else if (link) {
    link.remove();
  }
  slot.dataset.count = String(count);
  if (!document.getElementById("table-config")) {
    const base = document.title.replace(/^\(\d+\) /, "");
    document.title = count > 0 ? `(${count}) ${base}` : base;
  }
}

async function refresh() {
  if (document.visibilityState !== "visible") return;
  try {
    const answer = await fetch("/api/waiting", { headers: { Accept: "application/json" } });
    if (answer.ok) showCount((await answer.json()).length);
  } catch (e) { /* offline for a moment: the next refresh tries again */ }
}

if (slot) {
  setInterval(refresh, EVERY_MS);
  document.addEventListener("visibilitychange", refresh);
}
