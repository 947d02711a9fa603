// Islands of the pages pages. Each entry: "name": () => import("…").then((m) => m.Component).
export const pageIslands = {};
