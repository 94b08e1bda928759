/** Query fields every paginated list takes. */
export interface PageInput {
  readonly PageNumber?: number | undefined;
  readonly PageSize?: number | undefined;
}

/** Default page size of sandbox lists (the spec leaves it unstated). */
const DEFAULT_PAGE_SIZE = 10;

/** Slices `items` into the paginated list envelope. */
export function paginate<T>(
  items: readonly T[],
  query: PageInput,
): { totalItems: number; pageSize: number; pageNumber: number; totalPages: number; data: T[] } {
  const pageSize = query.PageSize ?? DEFAULT_PAGE_SIZE;
  const pageNumber = query.PageNumber ?? 1;
  const start = (pageNumber - 1) * pageSize;
  return {
    totalItems: items.length,
    pageSize,
    pageNumber,
    totalPages: Math.ceil(items.length / pageSize),
    data: items.slice(start, start + pageSize),
  };
}

/** Like {@link paginate}, `view` applied to the page's items only (not to the whole list). */
export function paginateViews<T, V>(items: readonly T[], query: PageInput, view: (item: T) => V) {
  const page = paginate(items, query);
  return { ...page, data: page.data.map(view) };
}

/** Keeps records whose `createdAt` falls inside the optional window (the two date-time filters). */
export function inWindow<T extends { createdAt: string }>(
  items: readonly T[],
  from: string | undefined,
  to: string | undefined,
): T[] {
  const fromMs = from ? Date.parse(from) : Number.NEGATIVE_INFINITY;
  const toMs = to ? Date.parse(to) : Number.POSITIVE_INFINITY;
  return items.filter((item) => {
    const at = Date.parse(item.createdAt);
    return at >= fromMs && at <= toMs;
  });
}
