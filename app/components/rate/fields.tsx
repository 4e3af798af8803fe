// Inputs of the rate form, wired to conform like app/components/form.tsx: label, hint, first
// error, aria-invalid/aria-describedby. Native elements only, so they post without JavaScript.
import type { ReactNode } from "react";
import { FieldError } from "~/components/form";
import { withAutoFocus } from "~/lib/autofocus";
import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import { Flex, Text, TextField } from "@radix-ui/themes";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;

function FieldFrame({ meta, label, hint, children }: { meta: AnyField; label: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <Flex direction="column" gap="1" className="rate-field">
      <Text as="label" htmlFor={meta.id} size="2" weight="medium">
        {label}
      </Text>
      {children}
      {hint ? (
        <Text id={`${meta.id}-hint`} size="1" color="gray">
          {hint}
        </Text>
      ) : null}
      <FieldError meta={meta} />
    </Flex>
  );
}

function inputProps(meta: AnyField, type: "text" | "time" | "datetime-local", hint?: ReactNode) {
  const { key: _key, ...input } = withAutoFocus(meta, getInputProps(meta, { type, ariaDescribedBy: hint ? `${meta.id}-hint` : undefined })) as ReturnType<typeof getInputProps> & {
    key?: string;
  };
  return { ...input, type };
}

/** Pesos typed es-AR style ("1.234,56") or with a decimal point ("1234.56"). */
export function MoneyField({ meta, label, hint, placeholder = "0,00" }: { meta: AnyField; label: string; hint?: ReactNode; placeholder?: string }) {
  return (
    <FieldFrame meta={meta} label={label} hint={hint}>
      <TextField.Root {...inputProps(meta, "text", hint)} size="3" inputMode="decimal" autoComplete="off" spellCheck={false} placeholder={placeholder}>
        <TextField.Slot>$</TextField.Slot>
      </TextField.Root>
    </FieldFrame>
  );
}

export function TextInputField({ meta, label, hint, placeholder, inputMode, suffix }: { meta: AnyField; label: string; hint?: ReactNode; placeholder?: string; inputMode?: "numeric" | "text"; suffix?: string }) {
  return (
    <FieldFrame meta={meta} label={label} hint={hint}>
      <TextField.Root {...inputProps(meta, "text", hint)} size="3" inputMode={inputMode} autoComplete="off" spellCheck={false} placeholder={placeholder}>
        {suffix ? <TextField.Slot side="right">{suffix}</TextField.Slot> : null}
      </TextField.Root>
    </FieldFrame>
  );
}

/** HH:MM with the browser's time picker (a text box where there is none). */
export function TimeField({ meta, label, hint }: { meta: AnyField; label: string; hint?: ReactNode }) {
  return (
    <FieldFrame meta={meta} label={label} hint={hint}>
      <TextField.Root {...inputProps(meta, "time", hint)} size="3" step={60} placeholder="HH:MM" />
    </FieldFrame>
  );
}

/** A date and time (Argentine time) with the browser's picker. */
export function DateTimeField({ meta, label, hint }: { meta: AnyField; label: string; hint?: ReactNode }) {
  return (
    <FieldFrame meta={meta} label={label} hint={hint}>
      <TextField.Root {...inputProps(meta, "datetime-local", hint)} size="3" step={60} placeholder="AAAA-MM-DDTHH:MM" />
    </FieldFrame>
  );
}

export function SelectField({ meta, label, hint, options }: { meta: AnyField; label: string; hint?: ReactNode; options: { value: string; label: string }[] }) {
  const { key: _key, ...select } = withAutoFocus(meta, getSelectProps(meta, { ariaDescribedBy: hint ? `${meta.id}-hint` : undefined })) as ReturnType<typeof getSelectProps> & { key?: string };
  return (
    <FieldFrame meta={meta} label={label} hint={hint}>
      <select {...select} className="field-select">
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/** A group of native radio buttons (one choice), validated with the form. */
export function RadioGroupField({ meta, legend, options }: { meta: AnyField; legend: string; options: { value: string; label: string; hint?: string }[] }) {
  const error = meta.errors?.[0];
  const current = typeof meta.initialValue === "string" ? meta.initialValue : undefined;
  return (
    <fieldset className="rate-radios" aria-invalid={error ? true : undefined} aria-describedby={error ? meta.errorId : undefined}>
      <Text as="div" size="2" weight="medium" asChild>
        <legend>{legend}</legend>
      </Text>
      {options.map((o) => {
        const id = `${meta.id}-${o.value}`;
        return (
          <label key={`${meta.key ?? ""}-${o.value}`} htmlFor={id} className="rate-radio">
            <input {...withAutoFocus(meta, {})} type="radio" id={id} name={meta.name} value={o.value} defaultChecked={current === o.value} form={meta.formId} />
            <span>
              <Text as="span" size="2">
                {o.label}
              </Text>
              {o.hint ? (
                <Text as="span" size="1" color="gray" className="rate-radio-hint">
                  {o.hint}
                </Text>
              ) : null}
            </span>
          </label>
        );
      })}
      <FieldError meta={meta} />
    </fieldset>
  );
}
