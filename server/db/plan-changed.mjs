// @ts-check

/**
 * PostgreSQL's answer when a prepared statement's result columns changed since it was prepared
 * (a migration altered a table it reads): the statement has to be prepared again.
 * @param {unknown} err
 * @returns {boolean}
 */
export const isPlanChanged = (err) =>
  err instanceof Error &&
  /** @type {{ code?: unknown }} */ (err).code === "0A000" &&
  err.message.startsWith("cached plan must not change result type");
