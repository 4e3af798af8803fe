import { Badge } from "@radix-ui/themes";
import { ROLE_LABELS, type Role } from "#domain/permissions";

export function RoleBadge({ role }: { role: Role }) {
  const color = role === "OWNER" ? "purple" : role === "ADMIN" ? "sky" : "gray";
  return (
    <Badge color={color} variant="soft" size="2" data-testid="member-role">
      {ROLE_LABELS[role]}
    </Badge>
  );
}
