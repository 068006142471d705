/** The release and help shapes the console reads (api/src/contract.ts), as types only. */
export type { HelpInfo, Release } from '../../../api/src/contract';
