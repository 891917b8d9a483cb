/**
 * "Rate limited: waiting 7 s", counting down, while any request waits out a 429's Retry-After;
 * gone when the last wait is over. One notice for the page, however many reads wait at once.
 */
import { h } from '../dom';

export class RateLimitNotice {
  readonly element = h('p', { class: 'rate-limit', role: 'status', hidden: true });
  private until = 0;
  private waiting = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  wait(seconds: number): void {
    this.waiting++;
    this.until = Math.max(this.until, Date.now() + seconds * 1000);
    this.render();
    this.timer ??= setInterval(() => this.render(), 250);
  }

  over(): void {
    this.waiting = Math.max(0, this.waiting - 1);
    if (this.waiting > 0) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.until = 0;
    this.element.hidden = true;
    this.element.textContent = '';
  }

  private render(): void {
    const seconds = Math.max(0, Math.ceil((this.until - Date.now()) / 1000));
    const text = `Rate limited: waiting ${seconds} s, then reading on`;
    if (this.element.textContent !== text) this.element.textContent = text;
    this.element.hidden = false;
  }
}
