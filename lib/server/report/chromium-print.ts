import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/**
 * PNG and PDF of the report, printed by headless Chromium where it is installed (CHROMIUM_PATH,
 * else Debian's /usr/bin/chromium, the e2e lane's browser); without it the report says so and
 * ships its SVG and HTML alone. Each call runs one browser on a throw-away profile.
 */
const PRINT_TIMEOUT_MS = 90_000;

export function chromiumPath(): string | null {
  const candidate = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  return existsSync(candidate) ? candidate : null;
}

async function withChromium(page: string, args: (dir: string) => string[], output: string): Promise<Uint8Array> {
  const chromium = chromiumPath();
  if (!chromium) throw new Error("Chromium is not installed");
  const dir = await mkdtemp(path.join(os.tmpdir(), "cereal-print-"));
  try {
    await writeFile(path.join(dir, "page.html"), page);
    await new Promise<void>((resolve, reject) =>
      execFile(
        chromium,
        ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars", `--user-data-dir=${path.join(dir, "profile")}`, ...args(dir), `file://${path.join(dir, "page.html")}`],
        { timeout: PRINT_TIMEOUT_MS },
        (error) => (error && !existsSync(path.join(dir, output)) ? reject(error) : resolve()),
      ),
    );
    return new Uint8Array(await readFile(path.join(dir, output)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** An SVG figure as a PNG at twice its size (about 190 dpi at print width). */
export function svgToPng(svg: string): Promise<Uint8Array> {
  const width = Number(/width="(\d+)"/.exec(svg)?.[1] ?? 800);
  const height = Number(/height="(\d+)"/.exec(svg)?.[1] ?? 600);
  const page = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>html,body{margin:0;background:#fff}svg{display:block}</style></head><body>${svg}</body></html>`;
  return withChromium(page, (dir) => [`--screenshot=${path.join(dir, "out.png")}`, `--window-size=${width},${height}`, "--force-device-scale-factor=2"], "out.png");
}

/** The HTML page printed to an A4 PDF without header or footer. */
export function htmlToPdf(html: string): Promise<Uint8Array> {
  return withChromium(html, (dir) => [`--print-to-pdf=${path.join(dir, "out.pdf")}`, "--no-pdf-header-footer"], "out.pdf");
}
