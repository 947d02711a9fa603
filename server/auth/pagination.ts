// GoTrue's pagination of the admin API's listings (api/pagination.go): `page` and `per_page`
// read as unsigned integers, and the Link and X-Total-Count headers of the answer.
import type { FastifyRequest } from "fastify";
import { AuthError, ErrorCode } from "./errors.ts";
import { queryParam } from "./request.ts";

const DEFAULT_PER_PAGE = 50;
const MAX_PER_PAGE = 1000;

const invalid = (message: string) => new AuthError(400, ErrorCode.validation_failed, message);

/** A page number or size: a non-negative integer (0 means the default), or GoTrue's 400. */
function pageParam(request: FastifyRequest, name: string, fallback: number): number {
  const text = queryParam(request, name);
  if (text === undefined || text === "") return fallback;
  const refuse = (why: string) =>
    invalid(`Bad Pagination Parameters: strconv.ParseUint: parsing "${text}": ${why}`);
  if (!/^\d+$/.test(text)) throw refuse("invalid syntax");
  if (BigInt(text) > MAX_UINT64) throw refuse("value out of range");
  // Any page past the last is as empty as this one, and keeps the offset a number SQL takes.
  return Math.min(Number(text), MAX_PAGE) || fallback;
}

const MAX_UINT64 = 2n ** 64n - 1n;
const MAX_PAGE = 2 ** 31;

/** The page a listing asks for: its number (from 1) and size (at most MAX_PER_PAGE). */
export function readPage(request: FastifyRequest): { page: number; perPage: number } {
  const page = pageParam(request, "page", 1);
  const perPage = Math.min(pageParam(request, "per_page", DEFAULT_PER_PAGE), MAX_PER_PAGE);
  return { page, perPage };
}

/**
 * GoTrue's Link header: the next page (when there is one) and the last, each this request's URL
 * with its parameters sorted by name and the page replaced.
 */
export function paginationLinks(
  request: FastifyRequest,
  page: number,
  perPage: number,
  total: number,
): string {
  const lastPage = Math.ceil(total / perPage);
  const url = new URL(request.url, "http://localhost");
  const at = (n: number) => {
    url.searchParams.set("page", String(n));
    url.searchParams.sort();
    return `<${url.pathname}?${url.searchParams.toString()}>`;
  };
  const next = lastPage > page ? `${at(page + 1)}; rel="next", ` : "";
  return `${next}${at(lastPage)}; rel="last"`;
}
