/** The current time in epoch milliseconds. Passed in so tests and the seed can set it. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
