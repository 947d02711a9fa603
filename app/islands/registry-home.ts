// Islands of the home pages. Each entry: "name": () => import("…").then((m) => m.Component).
export const homeIslands = {};
