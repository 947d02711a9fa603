/** Largest request body any endpoint accepts; every form fits in a fraction of it. */
export const BODY_LIMIT = 64 * 1024;
