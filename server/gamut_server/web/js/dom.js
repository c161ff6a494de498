// Building the page. Text from others (names, chat, messages) only ever becomes a
// text node, never markup: el() appends strings with document.createTextNode.

const SVG_NS = "http://www.w3.org/2000/svg";

/** An HTML element with properties (class, attributes, on* handlers) and children. */
export function el(tag, props = {}, ...children) {
  return fill(document.createElement(tag), props, children);
}

/** An SVG element with attributes and children. */
export function svg(tag, props = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), props, children);
}

function fill(node, props, children) {
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.setAttribute("class", value);
    else if (key in node && !(node instanceof SVGElement)) node[key] = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

/** Append children: nodes as they are, strings and numbers as text, arrays flattened. */
export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace every child of ``node``. */
export function replace(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

/** A labelled form field. */
export function field(label, input) {
  return el("label", { class: "field" }, el("span", {}, label), input);
}

/** A <select> of [value, label] pairs. */
export function select(props, choices, chosen) {
  const options = choices.map(([value, label]) =>
    el("option", { value: String(value), selected: String(value) === String(chosen) }, label),
  );
  return el("select", props, options);
}
