// Building the page's elements: one call for an element and the properties it starts with.

/** A new `tag` element with `props` set on it (className, textContent, type, value, title...). */
export function element(tag, props = {}) {
  return Object.assign(document.createElement(tag), props);
}
