// "Firmware y diagnóstico" (issue 25): the charger's firmware (version, the last update asked
// and its progress, and its model's chargers when the update went to all of them), the form that
// sends UpdateFirmware, and the diagnostics asked of it with their files. Plain forms and tables:
// works without JavaScript.
import { Form, Link } from "react-router";
import { Button, Callout, Flex, Text } from "@radix-ui/themes";
import { BiCheckCircle, BiDownload, BiErrorCircle } from "~/icons";
import { TitledCard } from "~/components/Page";
import type { ChargerFirmwareDto, DiagnosticsDto, FirmwareUpdateDto, Page } from "#contract/dto";
// Not ./format nor ~/components/form: sharing those with the charger screen splits them into
// chunks of their own and costs that screen ~1 KB of its JS budget (docs/benchmarks.md).
import { formatDateTime } from "~/components/charts/format";

export const DIAGNOSTICS_SHOWN = 5;

/** What the last firmware or diagnostics form gave: the answer, or the fields' errors with what was typed. */
export interface MaintenanceFormState {
  intent: "firmware" | "diagnostics";
  outcome?: string;
  message?: string;
  results?: FirmwareUpdateDto["results"];
  errors?: Record<string, string[]>;
  submitted?: Record<string, string>;
}

const OUTCOME_LABELS: Record<string, string> = { accepted: "Aceptó", rejected: "Rechazó", timeout: "No respondió", offline: "Sin conexión", error: "Error" };

function formatBytes(n: number | null): string {
  if (n === null) return "—";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toLocaleString("es-AR", { maximumFractionDigits: 1 })} KB`;
  return `${(n / 1024 / 1024).toLocaleString("es-AR", { maximumFractionDigits: 1 })} MB`;
}

function Field({ id, name, label, hint, type = "text", defaultValue, errors, placeholder }: { id: string; name: string; label: string; hint?: string; type?: string; defaultValue?: string; errors?: string[]; placeholder?: string }) {
  return (
    <Flex direction="column" gap="1" className="maintenance-field">
      <Text as="label" htmlFor={id} size="2">
        {label}
      </Text>
      <input
        id={id}
        name={name}
        type={type}
        className="native-input"
        defaultValue={defaultValue}
        placeholder={placeholder}
        autoComplete="off"
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-error${hint ? ` ${id}-hint` : ""}` : hint ? `${id}-hint` : undefined}
      />
      {/* The same slot as FieldBelow: the first error, or the hint. */}
      <div className="field-below" aria-live="polite">
        {errors?.length ? (
          <Text as="div" id={`${id}-error`} size="2" color="red" data-testid={`${name}-error`}>
            {errors[0]}
          </Text>
        ) : null}
        {hint ? (
          <Text as="div" id={`${id}-hint`} size="1" color="gray" className={errors?.length ? "visually-hidden" : undefined}>
            {hint}
          </Text>
        ) : null}
      </div>
    </Flex>
  );
}

function Answer({ state }: { state: MaintenanceFormState }) {
  if (!state.message) return null;
  const ok = state.outcome === "accepted";
  return (
    <Callout.Root color={ok ? "green" : state.outcome === "partial" ? "amber" : "red"} role="status" data-testid={`maintenance-${state.intent}-result`}>
      <Callout.Icon>{ok ? <BiCheckCircle aria-hidden="true" /> : <BiErrorCircle aria-hidden="true" />}</Callout.Icon>
      <Callout.Text>{state.message}</Callout.Text>
      {state.results && state.results.length > 1 ? (
        <ul className="maintenance-results">
          {state.results.map((r) => (
            <li key={r.chargerId}>
              <Text size="2">
                <strong>{r.name}</strong>: {OUTCOME_LABELS[r.outcome] ?? r.outcome}. {r.message}
              </Text>
            </li>
          ))}
        </ul>
      ) : null}
    </Callout.Root>
  );
}

export function MaintenanceCard({
  chargerId,
  firmware,
  diagnostics,
  canCommand,
  busy,
  state,
}: {
  chargerId: string;
  firmware: ChargerFirmwareDto | null;
  diagnostics: Page<DiagnosticsDto> | null;
  canCommand: boolean;
  busy: boolean;
  state?: MaintenanceFormState;
}) {
  const own = firmware?.charger;
  const siblings = firmware?.model && firmware.model.chargers.length > 1 ? firmware.model : null;
  const fw = state?.intent === "firmware" ? state : undefined;
  const diag = state?.intent === "diagnostics" ? state : undefined;
  return (
    <Flex direction="column" gap="6">
      <TitledCard title="Firmware" id="charger-firmware">
        <div>
          {own ? (
            <dl className="maintenance-facts" data-testid="firmware-state">
              <dt>Versión</dt>
              <dd>{own.firmwareVersion ?? "Sin informar (la informa al arrancar)"}</dd>
              <dt>Última actualización pedida</dt>
              <dd className="wrap-anywhere">{own.location && own.requestedAt ? `${own.location}, el ${formatDateTime(own.requestedAt)}` : "Ninguna"}</dd>
              <dt>Estado</dt>
              <dd data-testid="firmware-status">
                {own.statusLabel}
                {own.statusAt ? ` (${formatDateTime(own.statusAt)})` : ""}
              </dd>
            </dl>
          ) : (
            <Text as="p" size="2" color="red" role="alert">
              No pudimos leer el firmware del cargador. Recargá la página.
            </Text>
          )}
          {siblings ? (
            <div className="table-scroll" data-testid="firmware-model">
              <table className="event-table">
                <caption className="maintenance-caption">
                  Cargadores del modelo {siblings.brandName ? `${siblings.brandName} ` : ""}
                  {siblings.model}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Cargador</th>
                    <th scope="col">Versión</th>
                    <th scope="col">Estado</th>
                    <th scope="col">Pedida</th>
                  </tr>
                </thead>
                <tbody>
                  {siblings.chargers.map((c) => (
                    <tr key={c.id} data-testid="firmware-model-row">
                      <td>{c.id === chargerId ? <strong>{c.name}</strong> : <Link to={`/charger/edit/${c.id}`}>{c.name}</Link>}</td>
                      <td className="nowrap">{c.firmwareVersion ?? "—"}</td>
                      <td>{c.statusLabel}</td>
                      <td className="nowrap">{c.requestedAt ? formatDateTime(c.requestedAt) : "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {canCommand ? (
            <Form method="post" className="maintenance-form" aria-labelledby="charger-firmware-title" data-testid="firmware-form">
              <input type="hidden" name="intent" value="firmware" />
              <Field
                id="firmware-location"
                name="location"
                label="Dirección del firmware"
                placeholder="https://…"
                hint="La que da el fabricante (http, https, ftp o ftps). El cargador lo descarga de ahí."
                defaultValue={fw?.submitted?.location}
                errors={fw?.errors?.location}
              />
              <Field
                id="firmware-retrieve-at"
                name="retrieveAt"
                type="datetime-local"
                label="Descargar a partir de (opcional)"
                hint="Hora de Buenos Aires. Vacío: ahora."
                defaultValue={fw?.submitted?.retrieveAt}
                errors={fw?.errors?.retrieveAt}
              />
              {siblings ? (
                <Text as="label" size="2" className="maintenance-check">
                  <input type="checkbox" name="allOfModel" value="true" defaultChecked={fw?.submitted?.allOfModel === "true"} /> Actualizar también los otros {siblings.chargers.length - 1} cargadores de este modelo
                </Text>
              ) : null}
              {fw?.errors?.allOfModel ? (
                <Text as="p" size="2" color="red" role="alert">
                  {fw.errors.allOfModel[0]}
                </Text>
              ) : null}
              <Flex>
                <Button type="submit" variant="soft" disabled={busy}>
                  Actualizar firmware
                </Button>
              </Flex>
            </Form>
          ) : null}
          {fw ? <Answer state={fw} /> : null}
        </div>
      </TitledCard>

      <TitledCard title="Diagnóstico" id="charger-diagnostics">
        <div>
          <Text as="p" size="2" color="gray" mb="3">
            El cargador sube su archivo de diagnóstico a Enchufá (hasta 20 MB) y lo descargás desde acá. Se guardan los últimos 10.
          </Text>
          {canCommand ? (
            <Form method="post" className="maintenance-form" aria-labelledby="charger-diagnostics-title" data-testid="diagnostics-form">
              <input type="hidden" name="intent" value="diagnostics" />
              <Flex gap="3" wrap="wrap" className="maintenance-row">
                <Field id="diagnostics-from" name="from" type="datetime-local" label="Desde (opcional)" defaultValue={diag?.submitted?.from} errors={diag?.errors?.from} />
                <Field id="diagnostics-to" name="to" type="datetime-local" label="Hasta (opcional)" defaultValue={diag?.submitted?.to} errors={diag?.errors?.to} />
              </Flex>
              <Flex>
                <Button type="submit" variant="soft" disabled={busy}>
                  Pedir diagnóstico
                </Button>
              </Flex>
            </Form>
          ) : null}
          {diag ? <Answer state={diag} /> : null}
          {diagnostics === null ? (
            <Text as="p" size="2" color="red" role="alert" mt="3">
              No pudimos leer los diagnósticos. Recargá la página.
            </Text>
          ) : diagnostics.items.length === 0 ? (
            <Text as="p" size="2" color="gray" mt="3" data-testid="diagnostics-empty">
              Todavía no pediste diagnósticos a este cargador.
            </Text>
          ) : (
            <div className="table-scroll">
              <table className="event-table" data-testid="diagnostics-table">
                <caption className="visually-hidden">Diagnósticos pedidos, los más recientes primero</caption>
                <thead>
                  <tr>
                    <th scope="col">Pedido</th>
                    <th scope="col">Estado</th>
                    <th scope="col">Archivo</th>
                  </tr>
                </thead>
                <tbody>
                  {diagnostics.items.map((d) => (
                    <tr key={d.id} data-testid="diagnostics-row" data-status={d.status}>
                      <td className="nowrap">{formatDateTime(d.requestedAt)}</td>
                      <td>{d.statusLabel}</td>
                      <td className="wrap-anywhere">
                        {d.status === "UPLOADED" ? (
                          <a href={`/charger/edit/${chargerId}/diagnostics/${d.id}`} download data-testid="diagnostics-download">
                            <BiDownload aria-hidden="true" /> {d.fileName ?? "diagnóstico"} ({formatBytes(d.sizeBytes)})
                          </a>
                        ) : (
                          (d.fileName ?? "—")
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      </TitledCard>
    </Flex>
  );
}
