// Replay and history pages: the slider jumps to its step when let go, and the arrow keys step.
// Game-agnostic and optional: every control is a plain link or form that works without this module.

const form = document.querySelector("form[data-replay-slider]");
if (form) {
  const slider = form.querySelector("input[type=range]");
  const output = form.querySelector("[data-replay-output]");
  if (slider) {
    slider.addEventListener("input", () => {
      if (output) output.textContent = slider.value;
      slider.setAttribute("aria-valuetext", `${slider.value} / ${slider.max}`);
    });
    slider.addEventListener("change", () => form.requestSubmit());
  }
}

const keys = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, select, textarea, button, [contenteditable]")) return;
  const name = keys[event.key];
  if (!name) return;
  const link = document.querySelector(`a[data-replay="${name}"]`);
  if (link instanceof HTMLAnchorElement) {
    event.preventDefault();
    window.location.assign(link.href);
  }
});

// Keep the current move in sight in a long move list.
const current = document.querySelector(".move-list [aria-current=step]");
if (current) current.scrollIntoView({ block: "nearest" });
