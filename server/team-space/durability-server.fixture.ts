import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clusterExtensions, clusterSettings } from './cluster';
import { sqlitePersistence } from './persistence-sqlite';
import { createTeamSpace } from './team-space-server';

// A team-space server in a process of its own, for durability.test.ts to kill with SIGKILL. Told by its
// environment:
// - DURABILITY_STORE=sqlite: the embedded server as `npm start` makes it (createTeamSpace with a data
//   folder, TEAM_SPACE_DATA); =cluster: a node's extensions (cluster.ts: Redis and PostgreSQL,
//   TEAM_SPACE_REDIS_URL and TEAM_SPACE_DATABASE_URL), as node.ts makes them;
// - DURABILITY_LOG=off: the same with the write-ahead log turned off (the test's control);
// - TEAM_SPACE_API_URL: where keys are checked.
// It listens on a port of the kernel's choosing and prints it: "listening <port>".

const apiBaseUrl = process.env.TEAM_SPACE_API_URL!;
const writeAheadLog = process.env.DURABILITY_LOG !== 'off';
const log = (line: string) => console.log(`[team-space] ${line}`);

function teamSpace() {
  if (process.env.DURABILITY_STORE === 'cluster') {
    const settings = clusterSettings(process.env);
    if (!settings)
      throw new Error('DURABILITY_STORE=cluster needs TEAM_SPACE_REDIS_URL and TEAM_SPACE_DATABASE_URL');
    return createTeamSpace({ apiBaseUrl, log, extensions: clusterExtensions(settings, { writeAheadLog }) });
  }
  const dataDir = process.env.TEAM_SPACE_DATA!;
  if (writeAheadLog) return createTeamSpace({ apiBaseUrl, log, dataDir });
  return createTeamSpace({
    apiBaseUrl,
    log,
    extensions: [sqlitePersistence(dataDir, { writeAheadLog }).extension],
  });
}

const space = teamSpace();
const server = createServer((_req, res) => res.writeHead(404).end());
server.on('upgrade', (req, socket, head) => {
  if (!space.handleUpgrade(req, socket, head)) socket.destroy();
});
server.listen(0, '127.0.0.1', () => {
  console.log(`listening ${(server.address() as AddressInfo).port}`);
});
