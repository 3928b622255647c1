// Reading preact's virtual nodes in Node's tests (no DOM): the renderers and the kit return
// trees of plain element nodes ({type, props: {children, ...}}), which these walk.

export function children(node) {
  if (node === null || node === undefined || typeof node !== "object") return [];
  if (Array.isArray(node)) return node;
  const c = node.props ? node.props.children : undefined;
  return c === undefined ? [] : Array.isArray(c) ? c : [c];
}

/** Every element node under `node` (itself included), depth first, in document order. */
export function elements(node) {
  const out = [];
  const visit = (n) => {
    if (Array.isArray(n)) { n.forEach(visit); return; }
    if (n === null || n === undefined || typeof n !== "object") return;
    if (typeof n.type === "string") out.push(n);
    children(n).forEach(visit);
  };
  visit(node);
  return out;
}

/** The text a person reads under a node: the kit's own reading. */
export { textOf as text } from "../../src/nemeton/web/js/kit.js";

export function classes(node) {
  return new Set(String((node.props && node.props.class) || "").split(/\s+/).filter(Boolean));
}

export function hasClass(node, name) {
  return classes(node).has(name);
}

/** The element nodes under `node` that carry every class of `names` (space separated). */
export function byClass(node, names) {
  const want = names.split(/\s+/);
  return elements(node).filter((n) => want.every((c) => hasClass(n, c)));
}

export function attr(node, name) {
  return node.props ? node.props[name] : undefined;
}
