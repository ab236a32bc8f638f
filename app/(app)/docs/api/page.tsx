import type { Metadata } from "next";
import Link from "next/link";
import { ApiReference } from "./api-reference";

export const metadata: Metadata = { title: "API reference" };

export default function ApiDocsPage() {
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">API reference</h1>
      <p className="mt-1 max-w-3xl text-sm text-slate-600">
        Every route of this server, from <a className="text-indigo-600 hover:text-indigo-500" href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). Scripts
        authenticate with an <Link className="text-indigo-600 hover:text-indigo-500" href="/account/tokens">access token</Link> sent as{" "}
        <code>Authorization: Bearer …</code>.
      </p>
      <ApiReference url="/api/openapi.json" />
    </div>
  );
}
