// A form shown to a role that may see but not change it: every field inside is
// disabled by the fieldset (nothing is submitted), and the form hides its submit buttons itself.
import type { ReactNode } from "react";

export function ReadOnlyFieldset({ readOnly, children }: { readOnly?: boolean; children: ReactNode }) {
  if (!readOnly) return <>{children}</>;
  return (
    <fieldset disabled className="readonly-fieldset" data-testid="read-only">
      <legend className="visually-hidden">Solo lectura: tu rol no permite modificarlo.</legend>
      {children}
    </fieldset>
  );
}
