// Islands of the content pages (FAQ, blog, company, contact, docs…). Each entry:
// "name": () => import("…").then((m) => m.Component).
export const pageIslands = {
  "faq-highlight": () =>
    import("../components/pages/faq-highlight.tsx").then((m) => m.FaqHighlight),
};
