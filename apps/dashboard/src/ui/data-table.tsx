/**
 * `DataTable`: every list of the dashboard (TanStack Table, headless, in
 * manual mode: the service pages, sorts and searches; this only renders).
 * Loading, empty and failed states are part of it, so no list forgets one.
 * `Pager` moves through cursor pages.
 */
import { type ColumnDef, flexRender, getCoreRowModel, type SortingState, useReactTable } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { EmptyState, ErrorState, Loading } from './states.js';

export type { ColumnDef } from '@tanstack/react-table';

export interface DataTableProps<T> {
  /** The table's accessible name. */
  caption: string;
  // biome-ignore lint/suspicious/noExplicitAny: columns of any value type
  columns: ColumnDef<T, any>[];
  /** The rows, or `undefined` while loading. */
  rows: readonly T[] | undefined;
  /** A failed load (shown instead of rows). */
  error?: unknown;
  onRetry?: () => void;
  /** Shown when there are no rows. */
  empty: { title: string; description?: ReactNode; action?: ReactNode };
  /** A stable id per row. */
  rowId: (row: T) => string;
  /** Server-side sorting: the sorted column and direction, and what a header click asks for. */
  sorting?: SortingState;
  onSortingChange?: (sorting: SortingState) => void;
}

export function DataTable<T>({
  caption,
  columns,
  rows,
  error,
  onRetry,
  empty,
  rowId,
  sorting,
  onSortingChange,
}: DataTableProps<T>) {
  const table = useReactTable<T>({
    data: (rows ?? []) as T[],
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: rowId,
    manualSorting: true,
    manualPagination: true,
    enableSortingRemoval: false,
    state: { sorting: sorting ?? [] },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting ?? []) : updater;
      onSortingChange?.(next);
    },
  });
  if (error) return <ErrorState error={error} onRetry={onRetry} />;
  if (rows === undefined) return <Loading />;
  if (rows.length === 0) {
    return (
      <EmptyState title={empty.title} action={empty.action}>
        {empty.description}
      </EmptyState>
    );
  }
  return (
    <div className="ld-table-wrap">
      <table className="ld-table">
        <caption className="ld-visually-hidden">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sortable = Boolean(onSortingChange) && header.column.getCanSort();
                const direction = header.column.getIsSorted();
                const label = flexRender(header.column.columnDef.header, header.getContext());
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined}
                  >
                    {sortable ? (
                      <button type="button" className="ld-sort" onClick={header.column.getToggleSortingHandler()}>
                        {label}
                        <span aria-hidden="true">
                          {direction === 'asc' ? ' ↑' : direction === 'desc' ? ' ↓' : ' ↕'}
                        </span>
                      </button>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface PagerProps {
  /** e.g. "Page 3" or "41–60". */
  label?: ReactNode;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}

/** Previous/next buttons over cursor pages. */
export function Pager({ label, hasPrevious, hasNext, onPrevious, onNext }: PagerProps) {
  if (!hasPrevious && !hasNext) return null;
  return (
    <nav className="ld-pager" aria-label="Pages">
      <button
        type="button"
        className="lk-button lk-button-secondary ld-button-small"
        disabled={!hasPrevious}
        onClick={onPrevious}
      >
        Previous
      </button>
      {label ? <span className="ld-muted">{label}</span> : null}
      <button
        type="button"
        className="lk-button lk-button-secondary ld-button-small"
        disabled={!hasNext}
        onClick={onNext}
      >
        Next
      </button>
    </nav>
  );
}
