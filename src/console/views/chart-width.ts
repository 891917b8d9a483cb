/** The width a chart drawn into `element` gets: what the element has now (it is on the page by the time a read ends), else a desktop width. */
export const chartWidth = (element: HTMLElement): number => Math.min(960, element.clientWidth || 640);
