// The inputs of a list's filter bar: a label over its control, named as the URL parameter the
// loader reads, starting from the value in the URL (a plain GET form, so no JavaScript needed).
import type { ReactNode } from "react";
import { Flex, Text } from "@radix-ui/themes";

/** One filter: its label over the control (`id` ties them together). */
export function FilterField({ id, label, className, children }: { id: string; label: string; className?: string; children: ReactNode }) {
  return (
    <Flex direction="column" gap="1" className={className}>
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      {children}
    </Flex>
  );
}

/** Value and label of each option, in the order shown. */
export type Options = readonly (readonly [value: string, label: string])[];

/** A native select (it works without JavaScript and on every phone) as one filter. */
export function SelectFilter({
  id,
  label,
  name,
  defaultValue,
  options,
  className,
  selectClassName = "field-select",
}: {
  id: string;
  label: string;
  name: string;
  defaultValue: string;
  options: Options;
  className?: string;
  selectClassName?: string;
}) {
  return (
    <FilterField id={id} label={label} className={className}>
      <select id={id} name={name} defaultValue={defaultValue} className={selectClassName}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </FilterField>
  );
}
