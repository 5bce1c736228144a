// Temporary (not committed): the same e2e config, but the server is the pre-change build of main in /tmp/h15-old.
import base from './playwright.config';
export default { ...base, outputDir: '/tmp/h15c-old-results', reporter: [['list']], webServer: { ...base.webServer, cwd: '/tmp/h15-old' } };
