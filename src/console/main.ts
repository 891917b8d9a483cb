/**
 * The owner console (issue 32), served by `svc serve` at /console/: a static page that reads and
 * acts through the Admin API of the service that serves it, with the owner's key. No framework;
 * its charts are its own SVG (docs/decisions/0040-owner-console.md).
 */
import { ConsoleApp } from './app';

const root = document.getElementById('app');
if (root) new ConsoleApp(root).start();
