// Radix Themes' Text, Badge, Flex, Code and ghost Button-links as plain elements with the same
// rt- classes and data attributes, so the Radix CSS styles them exactly alike (ADR 0009). For
// list rows only: a Radix component costs ~15× a plain element to render on the server (its
// props pass through extract-props; Button asChild adds a Slot), and a 20-row table has ~300 of
// them: about 3 ms per page (docs/benchmarks.md §3). Only the props the rows use; anything else
// stays with Radix. tests/unit/app/plain.test.tsx renders each one next to its Radix original and
// fails when the markup differs (e.g. after a Radix upgrade).
import { forwardRef, type ComponentPropsWithoutRef, type CSSProperties, type ReactNode } from "react";
import { Link, type LinkProps } from "react-router";
import type { BadgeProps as RadixBadgeProps } from "@radix-ui/themes";

type Size = "1" | "2" | "3";
/** Radix's accent colours (a type only: nothing of Radix is imported at run time). */
export type AccentColor = NonNullable<RadixBadgeProps["color"]>;

const cx = (...parts: (string | false | undefined)[]) => parts.filter(Boolean).join(" ");

interface TextProps {
  as?: "span" | "div" | "p";
  size?: Size;
  weight?: "medium" | "bold";
  color?: AccentColor;
  className?: string;
  style?: CSSProperties;
  id?: string;
  title?: string;
  "data-testid"?: string;
  children?: ReactNode;
}

/** `<Text>`: `rt-Text`, size and weight classes, the colour as data-accent-color. */
export function PlainText({ as: Tag = "span", size, weight, color, className, ...rest }: TextProps) {
  return <Tag data-accent-color={color} {...rest} className={cx("rt-Text", size && `rt-r-size-${size}`, weight && `rt-r-weight-${weight}`, className)} />;
}

interface BadgeProps extends Omit<ComponentPropsWithoutRef<"span">, "color"> {
  size?: Size;
  variant?: "soft" | "solid" | "outline" | "surface";
  color?: AccentColor;
  radius?: "full";
  [data: `data-${string}`]: string | undefined;
}

/** `<Badge>` (Radix's defaults: size 1, soft). */
export function PlainBadge({ size = "1", variant = "soft", color, radius, className, ...rest }: BadgeProps) {
  return <span data-accent-color={color} data-radius={radius} {...rest} className={cx("rt-reset rt-Badge", `rt-r-size-${size}`, `rt-variant-${variant}`, className)} />;
}

interface FlexProps extends ComponentPropsWithoutRef<"div"> {
  direction?: "column";
  align?: "start" | "center";
  wrap?: "wrap" | "nowrap";
  gap?: "1" | "2" | "3";
}

/** `<Flex>` with the props list rows use. */
export function PlainFlex({ direction, align, wrap, gap, className, ...rest }: FlexProps) {
  return <div {...rest} className={cx("rt-Flex", direction && `rt-r-fd-${direction}`, align && `rt-r-ai-${align}`, wrap && `rt-r-fw-${wrap}`, gap && `rt-r-gap-${gap}`, className)} />;
}

/** `<Code variant="ghost">`. */
export function PlainCode({ className, ...rest }: ComponentPropsWithoutRef<"code">) {
  return <code {...rest} className={cx("rt-reset rt-Code rt-variant-ghost", className)} />;
}

interface GhostLinkProps extends LinkProps {
  color?: "red";
  size?: "2";
}

/** `<Button asChild variant="ghost" size="2"><Link …/></Button>`: an icon action in a row. */
export const GhostButtonLink = forwardRef<HTMLAnchorElement, GhostLinkProps>(function GhostButtonLink({ color, size = "2", className, ...rest }, ref) {
  return <Link ref={ref} data-accent-color={color ?? ""} {...rest} className={cx("rt-reset rt-BaseButton", `rt-r-size-${size}`, "rt-variant-ghost rt-Button", className)} />;
});
