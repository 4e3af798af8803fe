// Inicio's frame: the first steps of a company without chargers, the period picker and the KPI cards.
import { Button, Card, Flex, Text } from "@radix-ui/themes";
import { Form, Link } from "react-router";
import type { ReactNode } from "react";
import { BiPlug } from "~/icons";
import { EmptyState } from "~/components/Page";
import { FilterDate } from "~/components/activity/filters";
import { PERIOD_KEYS, PERIOD_LABELS, type Period } from "~/components/charts/period";
import { useAccess } from "~/lib/access";

/** A company without chargers yet: what to do first, instead of charts of zeros. */
export function FirstSteps() {
  const access = useAccess();
  return (
    <Card size="3" data-testid="home-empty">
      <EmptyState icon={<BiPlug size={40} />} title="Todavía no hay cargadores en tu red">
        Primero creá una estación (el lugar donde están los cargadores) y después agregá un cargador y conectalo. Apenas se conecte, acá vas a ver su estado, las cargas y la energía entregada.
      </EmptyState>
      {access.can("station.write") ? (
        <Flex gap="3" justify="center" wrap="wrap" mt="4">
          <Button asChild size="3">
            <Link to="/station/new">Crear una estación</Link>
          </Button>
          <Button asChild size="3" variant="soft">
            <Link to="/charger/new">Agregar un cargador</Link>
          </Button>
        </Flex>
      ) : null}
    </Card>
  );
}

export function PeriodPicker({ period }: { period: Period }) {
  const presets = PERIOD_KEYS.filter((k) => k !== "custom");
  return (
    <Card size="2" mb="5" className="period-card">
      <Flex gap="4" wrap="wrap" align="end" justify="between">
        <nav aria-label="Período" className="period-presets">
          {presets.map((k) => (
            <Link key={k} to={`?period=${k}`} className="period-chip" aria-current={period.key === k ? "page" : undefined} preventScrollReset>
              {PERIOD_LABELS[k]}
            </Link>
          ))}
        </nav>
        <Form method="get" className="period-form" aria-label="Período personalizado" preventScrollReset>
          <input type="hidden" name="period" value="custom" />
          <FilterDate idPrefix="period" name="from" label="Desde" value={period.input.from} error={period.errors.from} />
          <FilterDate idPrefix="period" name="to" label="Hasta" value={period.input.to} error={period.errors.to} />
          <Button type="submit" size="3" variant={period.key === "custom" ? "solid" : "soft"}>
            Aplicar
          </Button>
        </Form>
      </Flex>
    </Card>
  );
}

export function Kpi({ icon, label, value, note, testId, warn }: { icon: ReactNode; label: string; value: string; note?: string; testId: string; warn?: boolean }) {
  return (
    <Card size="2" className="kpi" data-testid={testId}>
      <Flex gap="3" align="start">
        <span className={`kpi-icon${warn ? " kpi-warn" : ""}`} aria-hidden="true">
          {icon}
        </span>
        <Flex direction="column" gap="1" minWidth="0">
          <Text size="2" color="gray">
            {label}
          </Text>
          <Text size="5" weight="bold" className="kpi-value" data-testid={`${testId}-value`}>
            {value}
          </Text>
          {note ? (
            <Text size="1" color={warn ? "red" : "gray"}>
              {note}
            </Text>
          ) : null}
        </Flex>
      </Flex>
    </Card>
  );
}
