// The header's company switcher: shown to a person who belongs to several companies.
// A plain form (works without JavaScript): the chosen company goes to POST /company, which checks
// the membership through the Business API and keeps the choice in the session. With JavaScript,
// choosing submits at once and the button goes (it is only needed without JavaScript). The
// select is drawn like every other select (.field-select).
import { Form } from "react-router";
import { BiBuildings } from "~/icons";
import { useHydrated } from "~/lib/hydrated";

export interface CompanyOption {
  businessId: string;
  businessName: string;
  /** The person's role there, in Spanish. */
  roleLabel: string;
}

export function CompanySwitcher({ companies, current }: { companies: CompanyOption[]; current: string | null }) {
  const hydrated = useHydrated();
  if (companies.length < 2) return null;
  return (
    <Form method="post" action="/company" className="company-switcher" data-testid="company-switcher">
      <BiBuildings size={20} aria-hidden="true" className="company-switcher-icon" />
      <label htmlFor="company-switcher-select" className="visually-hidden">
        Empresa
      </label>
      <select
        id="company-switcher-select"
        name="businessId"
        defaultValue={current ?? undefined}
        className="field-select company-switcher-select"
        onChange={(event) => event.currentTarget.form?.requestSubmit()}
      >
        {companies.map((c) => (
          <option key={c.businessId} value={c.businessId}>
            {`${c.businessName} · ${c.roleLabel}`}
          </option>
        ))}
      </select>
      {hydrated ? null : (
        <button type="submit" className="company-switcher-button">
          Cambiar
        </button>
      )}
    </Form>
  );
}
