import { lakeCommandContract } from './lake-command-contract.ts';

lakeCommandContract('a directory lake', () => undefined);
