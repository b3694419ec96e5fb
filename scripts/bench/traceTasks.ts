/**
 * Reads a Chrome performance trace of one page load and first tap (interactions.ts writes it): the
 * renderer main thread's tasks from the page's request to the tap's click, each with what it did (its
 * direct children by name: ParseHTML, UpdateLayoutTree, Layout, Paint, v8.evaluateModule...), and the
 * moments that matter (first contentful paint, DOMContentLoaded, load, the tap's events).
 */

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; frame?: string; data?: { url?: string; type?: string; frame?: string } };
}

export interface TraceTask {
  /** ms from the page's request. */
  start: number;
  duration: number;
  /** ms per direct child event name, largest first. */
  work: [string, number][];
}

export interface TapTrace {
  tasks: TraceTask[];
  /** ms from the page's request, in order. */
  moments: [string, number][];
}

const ms = (microseconds: number) => microseconds / 1000;

/** The direct children of a task, summed by name (a child's own children are its work). */
function workOf(task: TraceEvent, inside: TraceEvent[]): [string, number][] {
  const end = task.ts + task.dur!;
  const byName = new Map<string, number>();
  let coveredUntil = task.ts;
  for (const event of inside) {
    if (event.ts < coveredUntil || event.ts >= end) continue;
    byName.set(event.name, (byName.get(event.name) ?? 0) + ms(event.dur!));
    coveredUntil = event.ts + event.dur!;
  }
  return [...byName].sort((a, b) => b[1] - a[1]);
}

/** The main-thread tasks of at least `minTaskMs` of the page at `url`, from its request to the tap's click (or the trace's end). */
export function tapTrace(traceJson: string, url: string, minTaskMs = 4): TapTrace {
  const parsed = JSON.parse(traceJson) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const request = events.filter((event) => event.name === 'ResourceSendRequest' && event.args?.data?.url === url).at(-1);
  if (!request) throw new Error(`the trace holds no request for ${url}`);
  const frame = request.args!.data!.frame;
  const mainThread = events.find((event) => event.ph === 'M' && event.name === 'thread_name' && event.pid === request.pid && event.args?.name === 'CrRendererMain');
  if (!mainThread) throw new Error('the trace names no renderer main thread for the page');
  const onMain = events.filter((event) => event.pid === mainThread.pid && event.tid === mainThread.tid && event.ts >= request.ts).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const at = (event: TraceEvent) => ms(event.ts - request.ts);

  const moments: [string, number][] = [];
  for (const event of events.filter((each) => each.pid === request.pid && each.ts >= request.ts).sort((a, b) => a.ts - b.ts)) {
    const ofPage = (event.args?.frame ?? event.args?.data?.frame) === frame;
    if (ofPage && (event.name === 'firstContentfulPaint' || event.name === 'MarkDOMContent' || event.name === 'MarkLoad')) {
      moments.push([{ firstContentfulPaint: 'first contentful paint', MarkDOMContent: 'DOMContentLoaded', MarkLoad: 'load' }[event.name]!, at(event)]);
    }
    if (event.name === 'EventDispatch' && ['pointerdown', 'click', 'toggle'].includes(event.args?.data?.type ?? '') && event.tid === mainThread.tid) {
      moments.push([`${event.args!.data!.type} dispatched`, at(event)]);
    }
  }
  const click = moments.find(([name]) => name === 'click dispatched');
  const until = click ? request.ts + click[1] * 1000 : Infinity;

  const complete = onMain.filter((event) => event.ph === 'X' && event.dur !== undefined);
  const tasks = complete
    .filter((event) => event.name === 'RunTask' && event.ts <= until && ms(event.dur!) >= minTaskMs)
    .map((task) => {
      const inside = complete.filter((event) => event !== task && event.name !== 'RunTask' && event.ts >= task.ts && event.ts < task.ts + task.dur!);
      return { start: at(task), duration: ms(task.dur!), work: workOf(task, inside) };
    });
  return { tasks, moments };
}

/** The trace as lines: each task with its chief work, and the moments in their places. */
export function describeTapTrace({ tasks, moments }: TapTrace): string[] {
  const rows: [number, string][] = [
    ...tasks.map((task): [number, string] => [
      task.start,
      `${task.start.toFixed(0).padStart(6)} ms  task ${task.duration.toFixed(1).padStart(6)} ms  ${task.work
        .filter(([, spent]) => spent >= 1)
        .slice(0, 5)
        .map(([name, spent]) => `${name} ${spent.toFixed(0)}`)
        .join(', ')}`,
    ]),
    ...moments.map(([name, when]): [number, string] => [when, `${when.toFixed(0).padStart(6)} ms  -- ${name}`]),
  ];
  return rows.sort((a, b) => a[0] - b[0]).map(([, line]) => line);
}
