// The DOM helpers every view uses, so that building a node is one call and text never goes through
// innerHTML (it is always data from the collector or the user).

/**
 * Builds an element: el('p', {className: 'x', 'aria-label': 'y'}, 'text', child…). A property the element
 * has (className, htmlFor, href, colSpan…) is set as a property, anything else (aria-*, role, data-*) as an
 * attribute; null, undefined and false props and children are left out.
 */
export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props || {})) {
    if (value == null || value === false) continue;
    if (name in node && !name.startsWith('aria') && name !== 'role') node[name] = value;
    else node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children.filter((c) => c != null && c !== false));
  return node;
}

/** An element holding one text, with an optional class: text('td', '12', 'num'). */
export const text = (tag, value, className) => el(tag, {className: className || null}, value == null ? '' : String(value));

/** Replaces the text of an existing element and, when given, its whole class list. */
export function setText(node, value, className) {
  node.textContent = value;
  if (className != null) node.className = className;
}

/** The element with this id (the static skeleton of index.html). */
export const byId = (id) => document.getElementById(id);

/**
 * A User Timing measure (DevTools' performance panel, and the dashboard benches) of `duration` ms ending now; one of
 * each name is kept, so a page left open does not collect them.
 */
export function measure(name, duration) {
  performance.clearMeasures(name);
  performance.measure(name, {end: performance.now(), duration});
}
