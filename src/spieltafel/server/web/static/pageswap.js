// Stepping without a reload (replay.js, analysis.js): fetch a page of this site and swap a part of it into
// the page shown; the browser's history follows (the page's popstate calls go(address, false)). Where the
// answer fails or lacks the part, the address is simply loaded.

// go(url, push = true): swap(next) takes what it needs from the fetched document `next` and answers true,
// or false where it is not there (then the address is loaded whole); `state` goes with the history entry.
// One fetch at a time: a go() while another runs is dropped.
export function pageSwapper(state, swap) {
  let loading = false;
  const go = async (url, push = true) => {
    if (loading) return;
    loading = true;
    try {
      const response = await fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" });
      const next = response.ok ? new DOMParser().parseFromString(await response.text(), "text/html") : null;
      if (!next || !swap(next)) {
        window.location.assign(url);
        return;
      }
      if (push) window.history.pushState(state, "", url);
    } finally {
      loading = false;
    }
  };
  return go;
}
