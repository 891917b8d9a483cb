/** The mock server for Node tests: the service app answering inside MSW's setupServer. */
import { setupServer, type SetupServer } from 'msw/node';
import type { Clock } from '../src/service/domain/clock';
import { sharpPictureEncoder } from '../src/service/member/pictures/sharp-encoder';
import { createMockApp, type MockApp } from './app';
import { DEMO_FIXTURE, FIXTURES, type FixtureSite } from './fixtures';
import { serviceHandlers } from './handlers';

/** Where tests point the widget: any origin works, MSW answers before the network. */
export const MOCK_API_ORIGIN = 'http://svc.mock';

export interface MockServer extends MockApp {
  server: SetupServer;
  origin: string;
  fixtures: FixtureSite;
}

/** Starts listening at once; call `server.close()` when done. */
export async function createMockServer(options: { origin?: string; clock?: Clock } = {}): Promise<MockServer> {
  const origin = options.origin ?? MOCK_API_ORIGIN;
  // In Node, sharp is there: pictures are re-encoded as svc serve does (the browser's mock takes none).
  const mock = await createMockApp({ ...(options.clock && { clock: options.clock }), fixtures: FIXTURES, pictures: sharpPictureEncoder() });
  const server = setupServer(...serviceHandlers(mock.app, origin));
  server.listen({ onUnhandledRequest: 'bypass' });
  return { ...mock, server, origin, fixtures: DEMO_FIXTURE };
}
