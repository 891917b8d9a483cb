import { createMemoryStore } from '../src/service/store/memory';
import { runStoreContract } from './store-contract';

runStoreContract('memory store', () => createMemoryStore());
