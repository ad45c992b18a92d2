// "Play now" (quick play, issue 28): asks POST /api/quickplay, polls GET /api/quickplay every second while
// waiting (a poll also lets the matcher seat the person with bots once their wait is over), shows who else
// waits and for how long, cancels with DELETE, and opens the table once seated. The choices are remembered
// in localStorage ("spieltafel.quickplay"): game (on the lobby), player count, pace, rated, bots and wait.
const KEY = "spieltafel.quickplay";
const section = document.getElementById("quickplay");
if (section) {
  const form = section.querySelector("[data-quickplay]");
  const wait = section.querySelector(".quickplay-wait");
  const waited = section.querySelector(".quickplay-waited");
  const others = section.querySelector(".quickplay-others");
  const problem = section.querySelector(".quickplay-error");
  const fixed = section.dataset.fixed;
  const t = (name, values) => section.dataset[name].replace(/\{(\w)\}/g, (_, k) => String(values[k]));
  let timer = null;

  const remembered = JSON.parse(localStorage.getItem(KEY) || "{}");
  for (const name of ["game", "players", "pace", "bot", "after"]) {
    if (name === "game" && fixed) continue;
    if (remembered[name] !== undefined && form.elements[name]) form.elements[name].value = String(remembered[name]);
  }
  if (remembered.rated !== undefined) form.elements.rated.checked = Boolean(remembered.rated);

  const choices = () => ({
    game: fixed || form.elements.game.value, players: form.elements.players.value, pace: form.elements.pace.value,
    rated: form.elements.rated.checked, bot: form.elements.bot.value, after: Number(form.elements.after.value || 0),
  });
  const call = async (method, body) => {
    const response = await fetch("/api/quickplay", {
      method, credentials: "same-origin",
      headers: { Accept: "application/json", ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = response.status === 204 ? null : await response.json();
    if (!response.ok) throw new Error((data && data.detail && (data.detail.message || JSON.stringify(data.detail))) || response.status);
    return data;
  };
  const fail = (error) => { problem.textContent = t("tError", { r: error.message }); problem.hidden = false; };
  const show = (state) => {
    if (state.state === "seated") {
      clearInterval(timer);
      window.location.assign(`/tables/${state.table_id}`);
      return;
    }
    form.hidden = true;
    wait.hidden = false;
    waited.textContent = t("tWaited", { s: state.waited_s });
    others.replaceChildren(...state.waiting.map((w) => {
      const item = document.createElement("li");
      item.textContent = `${w.name} · ${w.players ?? section.dataset.tAny} · ${t("tSeconds", { s: w.waited_s })}`;
      return item;
    }));
  };
  const poll = async () => {
    try { show(await call("GET")); } catch (error) { clearInterval(timer); fail(error); }
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.hidden = true;
    const chosen = choices();
    localStorage.setItem(KEY, JSON.stringify(fixed ? { ...chosen, game: remembered.game } : chosen));
    const body = { game: chosen.game, players: chosen.players ? Number(chosen.players) : null, pace: chosen.pace,
                   rated: chosen.rated, bots: chosen.bot ? { level: chosen.bot, after: chosen.after } : null };
    try {
      show(await call("POST", body));
      clearInterval(timer);
      timer = setInterval(poll, 1000);
    } catch (error) { fail(error); }
  });
  section.querySelector("[data-quickplay-cancel]").addEventListener("click", async () => {
    clearInterval(timer);
    try { await call("DELETE"); } catch (error) { fail(error); }
    wait.hidden = true;
    form.hidden = false;
  });
  const limit = () => {  // the player counts of the chosen game
    const option = form.elements.game.selectedOptions[0];
    for (const choice of form.elements.players.options) {
      choice.hidden = choice.value !== "" && (Number(choice.value) < Number(option.dataset.min) || Number(choice.value) > Number(option.dataset.max));
    }
    if (form.elements.players.selectedOptions[0].hidden) form.elements.players.value = "";
  };
  form.elements.game.addEventListener("change", limit);
  limit();
  call("GET").then((state) => {  // a request still waiting from before (a seated one is not shown again)
    if (state.state === "waiting") { show(state); timer = setInterval(poll, 1000); }
  }).catch(() => {});
}
