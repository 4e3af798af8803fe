// List pieces shared by every index screen: filters, sorting and pagination live in the URL,
// so they work without JavaScript and can be bookmarked.
import type { ReactNode } from "react";
import { Form, Link, useLocation, useSearchParams } from "react-router";
import { Button, Flex, Text } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { formatInt } from "~/components/charts/format";
import { BiChevronLeft, BiChevronRight, BiSortDown, BiSortUp, BiSort } from "~/icons";

/** The current URL with some parameters changed (undefined or "" removes one). */
export function useHrefWith() {
  const location = useLocation();
  const [params] = useSearchParams();
  return (changes: Record<string, string | number | undefined | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === null || value === "") next.delete(key);
      else next.set(key, String(value));
    }
    const search = next.toString();
    return `${location.pathname}${search ? `?${search}` : ""}`;
  };
}

/** A GET form for search and filters; "Limpiar" drops every parameter. */
export function FilterBar({ children, label = "Filtros" }: { children: ReactNode; label?: string }) {
  const location = useLocation();
  return (
    <Form method="get" role="search" aria-label={label} className="filter-bar">
      <Flex gap="3" wrap="wrap" align="end">
        {children}
        <Button type="submit" size="3">
          Filtrar
        </Button>
        <Button asChild size="3" variant="soft" color="gray">
          <Link to={location.pathname}>Limpiar</Link>
        </Button>
      </Flex>
    </Form>
  );
}

/** A column header that sorts by `field` (ascending, then descending: `-field`). */
export function SortHeader({ field, children, sort }: { field: string; children: ReactNode; sort: string | undefined }) {
  const hrefWith = useHrefWith();
  const active = sort === field || sort === `-${field}`;
  const descending = sort === `-${field}`;
  const next = active && !descending ? `-${field}` : field;
  const Icon = !active ? BiSort : descending ? BiSortDown : BiSortUp;
  return (
    <Table.ColumnHeaderCell aria-sort={active ? (descending ? "descending" : "ascending") : "none"}>
      <Link to={hrefWith({ sort: next, page: undefined, cursor: undefined, before: undefined })} className="sort-link">
        {children} <Icon aria-hidden="true" />
      </Link>
    </Table.ColumnHeaderCell>
  );
}

/** Page links with "Mostrando a–b de n"; bounded on the server (pageSize ≤ 100). */
export function Pagination({ page, pageSize, total }: { page: number; pageSize: number; total: number }) {
  const hrefWith = useHrefWith();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <Flex justify="between" align="center" gap="3" mt="4" wrap="wrap" asChild>
      <nav aria-label="Paginación">
        <Text size="2" color="gray">
          Mostrando {formatInt(from)}–{formatInt(to)} de {formatInt(total)}
        </Text>
        <Flex gap="2" align="center">
          {page > 1 ? (
            <Button asChild variant="soft" size="2">
              <Link to={hrefWith({ page: page - 1 === 1 ? undefined : page - 1 })} rel="prev">
                <BiChevronLeft aria-hidden="true" /> Anterior
              </Link>
            </Button>
          ) : null}
          <Text size="2">
            Página {formatInt(page)} de {formatInt(pages)}
          </Text>
          {page < pages ? (
            <Button asChild variant="soft" size="2">
              <Link to={hrefWith({ page: page + 1 })} rel="next">
                Siguiente <BiChevronRight aria-hidden="true" />
              </Link>
            </Button>
          ) : null}
        </Flex>
      </nav>
    </Flex>
  );
}

/**
 * "Anterior" / "Siguiente" by keyset cursor (`cursor` = the page after, `before` = the page
 * before; both stay in the URL): the same cost at any depth, no page numbers.
 */
export function CursorPagination({ prevCursor, nextCursor, shown, total }: { prevCursor: string | null; nextCursor: string | null; shown: number; total: number }) {
  const hrefWith = useHrefWith();
  return (
    <Flex justify="between" align="center" gap="3" mt="4" wrap="wrap" asChild>
      <nav aria-label="Paginación">
        <Text size="2" color="gray">
          Mostrando {formatInt(shown)} de {formatInt(total)}, de la más reciente a la más antigua
        </Text>
        <Flex gap="2" align="center">
          {prevCursor ? (
            <Button asChild variant="soft" size="2">
              <Link to={hrefWith({ before: prevCursor, cursor: undefined, page: undefined })} rel="prev">
                <BiChevronLeft aria-hidden="true" /> Anterior
              </Link>
            </Button>
          ) : null}
          {nextCursor ? (
            <Button asChild variant="soft" size="2">
              <Link to={hrefWith({ cursor: nextCursor, before: undefined, page: undefined })} rel="next">
                Siguiente <BiChevronRight aria-hidden="true" />
              </Link>
            </Button>
          ) : null}
        </Flex>
      </nav>
    </Flex>
  );
}

/** Read page/pageSize/sort from a URL with safe bounds (the API enforces them again). */
export function listParams(url: URL, defaults: { pageSize?: number } = {}) {
  const page = Math.max(1, Math.min(100_000, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1));
  const pageSize = Math.max(1, Math.min(100, Number.parseInt(url.searchParams.get("pageSize") ?? "", 10) || defaults.pageSize || 20));
  return { page, pageSize, sort: url.searchParams.get("sort") ?? undefined };
}
