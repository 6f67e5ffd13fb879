/** The dashboard subsystem's front door: what other subsystems may import from it. */
export { isLoopbackHost, startDashboard } from './server.js';
