// @ts-check
/// <reference path="../types/hooks.d.ts" />

// GET /api/chat/admin/health (workspace owner and admins): how replication is doing, as the supervisor
// of `npm start` last found it (scripts/lib/replication-health.mjs writes .replication-status.json into
// the data directory every 2 s). No file: this server runs without that supervisor. A file older than
// 15 s: the supervisor no longer checks (it is not running, or stuck), so nothing is known.
// Answer: {replication: {state: "ok"|"behind"|"stopped"|"off"|"unknown", message, checkedAt,
//          changedAt, replicatedAt, walBytes}}
routerAdd("GET", "/api/chat/admin/health", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { requireAdmin } = require(`${__hooks}/lib/roles.js`);
  const caller = requireUser(e, "Not authenticated");
  requireAdmin(e.app, caller.id);

  const STALE_MS = 15 * 1000;
  /** @type {Record<string, unknown>} */
  let status;
  try {
    status = JSON.parse(toString($os.readFile(`${e.app.dataDir()}/.replication-status.json`), 64 * 1024));
  } catch (_) {
    status = {
      state: "unknown",
      message: "Replication is not watched on this server: it runs without the supervisor of npm start, which runs and checks Litestream.",
    };
  }
  const checked = Date.parse(String(status.checkedAt || ""));
  if (status.state !== "off" && status.state !== "unknown" && !(Date.now() - checked < STALE_MS)) {
    const seconds = Number.isFinite(checked) ? Math.round((Date.now() - checked) / 1000) : 0;
    status = {
      ...status,
      state: "unknown",
      message: `Replication's health was last checked ${seconds} s ago: the supervisor is not checking it.`,
    };
  }
  return e.json(200, {
    replication: {
      state: String(status.state),
      message: String(status.message || ""),
      checkedAt: status.checkedAt || null,
      changedAt: status.changedAt || null,
      replicatedAt: status.replicatedAt || null,
      walBytes: Number(status.walBytes) || 0,
    },
  });
});
