import type { ReactNode } from "react";

/**
 * The root element of Radix Themes, exactly as `<Theme accentColor="sky" grayColor="gray"
 * appearance="light" radius="medium" scaling="100%">` renders it (tests/unit/app/theme-root.test.tsx
 * compares the two). Radix's component also mounts tooltip and direction providers and a React
 * context that only its Select and menus read — the app uses none of them — and that cost every
 * route ~2 KB gz of first-load JavaScript (docs/benchmarks.md §1).
 */
export function ThemeRoot({ children }: { children: ReactNode }) {
  return (
    <div
      data-is-root-theme="true"
      data-accent-color="sky"
      data-gray-color="gray"
      data-has-background="true"
      data-panel-background="translucent"
      data-radius="medium"
      data-scaling="100%"
      className="radix-themes light"
    >
      {children}
    </div>
  );
}
