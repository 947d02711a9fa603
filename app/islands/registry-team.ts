// The team workspace's island: its code loads on /team only.
export const teamIslands = {
  "team-workspace": () =>
    import("../components/team/team-workspace.tsx").then((m) => m.TeamWorkspace),
};
