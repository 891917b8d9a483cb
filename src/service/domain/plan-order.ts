/**
 * The order the widget lists a site's plans in: by position (the site file's order), then plans
 * without one (made by code, or out of the file) by id. For Array.prototype.sort; the member API
 * lists plans so and `svc sites export` writes them so. (Its own file: the member API must not
 * import ./plans, which sanitizes with a Node-only library.)
 */
export function byListOrder(a: { position?: number; id: number }, b: { position?: number; id: number }): number {
  return (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER) || a.id - b.id;
}
