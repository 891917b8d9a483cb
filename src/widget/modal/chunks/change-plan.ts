/** Changing plans: a chunk of its own, without joining's (../screen-chunks.ts). */
export { changePlanScreen } from '../screens/change-plan';
