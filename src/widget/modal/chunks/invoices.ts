/** The member's invoices; a chunk of its own (../screen-chunks.ts). */
export { invoicesScreen } from '../screens/invoices';
