// The backup file of an embedded database: what `npm run backup` writes and `npm run restore`
// reads. It says what it is in its first line, carries its length and a SHA-256 of it in the
// second, and its body is the data folder's folders and files, gzipped. So a file cut short, a
// damaged one or another kind of file is refused by reading it, before anything is restored.
//
//   REVWISE BACKUP 1\n                        the format's name and version
//   {"made":…,"bytes":N,"sha256":…,…}\n       the header: when, from what, the body's length, and
//                                             a SHA-256 of the header's other fields and the body
//   N bytes                                   gzip of: a JSON line listing the entries, then their bytes
import crypto from "node:crypto";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { SnapshotEntry } from "../pglite-messages.ts";

const gunzip = promisify(zlib.gunzip);

const NAME = "REVWISE BACKUP ";
export const FORMAT = 1;

/** Where the copy came from: a server that kept serving, or a data folder no server used. */
export type BackupHeader = {
  made: string;
  source: "running server" | "stopped data folder";
  /** The PGlite release that made it, and the PostgreSQL major version of its files. */
  pglite: string;
  postgres: string;
};

/**
 * A backup or restore refused for a reason the operator can act on (a file that is not a whole
 * backup, a folder that is not empty, a server that cannot be asked): its message is one line
 * that says all of it.
 */
export class BackupRefused extends Error {}

type Listed = { name: string; mode: number; size?: number };

/** An entry name is relative, plain and under the data folder: never "..", absolute, or odd. */
function safeName(name: unknown): name is string {
  if (typeof name !== "string" || name === "" || name.includes("\0") || name.includes("\\"))
    return false;
  if (path.posix.isAbsolute(name) || path.posix.normalize(name) !== name) return false;
  return !name.split("/").some((part) => part === "" || part === ".." || part === ".");
}

/** The checksum covers the header's own fields as well as the body. */
const digest = (h: BackupHeader, body: Buffer) =>
  crypto
    .createHash("sha256")
    .update(`${JSON.stringify([h.made, h.source, h.pglite, h.postgres])}\n`)
    .update(body)
    .digest("hex");

export async function encodeBackup(
  header: BackupHeader,
  entries: readonly SnapshotEntry[],
): Promise<Buffer> {
  const listed: Listed[] = entries.map((e) =>
    e.data
      ? { name: e.name, mode: e.mode, size: e.data.byteLength }
      : { name: e.name, mode: e.mode },
  );
  // Compressed piece by piece on libuv's threads: the server's event loop never copies or
  // compresses the whole folder at once.
  const body = await buffer(
    Readable.from(
      (function* () {
        yield Buffer.from(`${JSON.stringify(listed)}\n`);
        for (const e of entries) if (e.data?.byteLength) yield e.data;
      })(),
    ).pipe(zlib.createGzip()),
  );
  const sha256 = digest(header, body);
  const head = `${NAME}${FORMAT}\n${JSON.stringify({ ...header, bytes: body.length, sha256 })}\n`;
  return Buffer.concat([Buffer.from(head), body]);
}

/** The header and entries of a backup file's bytes, or a BackupRefused saying what is wrong. */
export async function decodeBackup(
  file: Buffer,
  label: string,
): Promise<{ header: BackupHeader; entries: SnapshotEntry[] }> {
  const refuse = (why: string) => new BackupRefused(`${label} ${why}`);
  if (file.length === 0) throw refuse("is empty: it is not a Revwise backup");
  const start = file.subarray(0, NAME.length).toString("latin1");
  if (start !== NAME.slice(0, start.length))
    throw refuse(`is not a Revwise backup (it does not start with "${NAME.trim()}")`);
  const firstEnd = file.indexOf(0x0a);
  const secondEnd = firstEnd < 0 ? -1 : file.indexOf(0x0a, firstEnd + 1);
  if (start.length < NAME.length || secondEnd < 0)
    throw refuse("is cut short: it ends within its header");
  const format = file.subarray(NAME.length, firstEnd).toString("latin1");
  if (format !== String(FORMAT))
    throw refuse(
      `is a Revwise backup of format ${JSON.stringify(format)}; this release reads format ${FORMAT}`,
    );

  let header: BackupHeader & { bytes: number; sha256: string };
  try {
    header = JSON.parse(file.subarray(firstEnd + 1, secondEnd).toString("utf8")) as typeof header;
  } catch {
    throw refuse("is damaged: its header is not readable");
  }
  if (!Number.isSafeInteger(header?.bytes) || typeof header.sha256 !== "string")
    throw refuse("is damaged: its header does not give its length and checksum");

  const body = file.subarray(secondEnd + 1);
  if (body.length < header.bytes)
    throw refuse(`is cut short: it holds ${body.length} of its ${header.bytes} bytes of data`);
  if (body.length > header.bytes)
    throw refuse(`is damaged: ${body.length - header.bytes} bytes follow its end`);
  if (digest(header, body) !== header.sha256)
    throw refuse("is damaged: its checksum does not match its contents");

  const { made, source, pglite, postgres } = header;
  return {
    header: { made, source, pglite, postgres },
    entries: readEntries(await gunzip(body), refuse),
  };
}

/** The entries of a body whose checksum matched: a list that does not add up is refused too. */
function readEntries(raw: Buffer, refuse: (why: string) => BackupRefused): SnapshotEntry[] {
  const listEnd = raw.indexOf(0x0a);
  let listed: Listed[];
  try {
    listed = JSON.parse(raw.subarray(0, listEnd).toString("utf8")) as Listed[];
  } catch {
    throw refuse("is damaged: its list of files is not readable");
  }
  if (!Array.isArray(listed)) throw refuse("is damaged: its list of files is not a list");
  const entries: SnapshotEntry[] = [];
  let offset = listEnd + 1;
  for (const e of listed) {
    if (!safeName(e?.name) || !Number.isInteger(e.mode) || e.mode < 0 || e.mode > 0o777)
      throw refuse(`holds an entry that cannot be restored: ${JSON.stringify(e?.name)}`);
    if (e.size === undefined) {
      entries.push({ name: e.name, mode: e.mode });
      continue;
    }
    if (!Number.isSafeInteger(e.size) || e.size < 0 || offset + e.size > raw.length)
      throw refuse(`is damaged: the size of ${e.name} does not fit`);
    entries.push({ name: e.name, mode: e.mode, data: raw.subarray(offset, offset + e.size) });
    offset += e.size;
  }
  if (offset !== raw.length) throw refuse("is damaged: its files do not add up to its contents");
  return entries;
}
