// Building the page from data, safely: text is always set as text, never parsed as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

function apply(el, props) {
  for (const [name, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    else if (name === "text") el.textContent = value;
    else if (name === "on") for (const [event, handler] of Object.entries(value)) el.addEventListener(event, handler);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (name in el && typeof value !== "string") el[name] = value;
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  return el;
}

/** An HTML element: h("button", {class: "key", on: {click}}, "K"). */
export function h(tag, props, ...children) {
  const el = apply(document.createElement(tag), props);
  append(el, children);
  return el;
}

/** An SVG element, same arguments as h(). */
export function s(tag, props, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") el.setAttribute("class", value);
    else if (name === "text") el.textContent = value;
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}
