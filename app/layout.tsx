import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Cereal Studio", template: "%s · Cereal Studio" },
  description: "How good is your clustering? Estimates of NMI, ARI and more from a few hundred labels.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
