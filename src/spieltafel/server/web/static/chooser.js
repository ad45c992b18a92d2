// The chooser of the table page (table.js) and the tutorial (learn.js): a board target that stands for several
// moves (data-actions="<i> <j>", or the table's data-gestures) opens a list of them; Tab walks its entries,
// Enter, Space or a click takes one, Cancel or Escape closes it and the focus goes back to the target.
// Its markup is the macro chooser() of templates/_macros.html (#chooser, #chooser-list, #chooser-cancel).

// The numbers of a space-separated attribute (data-actions="3 7" gives [3, 7]).
export function numbers(node, name) {
  return node.getAttribute(name).trim().split(/\s+/).map(Number);
}

// Fill a list with one button an entry: [key, value, text] gives <li><button data-key="value">text</button></li>.
export function fillButtons(list, entries) {
  list.replaceChildren();
  for (const [key, value, text] of entries) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset[key] = String(value);
    button.textContent = text;
    item.append(button);
    list.append(item);
  }
}

export class Chooser {
  // pick(kind, value): an entry was taken ("choice": an action's index, "gesture": a gesture's index);
  // cancelled(): Cancel or Escape closed it (the page's own clean-up), before the focus goes back.
  constructor(pick, cancelled = () => {}) {
    this.box = document.getElementById("chooser");
    this.list = document.getElementById("chooser-list");
    this.cancelled = cancelled;
    this.from = null;
    this.list.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-choice], button[data-gesture]");
      if (button && button.dataset.gesture !== undefined) pick("gesture", Number(button.dataset.gesture));
      else if (button) pick("choice", Number(button.dataset.choice));
    });
    document.getElementById("chooser-cancel").addEventListener("click", () => this.cancel());
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.shown) this.cancel();
    });
  }

  get shown() {
    return !this.box.hidden;
  }

  // entries: [kind, value, text]; from: the target that opened the chooser (the focus goes back there).
  open(entries, from) {
    this.from = from;
    fillButtons(this.list, entries);
    this.box.hidden = false;
    const first = this.list.querySelector("button");
    if (first) first.focus();
  }

  close() {
    this.box.hidden = true;
  }

  cancel() {
    this.close();
    this.cancelled();
    if (this.from && document.contains(this.from)) this.from.focus();
  }
}
