// The rules help: a game's rules summary (GET /api/games/{game}/rules) in a modal <dialog>.
//
//   import { showRules } from "/static/js/rules.js";
//   button.addEventListener("click", () => showRules("amarok", "it"));
//
// The server sends the summary as HTML made of h1 h2 h3 p ul li strong em only, every text
// escaped; this module copies just those elements (no attribute, no other node) into the
// dialog all the same, so nothing else can reach the page. Escape, the close button or a
// click on the backdrop closes it; focus returns to what had it.

import { api, h, toast } from "./common.js";

export const ALLOWED_TAGS = new Set(["H1", "H2", "H3", "P", "UL", "LI", "STRONG", "EM"]);

// The close button's label is the shell's message nemeton.web.rules.close (from
// /static/js/i18n.js, in the page's language); where that module or message is missing, a word
// in the summary's own language.
const CLOSE = { en: "Close", it: "Chiudi", es: "Cerrar" };
const CLOSE_ID = "nemeton.web.rules.close";

async function shellI18n() {
  try {
    return await import("/static/js/i18n.js");
  } catch (err) {
    return null;  // no i18n module: the words below
  }
}

function closeLabel(i18n, lang) {
  if (i18n && typeof i18n.t === "function") {
    const known = typeof i18n.has === "function" ? i18n.has(CLOSE_ID) : true;
    const text = known ? i18n.t(CLOSE_ID) : null;
    if (typeof text === "string" && text && text !== CLOSE_ID) return text;
  }
  return CLOSE[lang] || CLOSE.en;
}

// The allowed elements of an HTML string, rebuilt without attributes (text stays text).
export function safeNodes(html) {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
  const copy = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return document.createTextNode(node.textContent);
    if (node.nodeType !== Node.ELEMENT_NODE) return null;
    const children = [...node.childNodes].map(copy).filter(Boolean);
    if (!ALLOWED_TAGS.has(node.tagName)) {
      const frag = document.createDocumentFragment();  // an unexpected element: keep its text only
      frag.append(...children);
      return frag;
    }
    const el = document.createElement(node.tagName.toLowerCase());
    el.append(...children);
    return el;
  };
  return [...doc.body.childNodes].map(copy).filter(Boolean);
}

let open = null;  // the dialog on screen, if any (one at a time)

/** Fetch `game`'s rules summary in `lang` (default: the page's language, else the browser's
 *  Accept-Language) and show it in a modal dialog. Resolves to the dialog element, or null
 *  when the summary could not be had (a toast says why). */
export async function showRules(game, lang) {
  const i18n = await shellI18n();
  if (!lang && i18n && typeof i18n.language === "function") lang = i18n.language();
  const query = lang ? `?lang=${encodeURIComponent(lang)}` : "";
  let data;
  try {
    data = await api("GET", `/api/games/${encodeURIComponent(game)}/rules${query}`);
  } catch (err) {
    toast(err.message || String(err), "error");
    return null;
  }
  if (open) open.close();
  const returnFocus = document.activeElement;
  const label = closeLabel(i18n, data.lang || lang);
  const body = h("div", { class: "rules-body" }, safeNodes(String(data.html || "")));
  const title = body.querySelector("h1");
  const titleId = `rules-title-${Math.random().toString(36).slice(2, 10)}`;
  if (title) { title.id = titleId; title.style.marginRight = "48px"; }
  const close = h("button", {
    type: "button", class: "rules-close", "aria-label": label, title: label,
    style: "font-size: 20px; line-height: 1; min-width: 36px;",
  }, "×");
  // the close button stays in the dialog's top right corner while the summary scrolls
  const bar = h("div", { style: "position: sticky; top: 0; height: 0; display: flex; justify-content: flex-end;" }, close);
  const dialog = h("dialog", {
    class: "overlay-card wide rules-dialog", lang: data.lang || lang || null,
    "aria-labelledby": title ? titleId : null, "aria-label": title ? null : String(game),
    style: "border: none; color: var(--ink, #1f1d1a); box-shadow: 0 8px 40px rgba(0, 0, 0, .35);",
  }, bar, body);
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (e) => {  // a click on the backdrop (outside the dialog's box)
    if (e.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) dialog.close();
  });
  dialog.addEventListener("close", () => {
    dialog.remove();
    if (open === dialog) open = null;
    if (returnFocus && typeof returnFocus.focus === "function") returnFocus.focus();
  });
  document.body.append(dialog);
  open = dialog;
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
  close.focus();
  return dialog;
}
