import { z, type ZodType } from "zod";
import { codeVersion } from "../code-version";
import { OPERATIONS, type MultipartBody, type Operation, type RawResponse } from "./operations";
import { errorBody } from "./wire";

/**
 * The OpenAPI 3.1 document of the API, generated from the operations catalogue (operations.ts):
 * bodies and queries from the zod schemas the routes parse (as input), responses from the
 * schemas their JSON parses with (openapi.test.ts checks it), the error shape, and the two ways
 * to authenticate: a session cookie (the browser) or a bearer access token (scripts).
 */
type JsonSchema = Record<string, unknown>;

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect), inline: the document has no other $defs */
export function jsonSchema(schema: ZodType, io: "input" | "output"): JsonSchema {
  const { $schema, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  void $schema;
  if (JSON.stringify(rest).includes('"$ref"')) throw new Error("a documented schema must not refer to shared definitions; inline it");
  return rest;
}

/** "/api/projects/{projectId}" for "api/projects/[projectId]" */
export const openApiPath = (route: string) => "/" + route.replace(/\[(\w+)\]/g, "{$1}");

const isMultipart = (body: Operation["body"]): body is MultipartBody => typeof body === "object" && body !== null && "multipart" in body;
const isRaw = (response: Operation["response"]): response is RawResponse => "raw" in response;

function parameters(op: Operation) {
  const path = [...op.route.matchAll(/\[(\w+)\]/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: op.params?.[name] ? jsonSchema(op.params[name], "input") : { type: "string" },
  }));
  const query = Object.entries(op.query?.shape ?? {}).map(([name, field]) => {
    const schema = jsonSchema(field as ZodType, "input");
    return { name, in: "query", required: !(field as ZodType).safeParse(undefined).success, schema };
  });
  return [...path, ...query];
}

function requestBody(op: Operation) {
  if (!op.body) return undefined;
  if (isMultipart(op.body)) {
    const fields = jsonSchema(op.body.multipart, "input") as { properties?: Record<string, unknown>; required?: string[] };
    const files = Object.fromEntries(Object.entries(op.body.files).map(([name, description]) => [name, { type: "string", contentMediaType: "application/octet-stream", description }]));
    return { required: true, content: { "multipart/form-data": { schema: { ...fields, properties: { ...fields.properties, ...files } } } } };
  }
  return { required: true, content: { "application/json": { schema: jsonSchema(op.body, "input") } } };
}

function security(op: Operation) {
  if (op.access === "public") return [];
  if (op.tokens === "session" || op.access === "admin") return [{ session: [] }];
  const scopes = op.method === "GET" ? ["read", "label", "write"] : op.tokens === "label" ? ["label", "write"] : ["write"];
  return [{ session: [] }, { bearer: scopes }];
}

function operation(op: Operation) {
  const ok = isRaw(op.response)
    ? { description: "OK", content: Object.fromEntries(Object.entries(op.response.raw).map(([type, description]) => [type, { schema: { description } }])) }
    : { description: "OK", content: { "application/json": { schema: jsonSchema(op.response, "output") } } };
  const access = { public: "Anyone.", user: "Any signed-in user (project routes: members).", owner: "The project's owners.", researcher: "Researchers and administrators.", admin: "Administrators." }[op.access];
  return {
    operationId: `${op.method.toLowerCase()}${op.route.replace(/^api/, "").replace(/\[(\w+)\]/g, "By-$1").replace(/(?:^|[/\-.])(\w)/g, (_m, c: string) => c.toUpperCase())}`,
    tags: [op.tag],
    summary: op.summary,
    description: [op.description, `Access: ${access}`].filter(Boolean).join(" "),
    parameters: parameters(op),
    requestBody: requestBody(op),
    security: security(op),
    responses: { "200": ok, "4XX": { $ref: "#/components/responses/Error" }, "5XX": { $ref: "#/components/responses/Error" } },
  };
}

export function openApiDocument(operations: Operation[] = OPERATIONS) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) (paths[openApiPath(op.route)] ??= {})[op.method.toLowerCase()] = operation(op);
  return {
    openapi: "3.1.0",
    info: {
      title: "Cereal Studio API",
      version: codeVersion(),
      description:
        "Label a sample, estimate clustering metrics, watch them converge. Scripts authenticate with a personal access token (your name > Access tokens) sent as `Authorization: Bearer cereal_…`; the token acts as you, within its scope. Every error is `{ error: { code, message } }`.",
    },
    servers: [{ url: "/" }],
    tags: [...new Set(operations.map((op) => op.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: jsonSchema(errorBody, "output") },
      responses: { Error: { description: "An error; the status matches the code (400 bad_request, 401, 403, 404, 409, 413, 415, 429, 500 internal).", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } } },
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "A personal access token (cereal_<prefix>_<secret>). The requirement lists the scopes that may call the operation." },
        session: { type: "apiKey", in: "cookie", name: "next-auth.session-token", description: "The browser's session (signed in through the app); state-changing requests must come from the app's origin." },
      },
    },
  };
}
