"use client";

import { useRouter } from "next/navigation";
import { estimatorSummary } from "@/lib/cereal/method/estimator-summaries";
import { RESIDUAL_MIN_ACCURACY_PERCENT } from "@/lib/cereal/method/surrogate-health";
import { useState } from "react";
import { apiJson } from "@/app/components/api";
import { INPUT_CLASS } from "@/app/components/form-styles";

interface Settings {
  name: string;
  description: string;
  mode: string;
  classMode: string;
  labelBy: string;
  guidelines: string;
  acquisition: string;
  design: string;
  estimator: string;
  fixmatch: boolean;
  pairDesign: string;
  pairUniformShare: number;
  seedSize: number;
  batchSize: number;
  budget: number;
  fixmatchSteps: number;
  fixmatchWarmSteps: number | null;
  residualWhenCalibrated: number | null;
  overlap: number;
  annotatorsSeeEstimates: boolean;
  paused: boolean;
  classes: { name: string; description: string }[];
  labels: number;
}

const card = "rounded-xl border border-slate-200 bg-white p-6 shadow-sm";
const primary = "rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60";

type Message = { kind: "ok" | "error"; text: string } | null;

function Notice({ message }: { message: Message }) {
  if (!message) return null;
  return (
    <p role={message.kind === "error" ? "alert" : "status"} className={`rounded-md px-3 py-2 text-sm ${message.kind === "error" ? "bg-red-50 text-red-700" : "bg-emerald-50 text-emerald-700"}`}>
      {message.text}
    </p>
  );
}

function NumberField({ label, value, onChange, min, max, step = 1, hint }: { label: string; value: number; onChange: (v: number) => void; min: number; max?: number; step?: number; hint?: string }) {
  return (
    <label className="block">
      <span className="text-sm font-medium text-slate-700">{label}</span>
      <input type="number" min={min} max={max} step={step} value={value} onChange={(e) => onChange(Number(e.target.value))} className={INPUT_CLASS} />
      {hint && <span className="mt-1 block text-xs text-slate-500">{hint}</span>}
    </label>
  );
}

function SelectField({ label, value, options, onChange, hint }: { label: string; value: string; options: string[]; onChange: (v: string) => void; hint?: string }) {
  return (
    <label className="block">
      <span className="text-sm font-medium text-slate-700">{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value)} className={INPUT_CLASS}>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      {hint && <span className="mt-1 block text-xs text-slate-500">{hint}</span>}
    </label>
  );
}

function Toggle({ label, checked, onChange, hint }: { label: string; checked: boolean; onChange: (v: boolean) => void; hint?: string }) {
  return (
    <label className="flex items-start gap-3">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} className="mt-1 h-4 w-4 rounded border-slate-300 text-indigo-600" />
      <span>
        <span className="text-sm font-medium text-slate-700">{label}</span>
        {hint && <span className="block text-xs text-slate-500">{hint}</span>}
      </span>
    </label>
  );
}

interface Recommended {
  acquisition: string;
  design: string;
  fixmatch: boolean;
  fixmatchSteps: number;
  fixmatchWarmSteps: number | null;
  residualWhenCalibrated: number | null;
  estimator: string;
  pairDesign: string;
  pairUniformShare: number;
}

export function SettingsForm({
  projectId,
  initial,
  acquisitions,
  designs,
  estimators,
  pairDesigns,
  recommended,
}: {
  projectId: string;
  initial: Settings;
  acquisitions: string[];
  /** the designs each acquisition can draw with, the first its default */
  designs: Record<string, string[]>;
  estimators: string[];
  /** a pairwise project's pair designs */
  pairDesigns: string[];
  recommended: Recommended;
}) {
  const router = useRouter();
  const [s, setS] = useState(initial);
  const [message, setMessage] = useState<Message>(null);
  const [saving, setSaving] = useState(false);
  const frozen = initial.labels > 0;
  const set = <K extends keyof Settings>(key: K, value: Settings[K]) => setS((prev) => ({ ...prev, [key]: value }));
  // a new acquisition keeps the design if it can draw with it, else takes its first (as the server does)
  const setAcquisition = (acquisition: string) =>
    setS((prev) => ({ ...prev, acquisition, design: designs[acquisition]?.includes(prev.design) ? prev.design : (designs[acquisition]?.[0] ?? prev.design) }));
  const isRecommended = (Object.keys(recommended) as (keyof Recommended)[]).every((key) => s[key] === recommended[key]);
  const setClass = (i: number, patch: Partial<Settings["classes"][number]>) => set("classes", s.classes.map((c, j) => (j === i ? { ...c, ...patch } : c)));

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setSaving(true);
    try {
      const { labels, ...body } = s;
      void labels;
      const { settings } = await apiJson<{ settings: Settings }>(`/api/projects/${projectId}/settings`, { method: "PATCH", body });
      setS(settings);
      setMessage({ kind: "ok", text: "Settings saved." });
      router.refresh();
    } catch (error) {
      setMessage({ kind: "error", text: (error as Error).message });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={save} className="space-y-6" aria-label="Project settings">
      <section className={card}>
        <h2 className="font-semibold">Project</h2>
        <div className="mt-4 grid gap-4">
          <label className="block">
            <span className="text-sm font-medium text-slate-700">Name</span>
            <input value={s.name} onChange={(e) => set("name", e.target.value)} required maxLength={200} className={INPUT_CLASS} />
          </label>
          <label className="block">
            <span className="text-sm font-medium text-slate-700">Description</span>
            <textarea value={s.description} onChange={(e) => set("description", e.target.value)} rows={2} maxLength={2000} className={INPUT_CLASS} />
          </label>
          <Toggle label="Paused" checked={s.paused} onChange={(v) => set("paused", v)} hint="A paused project hands out no tasks." />
        </div>
      </section>

      <section className={card}>
        <h2 className="font-semibold">Annotation</h2>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <label className="block">
            <span className="text-sm font-medium text-slate-700">Annotation mode</span>
            <select value={s.mode} onChange={(e) => set("mode", e.target.value)} disabled={frozen} className={INPUT_CLASS}>
              <option value="clusterwise">clusterwise: which class is this item?</option>
              <option value="pairwise">pairwise: are these two the same class?</option>
            </select>
            {s.mode === "pairwise" && (
              <span className="mt-1 block text-xs text-slate-500">
                The same kind of answer can also give each item its class: a clusterwise project asking one class at a time read NMI with 0.08–0.46x random pairs’ error
                per answer in simulation.
              </span>
            )}
          </label>
          <label className="block">
            <span className="text-sm font-medium text-slate-700">Classes</span>
            <select value={s.classMode} onChange={(e) => set("classMode", e.target.value)} className={INPUT_CLASS}>
              <option value="fixed">fixed list</option>
              <option value="open">open: annotators may add a class</option>
            </select>
          </label>
          {s.mode === "clusterwise" && (
            <label className="block sm:col-span-2">
              <span className="text-sm font-medium text-slate-700">Ask for a class</span>
              <select value={s.labelBy} onChange={(e) => set("labelBy", e.target.value)} className={INPUT_CLASS}>
                <option value="pick">pick it from the list of classes</option>
                <option value="verify">one class at a time: “same class as these?”, the model’s suggestion first</option>
              </select>
              <span className="mt-1 block text-xs text-slate-500">
                One class at a time turns each label into yes/no answers: 1.1–1.5 a label in simulation where the model is good, more with many classes and a weak model. An item that matches no
                class starts a new one in an open project. Labels, estimates and the budget are the same either way; each label records how many answers it took.
              </span>
            </label>
          )}
        </div>
        <div className="mt-4">
          <span className="text-sm font-medium text-slate-700">Reference classes</span>
          <ul className="mt-2 space-y-2">
            {s.classes.map((c, i) => (
              <li key={i} className="grid gap-2 sm:grid-cols-[12rem_1fr_auto]">
                <input aria-label={`Class ${i} name`} value={c.name} onChange={(e) => setClass(i, { name: e.target.value })} disabled={frozen} required className={INPUT_CLASS} />
                <input aria-label={`Class ${i} description`} placeholder="Description (optional)" value={c.description} onChange={(e) => setClass(i, { description: e.target.value })} className={INPUT_CLASS} />
                <button type="button" disabled={frozen} onClick={() => set("classes", s.classes.filter((_, j) => j !== i))} className="text-sm text-slate-500 hover:text-red-600 disabled:opacity-40">
                  Remove
                </button>
              </li>
            ))}
          </ul>
          <button type="button" disabled={frozen} onClick={() => set("classes", [...s.classes, { name: "", description: "" }])} className="mt-2 text-sm font-medium text-indigo-600 hover:text-indigo-500 disabled:opacity-40">
            + Add a class
          </button>
        </div>
        <label className="mt-4 block">
          <span className="text-sm font-medium text-slate-700">Guidelines for annotators</span>
          <textarea value={s.guidelines} onChange={(e) => set("guidelines", e.target.value)} rows={5} className={INPUT_CLASS} placeholder="What counts as each class, what to do when unsure…" />
        </label>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <NumberField label="Overlap (annotators per task)" min={1} value={s.overlap} onChange={(v) => set("overlap", v)} hint="Above 1, an item's label is the majority vote." />
          <div className="pt-6">
            <Toggle label="Annotators see estimates" checked={s.annotatorsSeeEstimates} onChange={(v) => set("annotatorsSeeEstimates", v)} />
          </div>
        </div>
      </section>

      <section className={card}>
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="font-semibold">Sampling and surrogate</h2>
          {isRecommended ? (
            <span className="text-xs text-emerald-700" data-testid="recommended-configuration">
              The recommended configuration
            </span>
          ) : (
            <button
              type="button"
              onClick={() => setS((prev) => ({ ...prev, ...recommended }))}
              className="text-xs font-medium text-indigo-600 hover:text-indigo-500"
              title={`${recommended.acquisition}${recommended.residualWhenCalibrated !== null ? ` (the residual score where calibrated within ${recommended.residualWhenCalibrated})` : ""}, ${recommended.design} sampling, ${recommended.fixmatch ? `FixMatch ${recommended.fixmatchSteps} steps` : "supervised"}, ${recommended.estimator} estimator (lib/cereal/method/ESTIMATORS.md); pairwise: ${recommended.pairDesign} pairs`}
            >
              Use the recommended configuration
            </button>
          )}
        </div>
        <div className="mt-4 grid gap-4 sm:grid-cols-3">
          <SelectField label="Acquisition function" value={s.acquisition} options={acquisitions} onChange={setAcquisition} />
          <SelectField
            label="Sampling design"
            value={s.design}
            options={designs[s.acquisition] ?? [s.design]}
            onChange={(v) => set("design", v)}
            hint="Proportional draws are a probability sample: the estimators can weight them back."
          />
          <SelectField
            label="Estimator"
            value={s.estimator}
            options={estimators}
            onChange={(v) => set("estimator", v)}
            hint={estimatorSummary(s.estimator)?.estimate}
          />
          <NumberField label="Seed size" min={1} value={s.seedSize} onChange={(v) => set("seedSize", v)} hint="Drawn uniformly first." />
          <NumberField label="Batch size (n)" min={1} value={s.batchSize} onChange={(v) => set("batchSize", v)} />
          <NumberField label="Budget (labels)" min={1} value={s.budget} onChange={(v) => set("budget", v)} />
          <NumberField label="FixMatch steps" min={0} value={s.fixmatchSteps} onChange={(v) => set("fixmatchSteps", v)} hint={`A round; ${recommended.fixmatchSteps} recommended, fewer for quicker rounds.`} />
          <NumberField
            label="Warm-start steps"
            min={0}
            value={s.fixmatchWarmSteps ?? 0}
            onChange={(v) => set("fixmatchWarmSteps", v > 0 ? v : null)}
            hint={`Rounds after the first train this many steps on from the previous round's weights; 0 trains every round from scratch${recommended.fixmatchWarmSteps ? ` (${recommended.fixmatchWarmSteps} recommended)` : " (recommended)"}.`}
          />
          <NumberField
            label="Residual score where calibrated (gap)"
            min={0}
            max={1}
            step={0.01}
            value={s.residualWhenCalibrated ?? 0}
            onChange={(v) => set("residualWhenCalibrated", v > 0 ? v : null)}
            hint={`A round draws by the predicted residual instead of the chosen acquisition where the earlier surrogates, measured on the batches labeled since, were at least ${RESIDUAL_MIN_ACCURACY_PERCENT}% right and calibrated within this gap between accuracy and confidence (proportional sampling only); 0 keeps the chosen acquisition in every round${recommended.residualWhenCalibrated ? ` (${recommended.residualWhenCalibrated} recommended)` : " (recommended)"}.`}
          />
          <div className="pt-6">
            <Toggle label="FixMatch" checked={s.fixmatch} onChange={(v) => set("fixmatch", v)} hint="Semi-supervised training of the surrogate." />
          </div>
          {s.mode === "pairwise" && (
            <>
              <SelectField
                label="Pair design"
                value={s.pairDesign}
                options={pairDesigns}
                onChange={(v) => set("pairDesign", v)}
                hint={`How a round draws its pairs: random (uniform pairs, ${recommended.pairDesign === "random" ? "recommended" : "lowest AEC measured"}), uncertain (predicted same-probability near 0.5) or anchor (items against cluster representatives).`}
              />
              <NumberField
                label="Uniform share of a pair stage"
                min={0}
                max={1}
                step={0.05}
                value={s.pairUniformShare}
                onChange={(v) => set("pairUniformShare", v)}
                hint={`Uncertain and anchor stages: the share drawn as uniform pairs (${recommended.pairUniformShare} recommended; a random stage is all uniform).`}
              />
            </>
          )}
        </div>
      </section>

      <Notice message={message} />
      <div className="flex justify-end">
        <button type="submit" disabled={saving} className={primary}>
          {saving ? "Saving…" : "Save settings"}
        </button>
      </div>
    </form>
  );
}

export function AddClusteringForm({ projectId }: { projectId: string }) {
  const router = useRouter();
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const soft = data.get("soft");
    if (soft instanceof File && soft.size === 0) data.delete("soft");
    if (!data.get("k")) data.delete("k");
    setBusy(true);
    try {
      const response = await fetch(`/api/projects/${projectId}/clusterings`, { method: "POST", body: data });
      const body = await response.json().catch(() => null);
      if (!response.ok) throw new Error(body?.error?.message ?? `The server answered ${response.status}.`);
      setMessage({ kind: "ok", text: `Added ${body.clustering.name} (K = ${body.clustering.k}${body.clustering.soft ? ", soft" : ""}); the next round's estimates cover it.` });
      form.reset();
      router.refresh();
    } catch (error) {
      setMessage({ kind: "error", text: (error as Error).message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className={card} aria-label="Add a clustering">
      <h2 className="font-semibold">Add a clustering</h2>
      <p className="mt-1 text-sm text-slate-600">An int32 .npy of N cluster ids (0..K-1), optionally its float32 [N, K] soft version. Estimates cover it without new labels.</p>
      <div className="mt-4 grid gap-4 sm:grid-cols-4">
        <label className="block">
          <span className="text-sm font-medium text-slate-700">Name</span>
          <input name="name" required pattern="[\w.\-]+" className={INPUT_CLASS} />
        </label>
        <label className="block">
          <span className="text-sm font-medium text-slate-700">K (optional)</span>
          <input name="k" type="number" min={1} className={INPUT_CLASS} />
        </label>
        <label className="block">
          <span className="text-sm font-medium text-slate-700">Cluster ids (.npy)</span>
          <input name="file" type="file" accept=".npy" required className="mt-2 block w-full text-sm" />
        </label>
        <label className="block">
          <span className="text-sm font-medium text-slate-700">Soft version (optional)</span>
          <input name="soft" type="file" accept=".npy" className="mt-2 block w-full text-sm" />
        </label>
      </div>
      <div className="mt-4 space-y-3">
        <Notice message={message} />
        <div className="flex justify-end">
          <button type="submit" disabled={busy} className={primary}>
            {busy ? "Checking…" : "Add clustering"}
          </button>
        </div>
      </div>
    </form>
  );
}

export function DeleteProject({ projectId, name }: { projectId: string; name: string }) {
  const router = useRouter();
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onDelete(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await apiJson(`/api/projects/${projectId}`, { method: "DELETE", body: { confirmName: typed } });
      router.replace("/projects");
      router.refresh();
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onDelete} className="rounded-xl border border-red-200 bg-white p-6 shadow-sm" aria-label="Delete the project">
      <h2 className="font-semibold text-red-700">Delete the project</h2>
      <p className="mt-1 text-sm text-slate-600">
        Deletes its items, clusterings, labels, rounds and every file of it. This cannot be undone. Type <span className="font-semibold">{name}</span> to confirm.
      </p>
      <div className="mt-4 flex gap-3">
        <input aria-label="Project name to confirm" value={typed} onChange={(e) => setTyped(e.target.value)} className={`${INPUT_CLASS} mt-0 max-w-sm`} />
        <button type="submit" disabled={busy || typed.trim() !== name.trim()} className="rounded-md bg-red-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-red-700 disabled:opacity-50">
          {busy ? "Deleting…" : "Delete project"}
        </button>
      </div>
      {error && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}
