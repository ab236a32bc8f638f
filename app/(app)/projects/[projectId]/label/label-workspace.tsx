"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ActionBar, type BarAction } from "./action-bar";
import { apiRequest, errorMessage } from "@/app/components/api";
import { useProjectEvents } from "@/app/components/use-project-events";
import { ClassPicker, FILTER_ABOVE, type ClassOption } from "./class-picker";
import { classKeys, PAIR_KEYS, RESERVED_KEYS, SHOW_LIST_KEY } from "./class-keys";
import { ClassVerifier, type Verdict } from "./class-verifier";
import { HelpDialog, type KeyHelp } from "./help-dialog";
import { ItemView } from "./item-view";
import { Kbd } from "./kbd";
import { NewClassDialog } from "./new-class-dialog";
import { PairAnswers, type PairAnswer } from "./pair-answers";
import { ProgressMeter } from "./progress-meter";
import { QUEUE_TITLES, QueueNotice } from "./queue-notice";
import { RoundIndicator } from "./round-indicator";
import { SaveStatus } from "./save-status";
import { SkipDialog } from "./skip-dialog";
import { ToastStack } from "./toast-stack";
import { useClassExamples } from "./use-class-examples";
import { useLabelingSession } from "./use-labeling-session";
import { useToasts } from "./use-toasts";
import { useWorkspaceKeys } from "./use-workspace-keys";
import { answerDifferent, askedClass, chainStep, showList, startChain, stepBack, type VerifyChain } from "./verify-chain";
import { verifyOrder } from "./verify-order";
import { itemAnnouncement, roundAnnouncement, saveAnnouncement, stageName } from "./workspace-announcements";
import { WorkspaceAnnouncer } from "./workspace-announcer";

export interface WorkspaceProject {
  id: string;
  name: string;
  mode: "clusterwise" | "pairwise";
  classMode: "fixed" | "open";
  /** clusterwise: pick the class from the list, or verify one class at a time */
  labelBy: "pick" | "verify";
  itemKind: string;
  guidelines: string;
  classes: ClassOption[];
}

// A key press within this time of a new item is taken for a double press, not an answer to it:
// nobody judges an item in 150 ms, so a bouncing key or a double tap never labels an unseen item.
const ARM_MS = 150;
// The item's side: its full size where the window is tall enough, else what leaves the answers in
// view at 1280 x 720 (`chrome`: the height of everything else), never below 240 px (200% zoom).
const ITEM_SIZE = { clusterwise: { full: 448, chrome: 272 }, pairwise: { full: 384, chrome: 380 } };
const TEXT_WIDTH = 600; // about 60 characters of 18 px text: a comfortable line to read

/** "1–9", "0", "A–F" for the key list, from the keys the classes got. */
function classKeyRanges(keys: (string | null)[]): string[] {
  const given = keys.filter((k): k is string => k !== null);
  const digits = given.filter((k) => /\d/.test(k));
  const letters = given.filter((k) => !/\d/.test(k));
  const range = (list: string[]) => (list.length > 1 ? `${list[0]}–${list.at(-1)}` : list[0]).toUpperCase();
  return [
    ...(digits.length ? [range(digits.filter((d) => d !== "0"))] : []),
    ...(digits.includes("0") ? ["0"] : []),
    ...(letters.length ? [range(letters)] : []),
  ];
}

export function LabelWorkspace({ project, userId }: { project: WorkspaceProject; userId: string }) {
  const pairwise = project.mode === "pairwise";
  const open = project.classMode === "open";
  const verify = !pairwise && project.labelBy === "verify";
  const signInUrl = `/signin?callbackUrl=${encodeURIComponent(`/projects/${project.id}/label`)}`;
  const router = useRouter();
  // The answers not yet saved stay in localStorage and go out when the workspace opens again.
  const toSignIn = useCallback(() => router.push(signInUrl), [router, signInUrl]);
  const { toasts, notify, dismiss } = useToasts();
  const session = useLabelingSession({ projectId: project.id, userId, onUnauthenticated: toSignIn, notify });
  const { snapshot } = useProjectEvents(project.id, toSignIn);
  // The label POST's answer is quicker than the stream's next poll: show whichever is newer.
  const counts = session.progress && (!snapshot || session.progress.at > snapshot.at) ? session.progress : snapshot;
  const labels = counts?.labels ?? null;
  const budget = counts?.budget ?? null;
  const { examples, byCluster } = useClassExamples(project.id, labels);

  const [classes, setClasses] = useState(project.classes);
  const keys = useMemo(() => classKeys(classes.length), [classes.length]);
  const keyToClass = useMemo(() => new Map(keys.flatMap((k, i) => (k ? [[k, classes[i].index] as const] : []))), [keys, classes]);
  const [dialog, setDialog] = useState<null | "help" | "skip" | "newClass">(null);
  // A <dialog>'s close event arrives a moment after it closed; by then a key may have opened
  // another one, which must stay open.
  const closeDialog = (which: "help" | "skip" | "newClass") => setDialog((d) => (d === which ? null : d));
  const [flash, setFlash] = useState<{ value: number | PairAnswer; at: number } | null>(null);
  const filterRef = useRef<HTMLInputElement>(null);

  const current = session.current;
  const currentId = current?.id ?? null;
  // One class at a time: each item shown (a re-shown one too) starts its chain of questions, in an
  // order frozen now, so examples refreshed mid-chain cannot move the question being answered.
  const [chain, setChain] = useState<VerifyChain>(() => startChain(null, [], project.classMode));
  if (verify && chain.taskId !== currentId) {
    setChain(startChain(currentId, current ? verifyOrder(classes.map((c) => c.index), current.hint, byCluster) : [], project.classMode));
  }
  const step = verify ? chainStep(chain) : null;
  const asked = verify ? askedClass(chain) : null;
  const askedOption = asked === null ? null : (classes.find((c) => c.index === asked) ?? { index: asked, name: `class ${asked}`, description: "" });
  // Every item shown, a re-shown one (undo) included, and every new question about it starts
  // unarmed in the very render that shows it: a timer left over from before cannot arm it early,
  // so the page never says "armed" while a key would still be ignored.
  const armKey = currentId === null ? null : verify ? `${currentId}:${chain.position}:${step}` : currentId;
  const [arming, setArming] = useState<{ id: string | null; armed: boolean }>({ id: null, armed: false });
  if (arming.id !== armKey) setArming({ id: armKey, armed: false });
  useEffect(() => {
    if (!armKey) return;
    const timer = setTimeout(() => setArming((a) => (a.id === armKey ? { id: armKey, armed: true } : a)), ARM_MS);
    return () => clearTimeout(timer);
  }, [armKey]);
  const armed = armKey !== null && arming.id === armKey && arming.armed;

  useEffect(() => {
    if (!flash) return;
    const timer = setTimeout(() => setFlash(null), 180);
    return () => clearTimeout(timer);
  }, [flash]);

  // A new stage, a resumed project or a finished round may bring tasks: ask at once instead of at the next poll.
  const refill = session.refill;
  const roundKey = `${snapshot?.stages?.latest}:${snapshot?.paused}:${snapshot?.lastRound?.index}`;
  useEffect(() => {
    if (!current) refill();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the project's state changes
  }, [roundKey]);

  // The last answer stays in view, so a slip is noticed while Z can still take it back.
  const [lastAnswer, setLastAnswer] = useState<string | null>(null);
  const give = (body: Parameters<typeof session.answer>[0], text: string) => {
    if (!current) return;
    // one class at a time, every answer records the "different" answers before it (a "same" adds its own)
    session.answer(verify ? { verifyAnswers: chain.position, ...body } : body);
    setLastAnswer(`${text} · ${current.item.externalId}${current.itemB ? ` / ${current.itemB.externalId}` : ""}`);
  };
  const chooseClass = (classIndex: number) => {
    setFlash({ value: classIndex, at: Date.now() });
    give({ kind: "label", classIndex }, classes.find((c) => c.index === classIndex)?.name ?? `class ${classIndex}`);
  };
  const answerPair = (answer: PairAnswer) => {
    setFlash({ value: answer, at: Date.now() });
    give(answer === "unsure" ? { kind: "unsure" } : { kind: "label", answer }, answer === "same" ? "Same class" : answer === "different" ? "Different" : "Unsure");
  };
  const answerVerdict = (verdict: Verdict) => {
    if (asked === null) return;
    setFlash({ value: verdict, at: Date.now() });
    if (verdict === "same") return give({ kind: "label", classIndex: asked, verifyAnswers: chain.position + 1 }, askedOption?.name ?? `class ${asked}`);
    const next = answerDifferent(chain, project.classMode);
    setChain(next);
    if (chainStep(next) === "newClass") setDialog("newClass");
  };
  const unsure = () => (pairwise ? answerPair("unsure") : give({ kind: "unsure" }, "Unsure"));
  const undo = () => {
    // one class at a time, undo goes back through the item's questions before it takes back a label
    const back = verify ? stepBack(chain) : null;
    if (back) return setChain(back);
    session.undo();
    setLastAnswer(null);
  };
  const canUndo = session.canUndo || (verify && stepBack(chain) !== null);

  const createClass = async (name: string, description: string): Promise<string | null> => {
    const result = await apiRequest(`/api/projects/${project.id}/classes`, { method: "POST", body: { name, description } });
    if (result.status === 401) {
      toSignIn();
      return null;
    }
    if (result.status === 409) {
      // Another annotator may have added it meanwhile: show their classes too.
      const latest = await apiRequest(`/api/projects/${project.id}`);
      if (latest.status === 200) setClasses((latest.data as { project: { classes: ClassOption[] } }).project.classes);
    }
    if (result.status !== 200) return errorMessage(result);
    const created = (result.data as { class: ClassOption }).class;
    setClasses((all) => [...all, created]);
    setDialog(null);
    give({ kind: "label", classIndex: created.index }, created.name);
    notify(`Added the class “${created.name}”.`);
    return null;
  };

  useWorkspaceKeys((key) => {
    if (key === "?") return setDialog("help"), true;
    if (key === RESERVED_KEYS.undo || key === "Backspace") return undo(), true;
    if (key === "/" && filterRef.current) return filterRef.current.focus(), true;
    // Opening a dialog answers nothing yet, so it needs no guard against double presses.
    if (key === RESERVED_KEYS.skip && current) return setDialog("skip"), true;
    // while a class is asked, N answers "different"
    if (key === RESERVED_KEYS.newClass && open && !pairwise && current && step !== "ask") return setDialog("newClass"), true;
    if (key === SHOW_LIST_KEY && current && (step === "ask" || step === "newClass")) return setChain(showList(chain)), true;
    if (!armed) return false;
    if (key === RESERVED_KEYS.unsure) return unsure(), true;
    if (step === "ask") {
      if ((PAIR_KEYS.same as readonly string[]).includes(key)) return answerVerdict("same"), true;
      if ((PAIR_KEYS.different as readonly string[]).includes(key)) return answerVerdict("different"), true;
      return false;
    }
    if (step === "newClass") return false;
    if (pairwise) {
      if ((PAIR_KEYS.same as readonly string[]).includes(key)) return answerPair("same"), true;
      if ((PAIR_KEYS.different as readonly string[]).includes(key)) return answerPair("different"), true;
      return false;
    }
    const classIndex = keyToClass.get(key);
    if (classIndex === undefined) return false;
    chooseClass(classIndex);
    return true;
  });

  const keyList: KeyHelp[] = [
    ...(pairwise
      ? [
          { keys: ["Y", "F"], action: "Same class" },
          { keys: ["N", "J"], action: "Different classes" },
        ]
      : verify
        ? [
            { keys: ["Y", "F"], action: "Same class as the one asked" },
            { keys: ["N", "J"], action: "Different: ask the next class" },
            { keys: ["L"], action: "Pick from the list instead" },
            { keys: classKeyRanges(keys), action: "Label with a class (in the list)" },
          ]
        : [{ keys: classKeyRanges(keys), action: "Label with a class" }]),
    { keys: ["U"], action: "Unsure" },
    { keys: ["S"], action: "Skip (optional reason)" },
    { keys: ["Z", "⌫"], action: verify ? "Undo: the last question, then the last answer" : "Undo the last answer" },
    ...(!pairwise && open ? [{ keys: ["N"], action: verify ? "New class (after the last class, or in the list)" : "New class" }] : []),
    ...(!pairwise && classes.length > FILTER_ABOVE ? [{ keys: ["/"], action: "Filter the classes" }] : []),
    { keys: ["?"], action: "This help" },
  ];

  const actions: BarAction[] = [
    { label: "Skip", keys: ["S"], onClick: () => setDialog("skip"), disabled: !current },
    ...(pairwise ? [] : [{ label: "Unsure", keys: ["U"], onClick: unsure, disabled: !current }]),
    { label: "Undo", keys: ["Z"], onClick: undo, disabled: !canUndo },
    ...(!pairwise && open ? [{ label: "New class", keys: step === "ask" ? [] : ["N"], onClick: () => setDialog("newClass"), disabled: !current }] : []),
    { label: "Keys & guidelines", keys: ["?"], onClick: () => setDialog("help") },
  ];

  const stages = snapshot?.stages ?? null;
  const stageDetail = current ? (current.drawnByRound === null ? "drawn uniformly" : `drawn by round ${current.drawnByRound}'s ranking`) : "";
  const size = `clamp(240px, calc(100vh - ${ITEM_SIZE[project.mode].chrome}px), ${ITEM_SIZE[project.mode].full}px)`;
  const lastLine = (
    <p data-testid="last-answer" className="h-5 truncate text-xs text-slate-500">
      {lastAnswer && session.canUndo ? (
        <>
          Last answer: <span className="font-medium text-slate-700">{lastAnswer}</span>
        </>
      ) : null}
    </p>
  );
  const notice = session.state !== "ok" && (
    <QueueNotice state={session.state} message={session.message} width={pairwise ? `calc(2 * ${size} + 4rem)` : project.itemKind === "text" ? TEXT_WIDTH : size} height={`calc(${size} + 2rem)`} />
  );

  return (
    <div
      data-testid="workspace"
      data-mode={project.mode}
      data-task-id={current?.id ?? ""}
      data-item-index={current?.item.index ?? ""}
      data-stage={current?.stage ?? ""}
      data-drawn-by-round={current?.drawnByRound ?? ""}
      data-armed={String(armed)}
      data-label-by={verify ? "verify" : "pick"}
      data-verify-step={step ?? ""}
      className="-mt-2 flex flex-col gap-6"
    >
      <header className="flex flex-wrap items-center gap-x-8 gap-y-3 rounded-2xl bg-white px-5 py-3 shadow-sm ring-1 ring-slate-200">
        <div className="min-w-0 flex-1">
          <Link href={`/projects/${project.id}`} className="text-xs font-medium text-slate-500 hover:text-slate-800">
            ← {project.name}
          </Link>
          <h1 className="truncate text-lg font-semibold tracking-tight">{pairwise ? "Label pairs" : "Label items"}</h1>
        </div>
        <ProgressMeter
          testId="stage-progress"
          label={current ? stageName(current.stage) : "Stage"}
          value={stages?.fresh ?? null}
          total={stages?.batchSize ?? null}
          detail={`${stageDetail ? `${stageDetail}; ` : ""}settled labels toward the next round`}
        />
        <ProgressMeter testId="project-progress" label="Project labels" value={labels} total={budget} detail="skips and unsure do not count" />
        <div className="flex flex-col gap-1.5">
          <RoundIndicator round={snapshot?.round ?? null} />
          <SaveStatus unsaved={session.unsaved} retrying={session.retrying} />
        </div>
      </header>

      {pairwise ? (
        <section aria-label="Pair to label" className="flex flex-col items-center gap-6">
          {current?.itemB ? (
            <div className="flex items-start gap-16">
              <ItemView item={current.item} size={size} caption="A" />
              <ItemView item={current.itemB} size={size} caption="B" />
            </div>
          ) : (
            notice
          )}
          <PairAnswers onAnswer={answerPair} flash={typeof flash?.value === "string" ? flash.value : null} disabled={!current} />
          <ActionBar actions={actions} />
          {lastLine}
        </section>
      ) : (
        <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,1fr)_24rem]">
          <section aria-label="Item to label" className="flex flex-col items-center gap-5">
            {current ? <ItemView item={current.item} size={size} textWidth={TEXT_WIDTH} /> : notice}
            <ActionBar actions={actions} />
            {lastLine}
          </section>
          <section aria-label="Classes" className="flex flex-col gap-3">
            <h2 className="flex items-baseline justify-between text-xs font-semibold tracking-wide text-slate-500 uppercase">
              {step === "ask" ? "Same class?" : step === "newClass" ? "A new class?" : "Which class is it?"}
              <span className="font-normal tracking-normal normal-case">{classes.length} classes</span>
            </h2>
            {step === "ask" && askedOption ? (
              <ClassVerifier
                asked={askedOption}
                examples={examples.get(askedOption.index) ?? []}
                position={chain.position + 1}
                total={chain.order.length}
                flash={flash?.value === "same" || flash?.value === "different" ? flash.value : null}
                disabled={!current}
                onAnswer={answerVerdict}
                onShowList={() => setChain(showList(chain))}
              />
            ) : step === "newClass" ? (
              <div className="rounded-2xl border border-dashed border-slate-300 px-4 py-4 text-sm text-slate-700" data-testid="verify-new-class">
                <p>{classes.length ? `Different from all ${classes.length} classes.` : "No classes yet."}</p>
                <div className="mt-3 flex flex-wrap gap-2">
                  <button type="button" disabled={!current} onClick={() => setDialog("newClass")} className="rounded-lg bg-indigo-600 px-3 py-2 font-medium text-white hover:bg-indigo-500 disabled:opacity-50">
                    Name a new class <Kbd tone="dark">N</Kbd>
                  </button>
                  {classes.length > 0 && (
                    <button type="button" disabled={!current} onClick={() => setChain(showList(chain))} className="rounded-lg px-3 py-2 font-medium text-indigo-600 ring-1 ring-slate-200 hover:bg-slate-50 disabled:opacity-50">
                      Pick from the list <Kbd>L</Kbd>
                    </button>
                  )}
                </div>
              </div>
            ) : (
              <>
                {verify && chain.position > 0 && chain.position >= chain.order.length && (
                  <p className="rounded-xl bg-amber-50 px-3 py-2 text-xs text-amber-800" data-testid="verify-exhausted">
                    Different from every class asked: pick it here, press U if unsure, or Z to go back to the last class.
                  </p>
                )}
                <ClassPicker
                  classes={classes}
                  keys={keys}
                  examples={examples}
                  flash={typeof flash?.value === "number" ? flash.value : null}
                  disabled={!current}
                  filterRef={filterRef}
                  onChoose={chooseClass}
                />
              </>
            )}
            {classes.length === 0 && !verify && (
              <p className="rounded-xl border border-dashed border-slate-300 px-4 py-3 text-sm text-slate-600">
                No classes yet. Press <span className="font-semibold">N</span> to name the first one.
              </p>
            )}
          </section>
        </div>
      )}

      <HelpDialog
        open={dialog === "help"}
        onClose={() => closeDialog("help")}
        keyList={keyList}
        classes={classes}
        classKeys={keys}
        examples={examples}
        guidelines={project.guidelines}
        pairwise={pairwise}
      />
      <SkipDialog
        open={dialog === "skip"}
        onClose={() => closeDialog("skip")}
        onSkip={(reason) => {
          setDialog(null);
          give({ kind: "skip", reason }, reason ? `Skipped (${reason})` : "Skipped");
        }}
      />
      {open && !pairwise && <NewClassDialog open={dialog === "newClass"} onClose={() => closeDialog("newClass")} onCreate={createClass} />}
      <ToastStack toasts={toasts} onDismiss={dismiss} />
      <WorkspaceAnnouncer
        item={itemAnnouncement(current, session.state === "ok" ? null : QUEUE_TITLES[session.state], askedOption && { name: askedOption.name, position: chain.position + 1, total: chain.order.length })}
        save={saveAnnouncement(session.unsaved, session.retrying)}
        round={roundAnnouncement(snapshot?.round ?? null, snapshot?.lastRound ?? null)}
      />
    </div>
  );
}
