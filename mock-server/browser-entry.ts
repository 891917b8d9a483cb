/** What dist/mock-server.js exposes as `window.SvcMock`. */
export { startMockServer } from './browser';
export { DEMO_FIXTURE, OTHER_FIXTURE } from './fixtures';
