import type { ReactNode } from "react";
import { Box, Card, Flex, Heading, Text } from "@radix-ui/themes";

/** The title row of every app screen: the page heading and its actions. */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <Flex justify="between" align={{ initial: "start", sm: "center" }} gap="3" mb="5" direction={{ initial: "column", sm: "row" }}>
      {/* The text wraps and the actions keep their width: a long description never pushes a button past the edge. */}
      <Box minWidth="0">
        <Heading as="h1" size="7" weight="bold">
          {title}
        </Heading>
        {description ? (
          <Text as="p" color="gray" size="3" mt="1">
            {description}
          </Text>
        ) : null}
      </Box>
      {actions ? (
        <Flex gap="3" wrap="wrap" flexShrink="0">
          {actions}
        </Flex>
      ) : null}
    </Flex>
  );
}

/** An honest empty state: what is missing and what to do first. */
export function EmptyState({ icon, title, children, action }: { icon?: ReactNode; title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-state">
      {icon ? <div aria-hidden="true">{icon}</div> : null}
      <Heading as="h2" size="4" mt="2">
        {title}
      </Heading>
      {children ? (
        <Text as="p" color="gray" mt="2" style={{ maxWidth: 520, marginInline: "auto" }}>
          {children}
        </Text>
      ) : null}
      {action ? <Box mt="4">{action}</Box> : null}
    </div>
  );
}

/** The titled card wrapper: a heading over its content. */
export function TitledCard({ title, children, actions, id }: { title: string; children: ReactNode; actions?: ReactNode; id?: string }) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <Card size="3" asChild>
      <section aria-labelledby={headingId}>
        <Flex justify="between" align="center" mb="4" gap="3" wrap="wrap">
          <Heading as="h2" size="5" id={headingId}>
            {title}
          </Heading>
          {actions}
        </Flex>
        {children}
      </section>
    </Card>
  );
}
