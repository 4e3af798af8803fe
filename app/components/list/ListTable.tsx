// The table of a list screen (ListScreen) and of any screen that lists rows without filters or
// pages (the team): in a module of its own so those screens do not load the filter bar.
import type { ReactNode } from "react";
import * as Table from "~/components/table";
import { DataTable } from "~/components/table";

/** The list's table: a header row of `head` cells over the rows; `className` wraps it (CSS hides it on phones when the list has cards). */
export function ListTable({ caption, className, head, children }: { caption: string; className?: string; head: ReactNode; children: ReactNode }) {
  const table = (
    <DataTable caption={caption}>
      <Table.Header>
        <Table.Row>{head}</Table.Row>
      </Table.Header>
      <Table.Body>{children}</Table.Body>
    </DataTable>
  );
  return className ? <div className={className}>{table}</div> : table;
}

/** The header of the row-actions column: named for screen readers, blank on screen. */
export function ActionsHeader() {
  return (
    <Table.ColumnHeaderCell>
      <span className="visually-hidden">Acciones</span>
    </Table.ColumnHeaderCell>
  );
}
