import { z, type ZodType } from "zod";
import type { Access } from "../http/route";
import type { TokenRule } from "../http/token-scope";
import { changeRoleInput, createUserInput, resetPasswordInput } from "../auth/users";
import { createTokenInput } from "../auth/tokens";
import { acceptInviteInput, createInviteInput } from "../projects/invites";
import { addMemberInput } from "../projects/members";
import { projectSettingsInput } from "../projects/project-settings";
import { deleteProjectInput } from "../projects/projects";
import { addClusteringInput } from "../projects/clusterings";
import { candidateClusteringInput } from "../projects/candidate-clusterings";
import { importOptions } from "../imports/imports";
import { addClassInput } from "../labeling/classes";
import { classExamplesQuery } from "../labeling/class-examples";
import { listItemsQuery } from "../labeling/items";
import { labelOverviewQuery } from "../labeling/label-overview";
import { correctLabelInput, resolveTieInput, submitLabelInput, undoLabelInput } from "../labeling/labels";
import { releaseLeasesInput } from "../labeling/leases";
import { nextTasksInput } from "../labeling/tasks";
import { contingencyQuery } from "../evaluation/contingency-view";
import { labelFreeQuery } from "../evaluation/label-free";
import { rankingQuery } from "../evaluation/ranking";
import { simulationInput } from "../evaluation/simulations";
import { exportFormat } from "../exports/exports";
import { reportQuery } from "../report/project-report";
import * as account from "./account-responses";
import * as projects from "./project-responses";
import * as labeling from "./labeling-responses";
import * as evaluation from "./evaluation-responses";
import * as webhooks from "./webhook-responses";
import { okBody } from "./wire";
import { webhookInput } from "../webhooks/webhooks";

/**
 * Every operation of the API as the OpenAPI document describes it: the route file it lives in,
 * the access level route() enforces, and the zod schemas its handler parses (query, body) and
 * its service returns (response). openapi.test.ts holds this list to the route files: every
 * exported handler is here or in EXCLUDED_ROUTES, each access level matches route()'s, and each
 * documented response parses the real one.
 */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** a multipart body: its text fields (a zod object) and its file parts */
export interface MultipartBody {
  multipart: z.ZodObject;
  files: Record<string, string>;
}
/** a response that is not JSON: a file, an image, an event stream, text */
export interface RawResponse {
  raw: Record<string, string>;
}

export interface Operation {
  method: Method;
  /** the route's folder under app/, e.g. "api/projects/[projectId]/labels" */
  route: string;
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  /** route()'s `tokens` option: "label" lets label tokens change it, "session" refuses tokens */
  tokens?: TokenRule;
  /** path parameters that are not plain strings */
  params?: Record<string, ZodType>;
  query?: z.ZodObject;
  body?: ZodType | MultipartBody;
  response: ZodType | RawResponse;
}

/** Route files the document leaves out, and why. */
export const EXCLUDED_ROUTES: Record<string, string> = {
  "api/auth/[...nextauth]": "next-auth's own sign-in endpoints (form posts with its CSRF token, for the browser); scripts use access tokens instead",
  "api/[...path]": "the catch-all that answers any unknown /api path with a JSON 404",
};

const owner = "Project owners only (the service checks the role).";
const index = z.coerce.number().int().min(0);

export const OPERATIONS: Operation[] = [
  // who is asking, tokens, users
  { method: "GET", route: "api/me", tag: "Account", summary: "Who is asking", access: "user", response: account.meResponse },
  { method: "GET", route: "api/tokens", tag: "Account", summary: "Your access tokens", description: "Sessions only: a token cannot list tokens.", access: "user", tokens: "session", response: account.tokensResponse },
  {
    method: "POST",
    route: "api/tokens",
    tag: "Account",
    summary: "Make an access token",
    description: "Sessions only. The response carries the token; it is never shown again. Scopes: read (GET only), label (read and answer tasks), write (all but token and user management).",
    access: "user",
    tokens: "session",
    body: createTokenInput,
    response: account.createdTokenResponse,
  },
  { method: "DELETE", route: "api/tokens/[tokenId]", tag: "Account", summary: "Revoke an access token", description: "Sessions only; effective at once.", access: "user", tokens: "session", response: account.accessToken },
  { method: "GET", route: "api/admin/users", tag: "Administration", summary: "Every user", access: "admin", response: account.usersResponse },
  { method: "POST", route: "api/admin/users", tag: "Administration", summary: "Create a user", access: "admin", body: createUserInput, response: account.userResponse },
  { method: "PATCH", route: "api/admin/users/[userId]", tag: "Administration", summary: "Change a user's global role", access: "admin", body: changeRoleInput, response: account.userResponse },
  {
    method: "POST",
    route: "api/admin/users/[userId]/password",
    tag: "Administration",
    summary: "Reset a user's password",
    description: "Ends the user's sessions and revokes their access tokens.",
    access: "admin",
    body: resetPasswordInput,
    response: okBody,
  },
  { method: "GET", route: "api/invites/[token]", tag: "Account", summary: "What an invite link is for", access: "public", response: account.inviteDescription },
  {
    method: "POST",
    route: "api/invites/[token]",
    tag: "Account",
    summary: "Accept an invite",
    description: "Signed in: joins as that user. Signed out: name, email and password create an annotator account.",
    access: "public",
    body: acceptInviteInput,
    response: account.inviteAccepted,
  },

  // operations
  { method: "GET", route: "api/health", tag: "Operations", summary: "Liveness", access: "public", response: account.healthResponse },
  { method: "GET", route: "api/ready", tag: "Operations", summary: "Readiness (503 when not ready, same body)", access: "public", response: account.readinessResponse },
  { method: "GET", route: "api/metrics", tag: "Operations", summary: "Prometheus metrics", access: "admin", response: { raw: { "text/plain": "Prometheus text exposition format" } } },
  { method: "GET", route: "api/openapi.json", tag: "Operations", summary: "This document", access: "user", response: { raw: { "application/json": "an OpenAPI 3.1 document" } } },

  // projects
  { method: "GET", route: "api/projects", tag: "Projects", summary: "Your projects, with the latest NMI of each clustering", access: "user", response: projects.projectsResponse },
  {
    method: "POST",
    route: "api/projects",
    tag: "Projects",
    summary: "Import a bundle as a new project",
    description: "Researchers. Multipart, streamed: the fields name, description, mode and either one part `bundle` (a .zip of the bundle folder) or parts `files` named by their paths inside the bundle.",
    access: "researcher",
    body: { multipart: importOptions, files: { bundle: "a .zip of the bundle folder", files: "the bundle's files one by one (repeat the part), each named by its path in the bundle" } },
    response: projects.importResponse,
  },
  { method: "GET", route: "api/projects/[projectId]", tag: "Projects", summary: "A project: classes, clusterings, members", access: "user", response: projects.projectResponse },
  { method: "DELETE", route: "api/projects/[projectId]", tag: "Projects", summary: "Delete a project (type its name to confirm)", access: "owner", body: deleteProjectInput, response: okBody },
  { method: "GET", route: "api/projects/[projectId]/settings", tag: "Projects", summary: "The project's settings", access: "user", response: projects.settingsResponse },
  { method: "PATCH", route: "api/projects/[projectId]/settings", tag: "Projects", summary: "Change settings", access: "owner", body: projectSettingsInput, response: projects.settingsResponse },
  { method: "GET", route: "api/projects/[projectId]/members", tag: "Members", summary: "Members", description: owner, access: "user", response: projects.membersResponse },
  { method: "POST", route: "api/projects/[projectId]/members", tag: "Members", summary: "Add an existing user", access: "owner", body: addMemberInput, response: projects.membersResponse },
  { method: "DELETE", route: "api/projects/[projectId]/members/[userId]", tag: "Members", summary: "Remove a member", description: owner, access: "user", response: projects.membersResponse },
  { method: "GET", route: "api/projects/[projectId]/invites", tag: "Members", summary: "Open invites", description: owner, access: "user", response: projects.invitesResponse },
  { method: "POST", route: "api/projects/[projectId]/invites", tag: "Members", summary: "Make an invite link (shown once)", access: "owner", body: createInviteInput, response: projects.inviteCreated },
  { method: "DELETE", route: "api/projects/[projectId]/invites/[inviteId]", tag: "Members", summary: "Revoke an invite", description: owner, access: "user", response: okBody },
  { method: "POST", route: "api/projects/[projectId]/classes", tag: "Projects", summary: "Add a class (open class mode)", access: "user", body: addClassInput, response: projects.classAdded },
  {
    method: "POST",
    route: "api/projects/[projectId]/clusterings",
    tag: "Clusterings",
    summary: "Upload a clustering",
    description: "Multipart: name, optional k, the int32 [N] cluster ids as `file`, optionally the float32 [N, K] `soft` assignments (.npy).",
    access: "owner",
    body: { multipart: addClusteringInput, files: { file: "int32 [N] cluster ids (.npy)", soft: "optional float32 [N, K] soft assignments (.npy)" } },
    response: projects.clusteringAdded,
  },
  { method: "GET", route: "api/projects/[projectId]/clusterings/candidates", tag: "Clusterings", summary: "Embedding spaces and candidate clustering jobs", description: owner, access: "user", response: projects.candidateJobsResponse },
  { method: "POST", route: "api/projects/[projectId]/clusterings/candidates", tag: "Clusterings", summary: "Queue a k-means or spectral clustering", access: "owner", body: candidateClusteringInput, response: projects.candidateQueued },

  // labeling
  {
    method: "POST",
    route: "api/projects/[projectId]/tasks/next",
    tag: "Labeling",
    summary: "Lease the next tasks",
    description: "A POST: handing out tasks leases them. Label-scoped tokens may call it.",
    access: "user",
    tokens: "label",
    query: nextTasksInput,
    response: labeling.nextTasksResponse,
  },
  { method: "POST", route: "api/projects/[projectId]/tasks/release", tag: "Labeling", summary: "Give leased tasks back", access: "user", tokens: "label", body: releaseLeasesInput, response: labeling.leasesReleased },
  { method: "POST", route: "api/projects/[projectId]/tasks/[taskId]/resolve", tag: "Labeling", summary: "Resolve a tied vote", access: "owner", body: resolveTieInput, response: labeling.tieResolved },
  {
    method: "POST",
    route: "api/projects/[projectId]/labels",
    tag: "Labeling",
    summary: "Answer a task (label, skip or unsure)",
    description: "Idempotent per idempotencyKey. Clusterwise: classIndex; pairwise: answer.",
    access: "user",
    tokens: "label",
    body: submitLabelInput,
    response: labeling.labelSubmitted,
  },
  { method: "POST", route: "api/projects/[projectId]/labels/undo", tag: "Labeling", summary: "Undo your last answer", access: "user", tokens: "label", body: undoLabelInput, response: labeling.labelUndone },
  { method: "PATCH", route: "api/projects/[projectId]/labels/[labelId]", tag: "Labeling", summary: "Correct a label", access: "owner", body: correctLabelInput, response: labeling.labelCorrected },
  { method: "GET", route: "api/projects/[projectId]/items", tag: "Items", summary: "Items, a page at a time, or one cell of the contingency view", description: owner, access: "user", query: listItemsQuery, response: labeling.itemsResponse },
  {
    method: "GET",
    route: "api/projects/[projectId]/items/[index]/image",
    tag: "Items",
    summary: "An item's image",
    access: "user",
    params: { index },
    response: { raw: { "image/*": "the image as uploaded, with an ETag (If-None-Match answers 304)" } },
  },
  { method: "GET", route: "api/projects/[projectId]/examples", tag: "Items", summary: "Labeled examples of each class", access: "user", query: classExamplesQuery, response: labeling.classExamplesResponse },
  { method: "GET", route: "api/projects/[projectId]/label-overview", tag: "Labeling", summary: "Labels per class and annotator, agreement, recent labels, ties", description: owner, access: "user", query: labelOverviewQuery, response: labeling.labelOverviewResponse },

  // estimates and evaluation
  { method: "GET", route: "api/projects/[projectId]/progress", tag: "Estimates", summary: "Labels, batch, round in progress and the latest estimates", access: "user", response: evaluation.projectSnapshotResponse },
  {
    method: "GET",
    route: "api/projects/[projectId]/events",
    tag: "Estimates",
    summary: "The progress snapshot as a live stream",
    description: "Server-sent events: each `data:` line is the JSON of GET …/progress, sent when it changes.",
    access: "user",
    response: { raw: { "text/event-stream": "server-sent events; each data line holds a progress snapshot" } },
  },
  { method: "GET", route: "api/projects/[projectId]/rounds", tag: "Estimates", summary: "Every round with its estimates", access: "user", response: evaluation.roundsResponse },
  {
    method: "POST",
    route: "api/projects/[projectId]/rounds/[index]/[action]",
    tag: "Estimates",
    summary: "Retry a failed round or cancel a queued one",
    description: owner,
    access: "user",
    params: { index, action: z.enum(["retry", "cancel"]) },
    response: evaluation.roundAction,
  },
  { method: "GET", route: "api/projects/[projectId]/ranking", tag: "Estimates", summary: "Clusterings ranked by their latest estimate and by ACE", access: "owner", query: rankingQuery, response: evaluation.rankingResponse },
  { method: "GET", route: "api/projects/[projectId]/stop-rule", tag: "Estimates", summary: "Whether each clustering's estimate has converged", description: owner, access: "user", response: evaluation.stopRuleResponse },
  { method: "GET", route: "api/projects/[projectId]/contingency", tag: "Estimates", summary: "A clustering's cluster x class table", description: owner, access: "user", query: contingencyQuery, response: evaluation.contingencyResponse },
  { method: "GET", route: "api/projects/[projectId]/true-metrics", tag: "Estimates", summary: "Every metric against the bundle's reference labels", description: owner, access: "user", response: projects.trueMetricsResponse },
  {
    method: "POST",
    route: "api/projects/[projectId]/label-free",
    tag: "Estimates",
    summary: "Label-free scores (queues their computation when missing)",
    description: owner,
    access: "user",
    query: labelFreeQuery,
    response: evaluation.labelFreeResponse,
  },
  { method: "GET", route: "api/projects/[projectId]/simulations", tag: "Simulations", summary: "Oracle simulation runs", description: owner, access: "user", response: evaluation.simulationsResponse },
  { method: "POST", route: "api/projects/[projectId]/simulations", tag: "Simulations", summary: "Queue an oracle simulation", access: "owner", body: simulationInput, response: evaluation.simulationQueued },
  { method: "GET", route: "api/projects/[projectId]/simulations/[simulationId]", tag: "Simulations", summary: "One simulation and, once done, its result", description: owner, access: "user", response: evaluation.simulationResponse },

  // webhooks
  ...(["project", "user"] as const).flatMap((scope): Operation[] => {
    const route = scope === "project" ? "api/projects/[projectId]/webhook" : "api/me/webhook";
    const access = scope === "project" ? "owner" : "user";
    const events = scope === "project" ? "round.completed, round.failed and stop_rule.met" : "import.completed and import.failed";
    const tag = "Webhooks";
    return [
      { method: "GET", route, tag, summary: `The ${scope}'s webhook and its latest deliveries`, description: `Events: ${events}.`, access, response: webhooks.webhookResponse },
      {
        method: "PUT",
        route,
        tag,
        summary: `Set the ${scope}'s webhook URL`,
        description: `Events: ${events}, signed per Standard Webhooks with the secret (kept unless rotateSecret). Private and loopback addresses are refused unless the server sets CEREAL_WEBHOOK_ALLOW_PRIVATE=1.`,
        access,
        body: webhookInput,
        response: webhooks.webhookResponse,
      },
      { method: "DELETE", route, tag, summary: `Remove the ${scope}'s webhook and its delivery log`, access, response: okBody },
    ];
  }),
  { method: "POST", route: "api/webhook-deliveries/[deliveryId]/redeliver", tag: "Webhooks", summary: "Send a delivery again", description: "The webhook's project owners, or the user whose webhook it is.", access: "user", response: webhooks.redeliveryQueued },

  // exports
  {
    method: "GET",
    route: "api/projects/[projectId]/exports/[kind]",
    tag: "Exports",
    summary: "Download labels, items, estimates, the configuration, the bundle or the report",
    description: `${owner} labels and items take ?format=csv|jsonl|parquet; report takes ?metrics=nmi,ari&clustering=NAME&measure=….`,
    access: "user",
    params: { kind: z.enum(["labels", "items", "estimates", "config", "bundle", "report"]) },
    query: exportFormat.extend(reportQuery.partial().shape),
    response: {
      raw: {
        "text/csv": "labels or items as CSV; the estimate history (round, n_labels, clustering, metric, estimate, lo, hi, p_best, backend, finished_at, interim: true on a running round's interim estimates)",
        "application/x-ndjson": "labels or items as JSON lines",
        "application/vnd.apache.parquet": "labels or items as Parquet",
        "application/json": "the configuration: settings, classes, clusterings and every round's seed and code version",
        "application/zip": "the bundle or the report",
      },
    },
  },
];
