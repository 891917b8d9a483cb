/**
 * A page with the widget, and a record of every event the widget sent on it: an init script
 * listens on `document` before any page script runs (as spec 1.1 asks site owners to), so
 * nothing is missed, and keeps the events in `window.__events`.
 */
import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import type { ServiceEventMap } from '../../../src/widget/public-types';

export type WidgetEventName = keyof ServiceEventMap;

export const WIDGET_EVENTS: WidgetEventName[] = [
  'Service.ready',
  'Service.member.info',
  'Service.member.logout',
  'Service.member.registration',
  'Service.conversion',
];

export interface RecordedEvent {
  type: WidgetEventName;
  detail: unknown;
  /** Date.now() in the page when it was sent. */
  at: number;
}

declare global {
  interface Window {
    __events: RecordedEvent[];
  }
}

/** Runs in the page, before its own scripts. */
function recordWidgetEvents(names: string[]): void {
  window.__events = [];
  for (const name of names) {
    document.addEventListener(name, (event) => {
      window.__events.push({ type: event.type as WidgetEventName, detail: (event as CustomEvent).detail ?? null, at: Date.now() });
    });
  }
}

export class WidgetPage {
  /** Console messages and uncaught errors of the page, quoted when a wait fails. */
  readonly log: string[] = [];

  private readonly onConsole = (message: ConsoleMessage) => this.log.push(`console.${message.type()}: ${message.text()}`);
  private readonly onError = (error: Error) => this.log.push(`pageerror: ${error.message}`);

  constructor(readonly page: Page) {
    page.on('console', this.onConsole);
    page.on('pageerror', this.onError);
  }

  /** Stops recording the page's console, which stays open for the next test's WidgetPage. */
  detach(): void {
    this.page.off('console', this.onConsole);
    this.page.off('pageerror', this.onError);
  }

  events(): Promise<RecordedEvent[]> {
    return this.page.evaluate(() => window.__events);
  }

  async eventTypes(): Promise<WidgetEventName[]> {
    return (await this.events()).map((event) => event.type);
  }

  /** Waits until the page has seen `count` events of `type`; answers the last of them. */
  async waitForEvent(type: WidgetEventName, { count = 1, timeout = 5_000 } = {}): Promise<RecordedEvent> {
    try {
      await this.page.waitForFunction(([t, n]) => window.__events.filter((e) => e.type === t).length >= n, [type, count] as const, {
        timeout,
        polling: 50,
      });
    } catch (error) {
      const seen = await this.eventTypes().catch(() => ['(page gone)']);
      throw new Error(
        `${this.page.url()}: no ${count === 1 ? '' : `#${count} `}${type} within ${timeout} ms; events: [${seen.join(', ')}]\n` +
          `${this.log.join('\n')}\n${(error as Error).message}`,
      );
    }
    return (await this.events()).filter((event) => event.type === type)[count - 1]!;
  }

  /** How many events of `type` the page has seen so far. */
  async count(type: WidgetEventName): Promise<number> {
    return (await this.events()).filter((event) => event.type === type).length;
  }
}

/** Opens `url` in `context` and waits for `Service.ready`. */
export async function openWidgetPage(context: BrowserContext, url: string): Promise<WidgetPage> {
  const page = new WidgetPage(await context.newPage());
  await page.page.goto(url);
  await page.waitForEvent('Service.ready');
  return page;
}

/** Every context of a suite records widget events on every page it opens. */
export async function recordEventsIn(context: BrowserContext): Promise<void> {
  await context.addInitScript(recordWidgetEvents, WIDGET_EVENTS);
}
