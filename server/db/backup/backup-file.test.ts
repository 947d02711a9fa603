// The backup file's format: what is written reads back the same, and a file cut anywhere, changed
// anywhere, of another format or kind, or naming a place outside the data folder is refused with
// one line naming the file.
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import type { SnapshotEntry } from "../pglite-messages.ts";
import { BackupRefused, decodeBackup, encodeBackup, type BackupHeader } from "./backup-file.ts";

const HEADER: BackupHeader = {
  made: "2026-11-29T01:00:00.000Z",
  source: "running server",
  pglite: "0.5.16",
  postgres: "18",
};
const ENTRIES: SnapshotEntry[] = [
  { name: "jwt-secret", mode: 0o600, data: Buffer.from("secret\n") },
  { name: "pglite", mode: 0o755 },
  { name: "pglite/PG_VERSION", mode: 0o644, data: Buffer.from("18\n") },
  { name: "pglite/pg_tblspc", mode: 0o700 },
  { name: "pglite/empty", mode: 0o600, data: new Uint8Array(0) },
  { name: "pglite/base/1/1259", mode: 0o600, data: Buffer.alloc(8192, 7) },
];

async function refusal(bytes: Buffer): Promise<string> {
  const err = await decodeBackup(bytes, "FILE").then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BackupRefused);
  const message = (err as Error).message;
  expect(message).not.toContain("\n");
  return message;
}

describe("the backup file", () => {
  it("reads back what was written: header, folders, files and their modes", async () => {
    const bytes = await encodeBackup(HEADER, ENTRIES);
    expect(bytes.subarray(0, 17).toString()).toBe("REVWISE BACKUP 1\n");
    const { header, entries } = await decodeBackup(bytes, "FILE");
    expect(header).toEqual(HEADER);
    expect(entries.map((e) => ({ ...e, data: e.data && Buffer.from(e.data) }))).toEqual(
      ENTRIES.map((e) => ({ ...e, data: e.data && Buffer.from(e.data) })),
    );
  });

  it("refuses a file cut short at any length", async () => {
    const bytes = await encodeBackup(HEADER, ENTRIES);
    expect(await refusal(bytes.subarray(0, 0))).toBe("FILE is empty: it is not a Revwise backup");
    for (let length = 1; length < bytes.length; length += length < 200 ? 1 : 37)
      expect(await refusal(bytes.subarray(0, length))).toMatch(/^FILE is cut short: /);
  });

  it("refuses a file with any byte of its data changed, or bytes after its end", async () => {
    const bytes = await encodeBackup(HEADER, ENTRIES);
    const bodyStart = bytes.indexOf(0x0a, 17) + 1;
    for (let at = bodyStart; at < bytes.length; at += 13) {
      const changed = Buffer.from(bytes);
      changed[at]! ^= 0x01;
      expect(await refusal(changed)).toBe(
        "FILE is damaged: its checksum does not match its contents",
      );
    }
    expect(await refusal(Buffer.concat([bytes, Buffer.from("x")]))).toBe(
      "FILE is damaged: 1 bytes follow its end",
    );
    const header = Buffer.from(bytes);
    header[20] = 0x7b; // "{" inside the header's JSON
    expect(await refusal(header)).toBe("FILE is damaged: its checksum does not match its contents");
  });

  it("refuses other kinds of file and other formats", async () => {
    const gzipped = zlib.gzipSync(Buffer.from("a tarball, say"));
    expect(await refusal(gzipped)).toBe(
      'FILE is not a Revwise backup (it does not start with "REVWISE BACKUP")',
    );
    expect(await refusal(Buffer.from("PGDMP\u0001\u000e\u0000"))).toMatch(
      /is not a Revwise backup/,
    );
    const later = Buffer.from(
      (await encodeBackup(HEADER, ENTRIES)).toString("latin1").replace("BACKUP 1", "BACKUP 2"),
      "latin1",
    );
    expect(await refusal(later)).toBe(
      'FILE is a Revwise backup of format "2"; this release reads format 1',
    );
  });

  it("refuses an entry named outside the data folder, even with a matching checksum", async () => {
    for (const name of [
      "../etc/passwd",
      "/etc/passwd",
      "pglite/../../x",
      "pglite/./x",
      "a\\b",
      "",
      "x/",
    ]) {
      const bytes = await encodeBackup(HEADER, [{ name, mode: 0o600, data: Buffer.from("x") }]);
      expect(await refusal(bytes)).toBe(
        `FILE holds an entry that cannot be restored: ${JSON.stringify(name)}`,
      );
    }
  });
});
