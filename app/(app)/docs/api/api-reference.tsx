"use client";

import { useEffect, useRef } from "react";
import "swagger-ui-dist/swagger-ui.css";

/**
 * Swagger UI from our own bundle (swagger-ui-dist): no script, font or stylesheet from another
 * origin, so it runs under the app's Content-Security-Policy. It loads on the client only; the
 * spec validator badge (an image from swagger.io) is turned off.
 */
export function ApiReference({ url }: { url: string }) {
  const node = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let active = true;
    import("swagger-ui-dist/swagger-ui-es-bundle.js").then(({ default: SwaggerUI }) => {
      if (active && node.current) SwaggerUI({ domNode: node.current, url, deepLinking: true, validatorUrl: null, defaultModelsExpandDepth: 0 });
    });
    return () => {
      active = false;
    };
  }, [url]);
  return <div ref={node} className="mt-6 rounded-xl border border-slate-200 bg-white" data-testid="api-reference" />;
}
