import { Flex, Text, TextField } from "@radix-ui/themes";

/** A labelled value the user cannot change here (the account e-mail; the CUIT of an approved company). */
export function ReadOnlyField({ id, label, value, hint, testId }: { id: string; label: string; value: string; hint?: string; testId?: string }) {
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <TextField.Root id={id} value={value} readOnly size="3" variant="soft" color="gray" aria-describedby={hintId} data-testid={testId} />
      {/* The same slot as the editable fields' (FieldBelow), so the spacing matches theirs. */}
      <div className="field-below">
        {hint ? (
          <Text as="div" id={hintId} size="1" color="gray">
            {hint}
          </Text>
        ) : null}
      </div>
    </Flex>
  );
}
