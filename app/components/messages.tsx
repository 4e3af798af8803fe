// Headings and messages of the screens: the auth screens' heading, a form's first error, notices.
// Kept apart from form.tsx so that pages without a form do not load conform.
import type { ReactNode } from "react";
import { Callout, Flex, Heading, Text } from "@radix-ui/themes";
import { BiErrorCircle, BiInfoCircle } from "~/icons";

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
