// The price preview: a sample session priced with the rate being edited (domain/pricing.ts).
import { Callout, Flex, Heading, Separator, Text } from "@radix-ui/themes";
import { BiInfoCircle } from "~/icons";
import { formatArs, formatArsInput } from "#domain/money";
import { DEFAULT_TIME_ZONE } from "#domain/time-zone";
import { formatQuantity, formatVatRate } from "./format";
import type { Preview } from "./preview";

function Row({ label, detail, amount, testId, strong }: { label: string; detail?: string; amount: string; testId: string; strong?: boolean }) {
  return (
    <div className={strong ? "rate-preview-row rate-preview-total" : "rate-preview-row"}>
      <dt>
        <Text size="2" weight={strong ? "bold" : "medium"}>
          {label}
        </Text>
        {detail ? (
          <Text as="div" size="1" color="gray">
            {detail}
          </Text>
        ) : null}
      </dt>
      <dd data-testid={testId}>
        <Text size={strong ? "4" : "2"} weight={strong ? "bold" : "regular"}>
          {amount}
        </Text>
      </dd>
    </div>
  );
}

/** "Una sesión de 45 min, 30 kWh y 20 min de inactividad". */
export function scenarioSentence(p: { chargingMinutes: number; energyKwh: number; idleMinutes: number }): string {
  return `Una sesión de ${formatQuantity(p.chargingMinutes)} min, ${formatQuantity(p.energyKwh)} kWh y ${formatQuantity(p.idleMinutes)} min de inactividad`;
}

const hourFmt = new Intl.DateTimeFormat("es-AR", { timeZone: DEFAULT_TIME_ZONE, weekday: "long", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** "Desde el miércoles 18:00: $ 420,00/kWh (Pico …)". */
function nextChange(n: NonNullable<NonNullable<Extract<Preview, { ok: true }>["bandsNow"]>["next"]>): string {
  return `Desde el ${hourFmt.format(new Date(n.at))}: $ ${formatArsInput(n.pricePerKwhCents)}/kWh${n.pricePerMinuteCents > 0 ? ` y $ ${formatArsInput(n.pricePerMinuteCents)}/min` : ""} (${n.label}).`;
}

export function PricePreview({ preview }: { preview: Preview }) {
  if (!preview.ok) {
    return (
      <Callout.Root color="amber" role="status" data-testid="preview-problems">
        <Callout.Icon>
          <BiInfoCircle aria-hidden="true" />
        </Callout.Icon>
        <Callout.Text>{preview.problems[0]} La vista previa se actualiza cuando los valores son válidos.</Callout.Text>
      </Callout.Root>
    );
  }
  const { scenario, rate, price, noShow, bandsNow } = preview;
  const vatPct = formatVatRate(rate.vatRateBp);
  const idleDetail: string[] = [];
  if (rate.idlePricePerMinuteCents > 0) {
    idleDetail.push(`${formatQuantity(Math.round(preview.billableIdleMinutes * 100) / 100)} min × $ ${formatArsInput(rate.idlePricePerMinuteCents)}`);
    if (rate.idleGraceMinutes > 0) idleDetail.push(`${formatQuantity(rate.idleGraceMinutes)} min de gracia`);
    if (rate.idleActiveFrom && rate.idleActiveTo) idleDetail.push(`solo de ${rate.idleActiveFrom} a ${rate.idleActiveTo}; la carga termina a las ${scenario.idleStart}`);
    if (rate.idleMaxCents !== null && price.idleCents === rate.idleMaxCents && price.idleCents > 0) idleDetail.push("tope alcanzado");
  } else {
    idleDetail.push("Sin penalidad por inactividad");
  }
  return (
    <Flex direction="column" gap="3">
      <Text as="p" size="3" aria-live="polite" data-testid="preview-sentence">
        {scenarioSentence(scenario)} cuesta{" "}
        <Text weight="bold" data-testid="preview-total">
          {formatArs(price.totalCents)}
        </Text>
        {" (IVA incluido)."}
      </Text>
      <dl className="rate-preview-list">
        {price.bands.length > 0 ? (
          price.bands.map((b, i) => (
            <Row
              key={b.band}
              label={b.label}
              detail={`${formatQuantity(Math.round(b.energyWh / 10) / 100)} kWh × $ ${formatArsInput(b.pricePerKwhCents)} + ${formatQuantity(Math.round(b.minutes * 100) / 100)} min × $ ${formatArsInput(b.pricePerMinuteCents)}`}
              amount={formatArs(b.energyCents + b.timeCents)}
              testId={`preview-band-${i}`}
            />
          ))
        ) : (
          <>
            <Row label="Energía" detail={`${formatQuantity(scenario.energyKwh)} kWh × $ ${formatArsInput(rate.pricePerKwhCents)}`} amount={formatArs(price.energyCents)} testId="preview-energy" />
            <Row label="Tiempo" detail={`${formatQuantity(scenario.chargingMinutes)} min × $ ${formatArsInput(rate.pricePerMinuteCents)}`} amount={formatArs(price.timeCents)} testId="preview-time" />
          </>
        )}
        <Row label="Cargo por sesión" amount={formatArs(price.sessionFeeCents)} testId="preview-session-fee" />
        <Row label="Penalidad por inactividad" detail={idleDetail.join(" · ")} amount={formatArs(price.idleCents)} testId="preview-idle" />
        <Row
          label={rate.vatIncluded ? `IVA ${vatPct} (incluido)` : `IVA ${vatPct}`}
          detail={rate.vatIncluded ? "Ya está dentro de los importes de arriba." : `Sobre ${formatArs(price.subtotalCents)}.`}
          amount={formatArs(price.vatCents)}
          testId="preview-vat"
        />
        <Row label="Total" amount={formatArs(price.totalCents)} testId="preview-total-row" strong />
      </dl>
      {price.bands.length > 1 ? (
        <Text size="1" color="gray">
          {`La carga del ejemplo termina a las ${scenario.idleStart}; la energía se reparte parejo por minuto entre franjas (en una carga real, según las lecturas del medidor).`}
        </Text>
      ) : null}
      {bandsNow ? (
        <Text as="p" size="2" data-testid="preview-band-now">
          {`Ahora rige ${bandsNow.label}: $ ${formatArsInput(bandsNow.pricePerKwhCents)}/kWh`}
          {bandsNow.pricePerMinuteCents > 0 ? ` y $ ${formatArsInput(bandsNow.pricePerMinuteCents)}/min` : ""}.
          {bandsNow.next ? ` ${nextChange(bandsNow.next)}` : ""}
        </Text>
      ) : null}
      {preview.windowIgnored ? (
        <Text size="1" color="amber">
          El horario de la penalidad está incompleto: la vista previa la cobra a toda hora.
        </Text>
      ) : null}
      <Separator size="4" />
      <Heading as="h3" size="2">
        Reserva sin presentarse
      </Heading>
      <Text as="p" size="2" data-testid="preview-no-show">
        {noShow.feeCents > 0
          ? `Si el conductor no se presenta a una reserva se le cobran ${formatArs(noShow.totalCents)}${rate.vatIncluded ? " (IVA incluido)" : ` (${formatArs(noShow.feeCents)} + IVA ${vatPct})`}.`
          : "Sin cargo por no presentarse a una reserva."}
      </Text>
    </Flex>
  );
}
