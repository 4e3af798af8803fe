// 'Importar tarjetas': a CSV uploaded with a plain multipart form (works without JavaScript). The
// API checks every row; when any is wrong nothing is imported and this page lists each wrong row
// with its messages, so the operator fixes the file and uploads it again.
import { Form, Link, useNavigation } from "react-router";
import { Button, Callout, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { BiDownload, BiErrorCircle, BiUpload } from "~/icons";
import { PageHeader } from "~/components/Page";
import { endpoints } from "#contract/endpoints";
import { UNREACHABLE_PROBLEM } from "~/lib/api.server";
import { requireUser } from "~/lib/auth.server";
import { dataWithError, redirectWithSuccess } from "~/lib/toast.server";
import { pageMeta } from "~/lib/meta";
import { TAG_CSV_COLUMNS, TAG_IMPORT_MAX_BYTES, TAG_IMPORT_MAX_ROWS } from "#domain/tag-csv";
import type { TagImportDto } from "#contract/dto";
import { apiFor, toastStatus, UNAVAILABLE } from "~/lib/resource.server";
import type { Route } from "./+types/import";

export const meta = pageMeta("Importar tarjetas");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context);
  return null;
}

interface Report {
  title: string;
  rows: { line: number; messages: string[] }[];
}

const fail = (context: Route.ActionArgs["context"], report: Report, status: number) => dataWithError(context, { report }, report.title, { status: toastStatus(context, status) });

/** "Importamos 3 tarjetas: 2 nuevas y 1 actualizada." */
export function importedMessage({ created, updated }: TagImportDto): string {
  const n = created + updated;
  const parts = [created ? `${created} ${created === 1 ? "nueva" : "nuevas"}` : null, updated ? `${updated} ${updated === 1 ? "actualizada" : "actualizadas"}` : null].filter(Boolean);
  return `Importamos ${n} ${n === 1 ? "tarjeta" : "tarjetas"}: ${parts.join(" y ")}.`;
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = await apiFor(request, context);
  let file: FormDataEntryValue | null;
  try {
    file = (await request.formData()).get("file");
  } catch {
    return fail(context, { title: "No pudimos leer el archivo. Probá de nuevo.", rows: [] }, 400);
  }
  if (!(file instanceof File) || file.size === 0) return fail(context, { title: "Elegí un archivo CSV para importar.", rows: [] }, 400);
  if (file.size > TAG_IMPORT_MAX_BYTES) return fail(context, { title: "El archivo supera 1 MB. Dividilo en partes más chicas.", rows: [] }, 413);
  const csv = new Blob([await file.arrayBuffer()], { type: "text/csv; charset=utf-8" });
  const result = await api.call(endpoints.tagImport, { body: csv });
  if (result.ok) return redirectWithSuccess("/tag", importedMessage(result.data));
  const { problem } = result;
  if (problem.type === UNREACHABLE_PROBLEM && result.status === 503) return fail(context, { title: UNAVAILABLE, rows: [] }, 503);
  const rows = Object.entries(problem.errors ?? {})
    .map(([key, messages]) => ({ line: Number(/^rows\[(\d+)\]$/.exec(key)?.[1] ?? NaN), messages }))
    .filter((r) => Number.isFinite(r.line))
    .sort((a, b) => a.line - b.line);
  const title = (problem.type !== UNREACHABLE_PROBLEM && problem.title) || "No pudimos importar el archivo. Revisalo y probá de nuevo.";
  return fail(context, { title, rows }, result.status >= 500 ? 502 : result.status);
}

export default function ImportTags({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const report = actionData && "report" in actionData ? actionData.report : undefined;
  return (
    <>
      <PageHeader title="Importar tarjetas" description="Subí una planilla CSV con tus tarjetas. Si alguna fila tiene un error no importamos nada, y te mostramos qué corregir." />
      {report ? (
        <Callout.Root color="red" role="alert" mb="5" data-testid="import-report">
          <Callout.Icon>
            <BiErrorCircle aria-hidden="true" />
          </Callout.Icon>
          <Flex direction="column" gap="2">
            <Text as="p" weight="bold">
              {report.title}
            </Text>
            {report.rows.length > 0 ? (
              <ul className="tag-import-errors">
                {report.rows.map((r) => (
                  <li key={r.line} data-testid="import-row-error">
                    <Text size="2">
                      <strong>Fila {r.line}:</strong> {r.messages.join(" ")}
                    </Text>
                  </li>
                ))}
              </ul>
            ) : null}
          </Flex>
        </Callout.Root>
      ) : null}
      <Flex direction="column" gap="5" className="tag-form">
        <Card size="3" asChild>
          <section aria-labelledby="import-file">
            <Heading as="h2" size="4" mb="3" id="import-file">
              Archivo
            </Heading>
            <Form method="post" encType="multipart/form-data">
              <Flex direction="column" gap="4">
                <Flex direction="column" gap="1">
                  <Text as="label" htmlFor="import-file-input" size="2" weight="medium">
                    Planilla CSV
                  </Text>
                  <input id="import-file-input" name="file" type="file" accept=".csv,text/csv" required aria-describedby="import-file-hint" className="photo-uploader-input" />
                  <Text id="import-file-hint" size="1" color="gray">
                    Hasta 1 MB y {TAG_IMPORT_MAX_ROWS.toLocaleString("es-AR")} filas. Las tarjetas que ya tenés (mismo código) se actualizan.
                  </Text>
                </Flex>
                <Flex gap="3" wrap="wrap">
                  <Button type="submit" size="3" disabled={busy}>
                    <BiUpload aria-hidden="true" /> Importar
                  </Button>
                  <Button asChild size="3" variant="soft" color="gray">
                    <Link to="/tag">Cancelar</Link>
                  </Button>
                </Flex>
              </Flex>
            </Form>
          </section>
        </Card>
        <Card size="3" asChild>
          <section aria-labelledby="import-format">
            <Heading as="h2" size="4" mb="3" id="import-format">
              Formato
            </Heading>
            <Flex direction="column" gap="2">
              <Text as="p" size="2">
                Columnas separadas por punto y coma, con esta primera fila: <code className="tag-mono">{TAG_CSV_COLUMNS.join(";")}</code>
              </Text>
              <Text as="p" size="2">
                <strong>vencimiento</strong> como dd/mm/aaaa (vacío: no vence); <strong>bloqueada</strong> «sí» o «no»; <strong>grupo</strong> el nombre de uno de tus grupos de acceso (vacío: sin grupo).
              </Text>
              <Text as="p" size="2" color="gray">
                Excel y Google Sheets lo guardan así con «CSV UTF-8». Para empezar, exportá tus tarjetas y usá ese archivo como modelo.
              </Text>
              <div>
                <Button asChild size="2" variant="soft">
                  <a href="/tag/export.csv" download>
                    <BiDownload aria-hidden="true" /> Exportar mis tarjetas
                  </a>
                </Button>
              </div>
            </Flex>
          </section>
        </Card>
      </Flex>
    </>
  );
}
