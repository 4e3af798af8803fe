// A session's energy, minutes and amount per time-of-use band, as it was priced; and whether
// the energy at a band edge was read off the meter or interpolated between readings.
import { Text } from "@radix-ui/themes";
import * as Table from "~/components/table";
import { formatArs } from "#domain/money";
import type { SessionDetailDto } from "#contract/dto";
import { TableRoot } from "~/components/table";

const kwh = (wh: number) => `${(wh / 1000).toLocaleString("es-AR", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} kWh`;
const minutes = (m: number) => `${m.toLocaleString("es-AR", { maximumFractionDigits: 1 })} min`;

export function BandBreakdown({ bands }: { bands: NonNullable<SessionDetailDto["bands"]> }) {
  return (
    <>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Costo por franja horaria" data-testid="session-bands">
        <TableRoot size="1">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Franja</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell className="num">Energía</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell className="num">Tiempo</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell className="num">Importe</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {bands.lines.map((b) => (
              <Table.Row key={b.band}>
                <Table.Cell>{b.label}</Table.Cell>
                <Table.Cell className="num">{kwh(b.energyWh)}</Table.Cell>
                <Table.Cell className="num">{minutes(b.minutes)}</Table.Cell>
                <Table.Cell className="num">{formatArs(b.energyCents + b.timeCents)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </TableRoot>
      </div>
      {bands.estimated ? (
        <Text as="p" size="1" color="gray" mt="2">
          Energía por franja estimada entre lecturas: ninguna lectura del medidor cayó justo en el cambio de franja.
        </Text>
      ) : null}
    </>
  );
}
