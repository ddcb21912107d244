/**
 * The headless Chromium the browser tests drive: Debian's `chromium` (or `CHROMIUM_PATH`), quiet flags.
 */
import { type Browser, chromium } from 'playwright-core';

/** Launches Chromium headless, without a sandbox, GPU or background traffic. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
