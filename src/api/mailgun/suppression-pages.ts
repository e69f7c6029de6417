// Paging of the suppression lists as Mailgun does it: `limit`, `page=first|next|previous|last`
// and the pivot `address`, answered with absolute links whose query (after the `?`) is the page
// token mailgun.js's NavigationThruPages sends back.
import type { SuppressionType } from "../../core/model.ts";
import type { SuppressionService } from "../../core/suppressions.ts";
import type { Suppression } from "../../core/store-port.ts";
import type { Form } from "./form.ts";
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "./model.ts";

export type PageName = "first" | "last" | "next" | "previous";

/** mailgun.js repeats `limit` when it follows a page link: the first value counts. */
export const limitOf = (form: Form) =>
  Math.min(Math.max(Math.trunc(Number(form.getAll("limit")[0] ?? DEFAULT_PAGE_LIMIT)) || DEFAULT_PAGE_LIMIT, 1), MAX_PAGE_LIMIT);

/** The lower-cased pivot address of a page request, if any. */
export const pivotOf = (form: Form) => form.get("address")?.trim().toLowerCase() || undefined;

/** Reads the page `form` asks for, ordered by address. */
export function createSuppressionPager(suppressions: Pick<SuppressionService, "list">) {
  /** The last `limit` entries before `before` (of all entries when undefined), in address order. */
  async function listBefore(domain: string, type: SuppressionType, before: string | undefined, limit: number) {
    return (await suppressions.list(domain, { type, before, descending: true, limit })).reverse();
  }

  return async function readPage(domain: string, type: SuppressionType, form: Form, limit: number): Promise<Suppression[]> {
    const pivot = pivotOf(form);
    switch (form.get("page")) {
      case "next": return suppressions.list(domain, { type, after: pivot, limit });
      case "previous": return pivot ? listBefore(domain, type, pivot, limit) : [];
      case "last": return listBefore(domain, type, undefined, limit);
      default: return suppressions.list(domain, { type, limit });
    }
  };
}

/** The request's own origin and path: links point back at whatever address the client used. */
export function baseUrlOf(request: Request): string {
  const url = new URL(request.url);
  const host = request.headers.get("host") ?? url.host;
  return `${url.protocol}//${host}${url.pathname}`;
}

/** The four links of a page; its first and last addresses are the pivots of previous and next. */
export function pageLinks(base: string, limit: number, items: Suppression[], pivot: string | undefined) {
  const link = (page: PageName, address?: string) =>
    `${base}?page=${page}${address !== undefined ? `&address=${encodeURIComponent(address)}` : ""}&limit=${limit}`;
  return {
    first: link("first"),
    last: link("last"),
    next: link("next", items.at(-1)?.address ?? pivot ?? ""),
    previous: link("previous", items[0]?.address ?? pivot ?? ""),
  };
}
