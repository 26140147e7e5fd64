/** Entry point: server settings from the page URL, then the app on the notebook from `?path=`. */
// First: its requests go out before the rest of the page's script evaluates (early-requests.ts).
import './early-requests.js';
import './styles.css';
import { App } from './app.js';
import { loadServices } from './services-loader.js';

const root = document.getElementById('app');
if (!root) throw new Error('index.html must contain #app');
const requested = new URL(window.location.href).searchParams.get('path');
// Output renderers and markdown load when something needs them, else once the notebook is open and idle (App).
const app = new App(root, loadServices().then(({ pageToken, serverSettings }) => serverSettings(pageToken())));
void app.start(requested);
