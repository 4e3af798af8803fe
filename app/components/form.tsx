// Form fields shared by every form: conform-wired, with their label, hint and first error. The
// messages around forms (headings, form errors, notices) are in messages.tsx, which pages without
// a form use too, so they do not load conform (the "forms" chunk, vite.config.ts).
import type { ReactNode } from "react";
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Flex, Text, TextField } from "@radix-ui/themes";
import { withAutoFocus } from "~/lib/autofocus";

/**
 * Conform options for every auth form: validate when a field loses
 * focus (a text field's `change` fires then too), revalidate the same way — never while typing.
 * Checkboxes also validate on change (see CheckboxField).
 */
export const VALIDATE_ON = { shouldValidate: "onBlur", shouldRevalidate: "onBlur" } as const;

type InputType = "email" | "password" | "text" | "tel" | "date" | "datetime-local";

// Conform's field metadata, whatever the form's shape (the helpers only read names, ids and errors).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;

/**
 * A field's first error, tied to it by `meta.errorId` (its aria-describedby). The polite live
 * region is always in the page, so a message that appears on blur is read out.
 */
export function FieldError({ meta, className }: { meta: Pick<AnyField, "errors" | "errorId" | "name">; className?: string }) {
  const error = meta.errors?.[0];
  return (
    <div className={className} aria-live="polite">
      {error ? (
        <Text id={meta.errorId} size="2" color="red" data-testid={`${meta.name}-error`}>
          {error}
        </Text>
      ) : null}
    </div>
  );
}

/**
 * What goes under a field: its error, or else its hint, in one slot of at least one line
 * (even spacing whether a field has a hint or not). The slot keeps its height, so a message that
 * comes or goes never moves the buttons below between a mouse-down and its mouse-up (a lost
 * click). Under an error the hint stays for screen readers (aria-describedby) but is not shown:
 * the error says what to fix.
 */
export function FieldBelow({ meta, hint, hintId }: { meta: Pick<AnyField, "errors" | "errorId" | "name">; hint?: string; hintId?: string }) {
  const error = meta.errors?.[0];
  return (
    <div className="field-below" aria-live="polite">
      {error ? (
        <Text as="div" id={meta.errorId} size="2" color="red" data-testid={`${meta.name}-error`}>
          {error}
        </Text>
      ) : null}
      {hint ? (
        <Text as="div" id={hintId} size="1" color="gray" className={error ? "visually-hidden" : undefined}>
          {hint}
        </Text>
      ) : null}
    </div>
  );
}

/** A labelled text field wired to conform: aria-invalid, aria-describedby (error, then hint), first error only. */
export function Field({
  meta,
  label,
  type = "text",
  autoComplete,
  hint,
  placeholder,
  inputMode,
}: {
  meta: AnyField;
  label: string;
  type?: InputType;
  autoComplete?: string;
  hint?: string;
  placeholder?: string;
  inputMode?: "email" | "tel" | "numeric" | "text";
}) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const { key: _key, ...input } = withAutoFocus(meta, getInputProps(meta, { type, ariaDescribedBy: hintId })) as ReturnType<typeof getInputProps> & { key?: string };
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={meta.id} size="2" weight="medium">
        {label}
      </Text>
      <TextField.Root
        {...input}
        type={type}
        size="3"
        autoComplete={autoComplete}
        placeholder={placeholder}
        inputMode={inputMode}
        spellCheck={false}
        autoCapitalize={type === "text" ? undefined : "none"}
      />
      <FieldBelow meta={meta} hint={hint} hintId={hintId} />
    </Flex>
  );
}

/** A native checkbox (it posts without JavaScript), validated on change when JavaScript runs. */
export function CheckboxField({
  meta,
  children,
  onChange,
}: {
  meta: AnyField;
  children: ReactNode;
  onChange?: () => void;
}) {
  const { key: _key, ...input } = withAutoFocus(meta, getInputProps(meta, { type: "checkbox" })) as ReturnType<typeof getInputProps> & { key?: string };
  const error = meta.errors?.[0];
  return (
    <Flex direction="column" gap="1">
      <Text as="label" size="2" htmlFor={meta.id}>
        <Flex gap="2" align="center">
          <input {...input} className="auth-checkbox" onChange={onChange} style={{ width: 18, height: 18, accentColor: "#005a87", flex: "none" }} />
          <span>{children}</span>
        </Flex>
      </Text>
      {error ? (
        <Text id={meta.errorId} size="2" color="red" data-testid={`${meta.name}-error`}>
          {error}
        </Text>
      ) : null}
    </Flex>
  );
}

