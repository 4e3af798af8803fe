// Radix Themes' Table parts (same elements and rt- classes, so the Radix CSS applies), written
// here because @radix-ui/themes' table module keeps Table.Root and the ScrollArea it wraps
// (~5 KB gz) in every list page's bundle; TableRoot (below) replaces Table.Root
// (docs/benchmarks.md §1). Only the props the app uses: no responsive align/justify/width.
import type { ComponentPropsWithoutRef, ReactNode } from "react";

const cx = (base: string, extra?: string) => (extra ? `${base} ${extra}` : base);

export function Header({ className, ...props }: ComponentPropsWithoutRef<"thead">) {
  return <thead {...props} className={cx("rt-TableHeader", className)} />;
}

export function Body({ className, ...props }: ComponentPropsWithoutRef<"tbody">) {
  return <tbody {...props} className={cx("rt-TableBody", className)} />;
}

export function Row({ className, ...props }: ComponentPropsWithoutRef<"tr">) {
  return <tr {...props} className={cx("rt-TableRow", className)} />;
}

export function Cell({ className, ...props }: ComponentPropsWithoutRef<"td">) {
  return <td {...props} className={cx("rt-TableCell", className)} />;
}

export function ColumnHeaderCell({ className, ...props }: ComponentPropsWithoutRef<"th">) {
  return <th scope="col" {...props} className={cx("rt-TableCell rt-TableColumnHeaderCell", className)} />;
}

export function RowHeaderCell({ className, ...props }: ComponentPropsWithoutRef<"th">) {
  return <th scope="row" {...props} className={cx("rt-TableCell rt-TableRowHeaderCell", className)} />;
}

/**
 * Radix Themes' Table.Root markup and classes without its ScrollArea, which costs ~5 KB gz of
 * JavaScript on every list page (docs/benchmarks.md §1); the `.table-scroll` wrapper scrolls.
 */
export function TableRoot({ size = "2", variant = "ghost", children }: { size?: "1" | "2" | "3"; variant?: "surface" | "ghost"; children: ReactNode }) {
  return (
    <div className={`rt-TableRoot rt-r-size-${size} rt-variant-${variant}`}>
      <table className="rt-TableRootTable">{children}</table>
    </div>
  );
}

/** A table that scrolls sideways on small screens instead of breaking the layout. */
export function DataTable({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <TableRoot variant="surface" size="2">
        <caption className="visually-hidden">{caption}</caption>
        {children}
      </TableRoot>
    </div>
  );
}
