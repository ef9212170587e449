// @ts-check
/// <reference path="../types/hooks.d.ts" />

// The audit log (docs/decisions/0054-audit-log.md): administrative actions and security events, one row
// each, appended by hooks only (pb_hooks/lib/audit.js), each row carrying the hash of the one before.
// No API rule opens it: the app's console reads it through a hook that checks the caller's role.
// Also the account status an administrator sets: `deactivated` on the public profile.
migrate(
  (app) => {
    const log = new Collection(
      /** @type {any} */ (
        /** @satisfies {CollectionData} */ ({
          type: "base",
          name: "audit_log",
          listRule: null,
          viewRule: null,
          createRule: null,
          updateRule: null,
          deleteRule: null,
          fields: [
            { name: "seq", type: "number", required: true, onlyInt: true, min: 1 },
            { name: "at", type: "text", required: true, max: 40 },
            { name: "actor", type: "text", max: 40 },
            { name: "action", type: "text", required: true, max: 60, pattern: "^[a-z0-9_.]+$" },
            { name: "target", type: "text", max: 200 },
            { name: "ip", type: "text", max: 64 },
            { name: "device", type: "text", max: 200 },
            { name: "details", type: "json", maxSize: 4000 },
            { name: "prev_hash", type: "text", max: 64 },
            { name: "hash", type: "text", required: true, max: 64 },
          ],
          indexes: [
            "CREATE UNIQUE INDEX `idx_audit_log_seq` ON `audit_log` (`seq`)",
            "CREATE INDEX `idx_audit_log_actor` ON `audit_log` (`actor`)",
            "CREATE INDEX `idx_audit_log_target` ON `audit_log` (`target`)",
          ],
        })
      ),
    );
    app.save(log);

    const profiles = app.findCollectionByNameOrId("profiles");
    profiles.fields.add(new BoolField({ name: "deactivated" }));
    app.save(profiles);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("audit_log"));
    const profiles = app.findCollectionByNameOrId("profiles");
    profiles.fields.removeByName("deactivated");
    app.save(profiles);
  },
);
