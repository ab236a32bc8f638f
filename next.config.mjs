/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and optional packages stay outside the bundle; TF.js only runs in the worker process.
  // The logger and the metrics registry load once from node_modules, shared by every route; pg-boss
  // (job dispatch on PostgreSQL) too, one per process.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@node-rs/argon2", "@tensorflow/tfjs-node-gpu", "@tensorflow/tfjs-node", "pino", "pino-pretty", "prom-client", "pg-boss"],
  experimental: { authInterrupts: true },
  poweredByHeader: false,
  // `npm test` typechecks the whole project (npm run typecheck); the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
  turbopack: { root: import.meta.dirname },
  // Pages also get a Content-Security-Policy with a nonce (proxy.ts); these go on every response.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};
export default nextConfig;
