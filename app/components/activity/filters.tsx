// Native filter inputs for the GET filter forms (they submit without JavaScript): a select
// and a date, each with its label and its first error tied by aria-describedby.
import { Flex, Text } from "@radix-ui/themes";
import { withAutoFocus } from "~/lib/autofocus";

export function FilterSelect({
  name,
  label,
  value,
  error,
  options,
  all = "Todos",
}: {
  name: string;
  label: string;
  value: string;
  error?: string;
  options: [string, string][];
  all?: string;
}) {
  const id = `filter-${name}`;
  const known = !value || options.some(([v]) => v === value);
  return (
    <Flex direction="column" gap="1" className="filter-field">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <select
        id={id}
        name={name}
        defaultValue={value}
        key={value}
        className="field-select"
        aria-invalid={error ? true : undefined}
        {...withAutoFocus({ errors: error ? [error] : [] }, {})}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        <option value="">{all}</option>
        {!known ? <option value={value}>{error ? "Opción no válida" : "Seleccionado"}</option> : null}
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
      {error ? (
        <Text id={`${id}-error`} size="1" color="red" data-testid={`${name}-error`}>
          {error}
        </Text>
      ) : null}
    </Flex>
  );
}

/** A date of a GET form (a list's filters, Inicio's period); `idPrefix` keeps two forms on one page apart. */
export function FilterDate({ name, label, value, error, idPrefix = "filter" }: { name: string; label: string; value: string; error?: string; idPrefix?: string }) {
  const id = `${idPrefix}-${name}`;
  return (
    <Flex direction="column" gap="1" className="filter-field">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <input
        id={id}
        name={name}
        type="date"
        lang="es-AR"
        placeholder="mm/dd/yyyy"
        defaultValue={value}
        key={value}
        className="native-input"
        aria-invalid={error ? true : undefined}
        {...withAutoFocus({ errors: error ? [error] : [] }, {})}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <Text id={`${id}-error`} size="1" color="red" data-testid={`${name}-error`}>
          {error}
        </Text>
      ) : null}
    </Flex>
  );
}

/** Field errors of a list query (first message per parameter), from a zod safeParse. */
export function queryErrors(issues: { path: PropertyKey[]; message: string }[] | undefined): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues ?? []) {
    const key = String(issue.path[0] ?? "");
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}
