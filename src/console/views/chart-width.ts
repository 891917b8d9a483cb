/** The width a chart drawn into `element` starts at: what the element has now (it is on the page by the time a read ends), else a desktop width; charts/fitted-chart keeps it within bounds and follows it after. */
export const chartWidth = (element: HTMLElement): number => element.clientWidth || 640;
