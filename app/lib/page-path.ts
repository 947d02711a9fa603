// The path of the page being rendered, as the site names its pages. Prerendering asks for a page
// at `/faq/` (its HTML) and at `/faq.data` (its loader data); both mean `/faq`.
export function pagePath(pathname: string): string {
  const bare = pathname.replace(/\/?_?\.data$/, "").replace(/\/+$/, "");
  return bare === "" ? "/" : bare;
}
