// Inputs of the charger form that the shared Field does not cover: native selects (they post
// without JavaScript) and text inputs with a decimal or numeric keyboard. Same wiring as Field:
// label, hint, first error, aria-invalid/aria-describedby.
import { FieldError } from "~/components/form";
import { withAutoFocus } from "~/lib/autofocus";
import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import { Flex, Text, TextField } from "@radix-ui/themes";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;

export interface Option {
  value: string;
  label: string;
}


export function SelectField({
  meta,
  label,
  options,
  placeholder,
  hint,
}: {
  meta: AnyField;
  label: string;
  options: Option[];
  /** An empty first option ("Sin estación", "Elegí…"). */
  placeholder?: string;
  hint?: string;
}) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const { key, ...props } = withAutoFocus(meta, getSelectProps(meta, { ariaDescribedBy: hintId })) as ReturnType<typeof getSelectProps> & { key?: string };
  // A value that is not among the options (stale id) still shows, so nothing is silently lost.
  const current = typeof meta.initialValue === "string" ? meta.initialValue : undefined;
  const missing = current && !options.some((o) => o.value === current) ? current : undefined;
  return (
    <Flex direction="column" gap="1" className="charger-field">
      <Text as="label" htmlFor={meta.id} size="2" weight="medium">
        {label}
      </Text>
      <select key={key} {...props} required={false} className="field-select">
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {missing ? <option value={missing}>{missing}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint ? (
        <Text id={hintId} size="1" color="gray">
          {hint}
        </Text>
      ) : null}
      <FieldError meta={meta} />
    </Flex>
  );
}

export function TextInput({
  meta,
  label,
  hint,
  placeholder,
  inputMode,
  autoComplete = "off",
  suffix,
}: {
  meta: AnyField;
  label: string;
  hint?: string;
  placeholder?: string;
  inputMode?: "numeric" | "decimal" | "text" | "url";
  autoComplete?: string;
  suffix?: string;
}) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const { key, type: _type, ...props } = withAutoFocus(meta, getInputProps(meta, { type: "text", ariaDescribedBy: hintId })) as ReturnType<typeof getInputProps> & { key?: string };
  return (
    <Flex direction="column" gap="1" className="charger-field">
      <Text as="label" htmlFor={meta.id} size="2" weight="medium">
        {label}
      </Text>
      <TextField.Root key={key} {...props} type="text" required={false} size="3" placeholder={placeholder} inputMode={inputMode} autoComplete={autoComplete} spellCheck={false}>
        {suffix ? <TextField.Slot side="right">{suffix}</TextField.Slot> : null}
      </TextField.Root>
      {hint ? (
        <Text id={hintId} size="1" color="gray">
          {hint}
        </Text>
      ) : null}
      <FieldError meta={meta} />
    </Flex>
  );
}
