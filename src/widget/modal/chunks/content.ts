/** Protected content (an article, a player, a download), one chunk (../screen-chunks.ts). */
export { contentScreen } from '../screens/content';
