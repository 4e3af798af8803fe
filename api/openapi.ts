// GET /api/openapi.json — the Business API contract (OpenAPI 3.1), assembled from the same
// endpoint registry (contract/endpoints.ts) and the zod schemas the handlers validate with.
// Response bodies are described by contract/dto.ts.
import { z } from "zod";
import { endpoints, type EndpointDef } from "#contract/endpoints";
import { ENDPOINT_RULES } from "./access";
import { PERMISSIONS, type Permission } from "../domain/permissions";

type Json = Record<string, unknown>;

interface Op {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  tag: string;
  summary: string;
  /** Response description (contract/dto.ts name) and status. */
  ok: { status: number; type?: string; description?: string; content?: string };
  body?: z.ZodType;
  multipart?: boolean;
  /** A text/csv request body (the tag import). */
  csv?: boolean;
  query?: z.ZodType;
  public?: boolean;
  errors?: number[];
}

function schemaOf(s: z.ZodType): Json {
  const json = z.toJSONSchema(s, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as Json;
  delete json.$schema;
  return json;
}

function queryParams(s: z.ZodType): Json[] {
  const json = schemaOf(s) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    schema,
  }));
}

const ERROR_TEXT: Record<number, string> = {
  400: "Solicitud inválida",
  401: "Sesión inválida o vencida",
  403: "E-mail sin verificar, empresa no registrada o no aprobada, no miembro de la empresa pedida, o el rol no lo permite",
  410: "La invitación ya se usó, venció o fue revocada",
  502: "No se pudo enviar el correo",
  404: "No existe (o es de otra empresa)",
  409: "Conflicto (duplicado o en uso)",
  413: "Demasiado grande",
  415: "Tipo de contenido no soportado",
  422: "Datos inválidos: `errors` tiene los mensajes por campo",
};

const id = { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } };

/** Every operation, from the endpoint registry (contract/endpoints.ts), in its order. */
export const OPERATIONS: Op[] = Object.values(endpoints as Record<string, EndpointDef>).map((e) => ({
  method: e.method.toLowerCase() as Op["method"],
  path: e.path.replace(/:(\w+)/g, "{$1}"),
  tag: e.doc.tag,
  summary: e.doc.summary,
  ok: e.doc.ok,
  ...(e.body && { body: e.body }),
  ...(e.query && { query: e.query }),
  ...(e.multipart && { multipart: true }),
  ...(e.csv && { csv: true }),
  ...(e.permission === "public" && { public: true }),
  ...(e.doc.errors && { errors: e.doc.errors }),
}));

const problemSchema = {
  type: "object",
  required: ["type", "title", "status"],
  properties: {
    type: { type: "string", examples: ["urn:enchufa:problem:validation"] },
    title: { type: "string", examples: ["Revisá los datos ingresados."] },
    status: { type: "integer" },
    detail: { type: "string" },
    errors: { type: "object", additionalProperties: { type: "array", items: { type: "string" } }, examples: [{ cuit: ["No pudimos usar ese CUIT. Si es el de tu empresa, escribinos."] }] },
    requestId: { type: "string" },
  },
};

export function buildOpenApiDocument(): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of OPERATIONS) {
    const parameters: Json[] = [];
    if (op.path.includes("{id}")) parameters.push(id);
    for (const [, name] of op.path.matchAll(/\{(identity|connector|businessId)\}/g)) {
      parameters.push({ name, in: "path", required: true, schema: name === "connector" ? { type: "integer", minimum: 1 } : name === "businessId" ? { type: "string", format: "uuid" } : { type: "string" } });
    }
    if (op.path.includes("{file}")) parameters.push({ name: "file", in: "path", required: true, schema: { type: "string", pattern: "^[0-9a-f]{64}\\.(jpg|png|gif)$" } });
    if (op.query) parameters.push(...queryParams(op.query));
    if (!op.public) {
      parameters.push({
        name: "X-Enchufa-Business",
        in: "header",
        required: false,
        description: "La empresa en la que actúa la solicitud (id), para quien pertenece a varias; se comprueba que sea miembro (403 si no).",
        schema: { type: "string", format: "uuid" },
      });
    }
    if (op.method === "post" && !op.public && !/^\/(Account|Business\/Images|Business\/BusinessUser|Business\/Member$)/.test(op.path)) {
      parameters.push({
        name: "Idempotency-Key",
        in: "header",
        required: false,
        description:
          "Clave única de la operación (8 a 128 letras, números, - o _). Repetida por la misma empresa, no crea otra vez: responde lo mismo que la primera (`Idempotent-Replayed: true`).",
        schema: { type: "string", pattern: "^[A-Za-z0-9_-]{8,128}$" },
      });
    }

    const responses: Record<string, Json> = {};
    const okDescription = op.ok.description ?? (op.ok.type ? `\`${op.ok.type}\` (contract/dto.ts)` : "Sin contenido");
    responses[String(op.ok.status)] =
      op.ok.status === 204
        ? { description: okDescription }
        : { description: okDescription, content: { [op.ok.content ?? "application/json"]: { schema: op.ok.content?.startsWith("image") ? { type: "string", format: "binary" } : { type: op.ok.content?.startsWith("text/") ? "string" : "object" } } } };
    const errors = new Set([...(op.public ? [] : [401, 403]), ...(op.errors ?? [])]);
    for (const status of [...errors].sort()) {
      responses[String(status)] = { description: ERROR_TEXT[status] ?? "Error", content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } };
    }
    if (!op.public) responses["429"] = { description: "Demasiadas solicitudes (ver Retry-After)", content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } };
    responses["500"] = { description: "Error inesperado (ver requestId)", content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } };

    const operation: Json = { tags: [op.tag], summary: op.summary, operationId: `${op.method}${op.path.replace(/[{}/.]+(\w)?/g, (_, ch: string | undefined) => (ch ?? "").toUpperCase())}`, responses };
    // Who may call it (api/access.ts): the permission and the roles that hold it.
    const rule = ENDPOINT_RULES[`${op.method.toUpperCase()} ${op.path.replace(/\{(\w+)\}/g, ":$1")}`];
    if (rule && rule.permission !== "public") {
      operation["x-enchufa-permission"] = rule.permission;
      if (rule.permission !== "account") operation["x-enchufa-roles"] = [...PERMISSIONS[rule.permission as Permission].roles];
    }
    if (parameters.length) operation.parameters = parameters;
    if (op.public) operation.security = [];
    if (op.body) operation.requestBody = { required: true, content: { "application/json": { schema: schemaOf(op.body) } } };
    if (op.csv) operation.requestBody = { required: true, content: { "text/csv": { schema: { type: "string", description: "idTag;titular;email;vencimiento (dd/mm/aaaa);bloqueada (sí/no);grupo" } } } };
    if (op.multipart) {
      operation.requestBody = {
        required: true,
        content: {
          "multipart/form-data": {
            schema: { type: "object", required: ["Image"], properties: { Image: { type: "string", format: "binary", description: "JPEG, PNG o GIF (por contenido), máximo 800 KB" } } },
          },
        },
      };
    }
    (paths[op.path] ??= {})[op.method] = operation;
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Enchufá — Business API",
      version: "1.0.0",
      description:
        "API de negocio del panel de operadores de carga. JSON en camelCase; errores application/problem+json con mensajes en español por campo. " +
        "Cada solicitud lleva `Authorization: Bearer <ID token de Firebase>` y todo se limita a la empresa del usuario (el id de otra empresa responde 404). " +
        "Quien pertenece a varias empresas elige con el encabezado `X-Enchufa-Business: <id de empresa>` (sin él, la última en la que ingresó); la membresía se comprueba en cada solicitud. " +
        "Cada operación indica el permiso que pide (`x-enchufa-permission`) y los roles que lo tienen (`x-enchufa-roles`); otro rol recibe 403.",
    },
    servers: [{ url: "/api" }],
    security: [{ firebase: [] }],
    paths,
    components: {
      securitySchemes: { firebase: { type: "http", scheme: "bearer", bearerFormat: "Firebase ID token" } },
      schemas: { Problem: problemSchema },
    },
  };
}
