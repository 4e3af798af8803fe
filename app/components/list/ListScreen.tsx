// The one shape of a list screen: the title row, the delete confirmation, the filter bar, then
// the results (table, cards on small screens, pagination) or the empty state that fits. Every
// part is a link or a GET/POST form, so the screen works without JavaScript; what a list shows
// (columns, filters, its Spanish) stays in its route.
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button, Flex, Text } from "@radix-ui/themes";
import { PageHeader } from "~/components/Page";
import { BiEditAlt, BiTrash } from "~/icons";
import { FilterBar, Pagination, useHrefWith } from "./index";

export { ActionsHeader, ListTable } from "./ListTable";

export interface ListFilters {
  /** The search landmark's name ("Buscar tarifas"). */
  label: string;
  /** URL parameters the fields do not hold but a new search keeps (the table's sort). */
  keep?: Record<string, string | undefined>;
  fields: ReactNode;
}

export function ListScreen({
  title,
  description,
  actions,
  intro,
  confirm,
  deleteError,
  deleteErrorTestId,
  empty,
  filters,
  noMatch,
  pagination,
  children,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  /** What the screen shows before its list (say, the accounts over the payments). */
  intro?: ReactNode;
  /** The delete confirmation (`?delete=<id>`), under the title. */
  confirm?: ReactNode;
  /** A refused delete whose confirmation is no longer on screen. */
  deleteError?: string;
  deleteErrorTestId?: string;
  /** Nothing to list yet: this empty state stands instead of the filters and the results. */
  empty?: ReactNode;
  filters?: ListFilters;
  /** No row to show (nothing matches, or the list could not load): stands instead of the results. */
  noMatch?: ReactNode;
  pagination?: { page: number; pageSize: number; total: number };
  /** The results: the table, and the cards that replace it on small screens. */
  children: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} description={description} actions={actions} />
      {intro}
      {confirm ? (
        confirm
      ) : deleteError ? (
        <Text as="p" color="red" role="alert" mb="4" data-testid={deleteErrorTestId}>
          {deleteError}
        </Text>
      ) : null}
      {empty ? (
        empty
      ) : (
        <>
          {filters ? (
            <FilterBar label={filters.label} keep={filters.keep}>
              {filters.fields}
            </FilterBar>
          ) : null}
          {noMatch ? (
            noMatch
          ) : (
            <>
              {children}
              {pagination ? <Pagination page={pagination.page} pageSize={pagination.pageSize} total={pagination.total} /> : null}
            </>
          )}
        </>
      )}
    </>
  );
}

/** A row's "Editar" and, for those who may delete, "Eliminar" (which opens the confirmation). */
export function RowActions({ name, editTo, deleteTo }: { name: string; editTo: string; deleteTo: string | null }) {
  return (
    <Flex gap="2" wrap="nowrap">
      <Button asChild size="2" variant="soft">
        <Link to={editTo} aria-label={`Editar ${name}`}>
          <BiEditAlt aria-hidden="true" /> Editar
        </Link>
      </Button>
      {deleteTo ? (
        <Button asChild size="2" variant="soft" color="red">
          <Link to={deleteTo} aria-label={`Eliminar ${name}`} preventScrollReset>
            <BiTrash aria-hidden="true" /> Eliminar
          </Link>
        </Button>
      ) : null}
    </Flex>
  );
}

/**
 * Where a list's delete links and its confirmation point: `?delete=<id>` on the same list
 * (filters and page kept), the confirmation posts to the list as it is, "Cancelar" drops it.
 */
export function useListDelete(canDelete: boolean) {
  const hrefWith = useHrefWith();
  return {
    deleteHref: (id: string) => (canDelete ? hrefWith({ delete: id }) : null),
    action: hrefWith({}),
    cancelTo: hrefWith({ delete: undefined }),
  };
}
