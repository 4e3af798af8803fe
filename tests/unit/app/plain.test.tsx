// The plain stand-ins for Radix components in list rows (app/components/plain.tsx) must render the
// markup Radix renders, or the rows would lose their styles: each case renders both and compares
// the elements with their attributes (order aside). Fails after a Radix upgrade that changes them.
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { Link } from "react-router";
import { Badge, Button, Code, Flex, Text } from "@radix-ui/themes";
import { describe, expect, it, vi } from "vitest";
import { GhostButtonLink, PlainBadge, PlainCode, PlainFlex, PlainText } from "~/components/plain";
import { RADIX_COMPONENTS } from "../../../scripts/vite/radix-css-subset";

function html(element: ReactElement) {
  const router = createMemoryRouter([{ path: "/", element }]);
  return renderToStaticMarkup(<RouterProvider router={router} />);
}

/** Each tag with its attributes sorted, and the text: the same DOM whatever the attribute order. */
function normalized(markup: string) {
  return markup.replace(/<([a-z]+)((?:\s+[\w:-]+(?:="[^"]*")?)*)\s*(\/?)>/g, (_m, tag: string, attrs: string, close: string) => {
    const list = attrs.match(/[\w:-]+(?:="[^"]*")?/g) ?? [];
    const sorted = list.map((a) => (a.startsWith("class=") ? `class="${a.slice(7, -1).split(/\s+/).sort().join(" ")}"` : a)).sort();
    return `<${[tag, ...sorted].join(" ")}${close}>`;
  });
}

const cases: [string, ReactElement, ReactElement][] = [
  ["Text", <Text size="2">Calle 1</Text>, <PlainText size="2">Calle 1</PlainText>],
  [
    "Text as div, size 1, gray",
    <Text as="div" size="1" color="gray">
      CABA
    </Text>,
    <PlainText as="div" size="1" color="gray">
      CABA
    </PlainText>,
  ],
  [
    "Text with weight and style",
    <Text as="div" size="2" weight="medium" style={{ whiteSpace: "nowrap" }}>
      x
    </Text>,
    <PlainText as="div" size="2" weight="medium" style={{ whiteSpace: "nowrap" }}>
      x
    </PlainText>,
  ],
  ["Text without size", <Text color="gray">—</Text>, <PlainText color="gray">—</PlainText>],
  ["Badge", <Badge color="green">Completada</Badge>, <PlainBadge color="green">Completada</PlainBadge>],
  [
    "Badge soft, full radius, data attribute",
    <Badge color="sky" variant="soft" radius="full" data-bucket="charging">
      7 en uso
    </Badge>,
    <PlainBadge color="sky" variant="soft" radius="full" data-bucket="charging">
      7 en uso
    </PlainBadge>,
  ],
  [
    "Badge size 2, outline, title",
    <Badge color="gray" variant="outline" size="2" title="Conector 1" data-status="Unavailable">
      1
    </Badge>,
    <PlainBadge color="gray" variant="outline" size="2" title="Conector 1" data-status="Unavailable">
      1
    </PlainBadge>,
  ],
  [
    "Flex",
    <Flex gap="2" wrap="nowrap">
      <span>a</span>
    </Flex>,
    <PlainFlex gap="2" wrap="nowrap">
      <span>a</span>
    </PlainFlex>,
  ],
  [
    "Flex column, aligned, labelled",
    <Flex direction="column" gap="1" align="start" aria-label="Estado">
      a
    </Flex>,
    <PlainFlex direction="column" gap="1" align="start" aria-label="Estado">
      a
    </PlainFlex>,
  ],
  [
    "Code ghost",
    <Code variant="ghost" className="charger-identity">
      CP-001
    </Code>,
    <PlainCode className="charger-identity">CP-001</PlainCode>,
  ],
  [
    "ghost icon Button around a Link",
    <Button asChild variant="ghost" size="2" title="Editar">
      <Link to="/station/edit/1" aria-label="Editar A">
        i
      </Link>
    </Button>,
    <GhostButtonLink to="/station/edit/1" title="Editar" aria-label="Editar A">
      i
    </GhostButtonLink>,
  ],
  [
    "red ghost icon Button around a Link",
    <Button asChild variant="ghost" color="red" size="2" title="Eliminar">
      <Link to="/station?delete=1" aria-label="Eliminar A">
        i
      </Link>
    </Button>,
    <GhostButtonLink to="/station?delete=1" color="red" title="Eliminar" aria-label="Eliminar A">
      i
    </GhostButtonLink>,
  ],
];

describe("plain stand-ins render what Radix renders", () => {
  vi.spyOn(console, "error").mockImplementation(() => {}); // RouterProvider's useLayoutEffect SSR warning
  for (const [name, radix, plain] of cases) {
    it(name, () => {
      const expected = normalized(html(radix));
      expect(expected).toMatch(/rt-/);
      expect(normalized(html(plain))).toBe(expected);
    });
  }
});

it("the production CSS keeps the rules of every component the stand-ins imitate", () => {
  // The CSS subset (scripts/vite/radix-css-subset.ts) keeps the components the app imports; rows
  // that only use stand-ins still need those rules.
  for (const name of ["Text", "Badge", "Flex", "Code", "Button"]) expect(RADIX_COMPONENTS).toContain(name);
});
