// Form pieces shared by every screen: conform-wired fields with their label, hint and first error.
import type { ReactNode } from "react";
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Callout, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import { BiErrorCircle, BiInfoCircle } from "~/icons";

/**
 * Conform options for every auth form (DESIGN.md §6, spec §5): validate when a field loses
 * focus (a text field's `change` fires then too), revalidate the same way — never while typing.
 * Checkboxes also validate on change (see CheckboxField).
 */
export const VALIDATE_ON = { shouldValidate: "onBlur", shouldRevalidate: "onBlur" } as const;

export function ScreenHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Flex direction="column" gap="2" mb="5">
      <Heading as="h1" size="6">
        {title}
      </Heading>
      {children ? (
        <Text as="p" color="gray" size="3">
          {children}
        </Text>
      ) : null}
    </Flex>
  );
}

type InputType = "email" | "password" | "text" | "tel";

// Conform's field metadata, whatever the form's shape (the helpers only read names, ids and errors).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;

/**
 * After a failed submit the first invalid field gets the focus. With JavaScript conform moves it
 * (its report() focuses the first field with an error); without JavaScript the page the server
 * answers marks every invalid field `autofocus`, and the browser focuses the first one in the
 * document. Only in the server's HTML: on the client the focus is conform's job.
 */
export function withAutoFocus<T extends object>(meta: { errors?: string[] }, props: T): T & { autoFocus?: boolean } {
  return meta.errors?.length && typeof document === "undefined" ? { ...props, autoFocus: true } : props;
}

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
      {hint ? (
        <Text id={hintId} size="1" color="gray">
          {hint}
        </Text>
      ) : null}
      {/* The slot keeps its height, so a message that comes or goes never moves the buttons below
          between a mouse-down and its mouse-up (a lost click). */}
      <FieldError meta={meta} className="field-error-slot" />
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

/** Form-level errors (wrong credentials, limits, expired links): the first one, announced. */
export function FormError({ errors, id }: { errors?: string[]; id?: string }) {
  const message = errors?.[0];
  if (!message) return null;
  return (
    <Callout.Root color="red" role="alert" id={id} data-testid="form-error">
      <Callout.Icon>
        <BiErrorCircle aria-hidden="true" />
      </Callout.Icon>
      <Callout.Text>{message}</Callout.Text>
    </Callout.Root>
  );
}

export function InfoMessage({ children, testId, color = "sky" }: { children: ReactNode; testId?: string; color?: "sky" | "amber" | "green" | "red" }) {
  return (
    <Callout.Root color={color} role="status" data-testid={testId}>
      <Callout.Icon>
        <BiInfoCircle aria-hidden="true" />
      </Callout.Icon>
      <Callout.Text>{children}</Callout.Text>
    </Callout.Root>
  );
}
