// The site menu on a phone (issue 25): the header shows the site's name, the games waiting for you and a
// Menu button; the button opens and closes the links, the account and the language choice. Without this
// module (or on a wide screen) the menu is simply shown: site.css hides it only once the button works.
const header = document.getElementById("site-header");
const button = document.getElementById("menu-button");
const menu = document.getElementById("site-menu");

function setOpen(open) {
  header.classList.toggle("open", open);
  button.setAttribute("aria-expanded", open ? "true" : "false");
}

if (header && button && menu) {
  header.classList.add("has-menu");
  button.addEventListener("click", () => setOpen(!header.classList.contains("open")));
  header.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && header.classList.contains("open")) {
      setOpen(false);
      button.focus();
    }
  });
}
