import type { Metadata } from "next";
import { connection } from "next/server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Cereal Studio", template: "%s · Cereal Studio" },
  description: "How good is your clustering? Estimates of NMI, ARI and more from a few hundred labels.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request, so that Next can put the CSP nonce (proxy.ts) on its scripts.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
