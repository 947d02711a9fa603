// Islands of the products pages. Each entry: "name": () => import("…").then((m) => m.Component).
export const productIslands = {};
