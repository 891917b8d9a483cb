/**
 * The line a long read shows while it runs: what it reads, "read N of ~M" (M where the API lets
 * the console estimate it), a progress bar and a Stop button; then what it read, or that it
 * stopped and the numbers count only what was read.
 */
import type { ReadOutcome } from '../api/long-read';
import { count } from '../format';
import { h } from '../dom';

export class ReadProgress {
  readonly element: HTMLElement;
  private readonly controller = new AbortController();
  private readonly bar: HTMLProgressElement;
  private readonly text: HTMLElement;
  private readonly stopButton: HTMLButtonElement;
  /** Aborted by Stop, or when the view it is in stops. */
  readonly signal: AbortSignal;

  constructor(
    private readonly what: string,
    viewSignal: AbortSignal,
    private readonly estimate?: number,
  ) {
    this.signal = AbortSignal.any([viewSignal, this.controller.signal]);
    this.bar = h('progress', { max: estimate || null, 'aria-label': `Reading ${what}` });
    this.text = h('span', { class: 'read-count' }, `Reading ${what}…`);
    this.stopButton = h('button', { type: 'button', onclick: () => this.controller.abort() }, 'Stop', h('span', { class: 'visually-hidden' }, ` reading ${what}`));
    this.element = h('div', { class: 'read-progress' }, this.bar, ' ', this.text, ' ', this.stopButton);
  }

  update(read: number): void {
    this.text.textContent = this.estimate ? `Reading ${this.what}: read ${count(read)} of ~${count(this.estimate)}` : `Reading ${this.what}: read ${count(read)}`;
    if (this.estimate) this.bar.value = Math.min(read, this.estimate);
  }

  finish(outcome: ReadOutcome): void {
    const done = outcome.complete
      ? `Read ${count(outcome.read)} ${this.what}.`
      : `Stopped after ${count(outcome.read)} ${this.what}${this.estimate ? ` of ~${count(this.estimate)}` : ''}: the numbers below count those only.`;
    this.element.replaceChildren(h('p', { class: outcome.complete ? 'read-done' : 'read-stopped', role: 'status' }, done));
  }

  fail(message: string): void {
    this.element.replaceChildren(h('p', { class: 'error', role: 'alert' }, message));
  }
}
