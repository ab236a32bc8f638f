/** A key as it appears on the keyboard, for buttons and the key list. */
export function Kbd({ children, tone = "light" }: { children: React.ReactNode; tone?: "light" | "dark" }) {
  return (
    <kbd
      className={`inline-flex h-6 min-w-6 items-center justify-center rounded-md px-1.5 font-mono text-xs font-semibold shadow-[inset_0_-1px_0_rgba(0,0,0,0.12)] ${
        tone === "dark" ? "bg-white/15 text-white ring-1 ring-white/25" : "bg-white text-slate-700 ring-1 ring-slate-300"
      }`}
    >
      {children}
    </kbd>
  );
}
