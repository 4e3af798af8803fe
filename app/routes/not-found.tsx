import { data } from "react-router";
import { Button, Flex, Heading, Text } from "@radix-ui/themes";
import { BiPlug } from "~/icons";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Error 404");

export const loader = () => data(null, { status: 404 });

export default function NotFound() {
  return (
    <main id="main" className="auth-shell">
      <Flex direction="column" align="center" gap="3" style={{ textAlign: "center", maxWidth: 520 }}>
        <BiPlug size={56} aria-hidden="true" color="#005a87" />
        <Heading as="h1" size="8">
          Error 404
        </Heading>
        <Text as="p" size="4" color="gray">
          No encontramos la página que buscás. Puede que la dirección esté mal escrita o que ya no exista.
        </Text>
        <Button asChild size="3">
          <a href="/home">Volver al inicio</a>
        </Button>
      </Flex>
    </main>
  );
}
