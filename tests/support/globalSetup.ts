import { build } from '../../build';

/** Builds the client once for the whole run: server tests read its manifest, browser tests load its files. */
export default async function globalSetup(): Promise<void> {
  await build();
}
