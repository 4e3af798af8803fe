import type { ReactNode } from "react";
import { Flex, Text, TextField } from "@radix-ui/themes";

/** A plain text field of the roaming forms, with its hint or the server's error below. */
export function TextInput({ name, label, hint, error, defaultValue, autoComplete = "off" }: { name: string; label: string; hint?: ReactNode; error?: string; defaultValue?: string; autoComplete?: string }) {
  const id = `roaming-${name}`;
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <TextField.Root id={id} name={name} defaultValue={defaultValue} autoComplete={autoComplete} aria-invalid={error ? true : undefined} aria-describedby={describedBy} size="3" />
      {error ? (
        <Text id={`${id}-error`} size="2" color="red" data-testid={`${name}-error`}>
          {error}
        </Text>
      ) : hint ? (
        <Text id={`${id}-hint`} size="2" color="gray">
          {hint}
        </Text>
      ) : null}
    </Flex>
  );
}
