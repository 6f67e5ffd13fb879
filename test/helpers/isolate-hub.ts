/**
 * Preloaded into every test process by scripts/run-tests.mjs (`--import`): the isolated hub
 * settings for the test's own resolutions and every process it starts, whatever the developer's
 * environment says.
 */
import { ISOLATED_HUB_ENV } from './hub-isolation.js';

Object.assign(process.env, ISOLATED_HUB_ENV);
