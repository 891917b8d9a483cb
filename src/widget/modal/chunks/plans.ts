/** The plans on offer; a chunk of its own, so the list downloads no form (../screen-chunks.ts). */
export { plansScreen } from '../screens/plans';
